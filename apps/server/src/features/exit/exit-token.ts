import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * The exit QR code: a short-lived token bound to one visit and its store,
 * signed by the server, so a screenshot of someone else's code or an old one
 * opens nothing. "GLIDEX1.<payload>.<signature>", base64url; the payload holds
 * the visit, the store, the expiry and a nonce that is spent at the gate.
 */
const PREFIX = "GLIDEX1";
/** Long enough to walk to the gate; the page asks for a new one before it runs out. */
export const EXIT_TOKEN_TTL_SECONDS = 120;

export interface ExitClaims {
  sessionId: string;
  storeId: string;
  /** Seconds since epoch. */
  expiresAt: number;
  nonce: string;
}

const mac = (key: Buffer, payload: string) => createHmac("sha256", key).update(`${PREFIX}.${payload}`).digest();

export function signExitToken(
  key: Buffer,
  visit: { sessionId: string; storeId: string },
  now = new Date(),
): { token: string; claims: ExitClaims } {
  const claims: ExitClaims = {
    sessionId: visit.sessionId,
    storeId: visit.storeId,
    expiresAt: Math.floor(now.getTime() / 1000) + EXIT_TOKEN_TTL_SECONDS,
    nonce: randomBytes(12).toString("base64url"),
  };
  const payload = Buffer.from(
    JSON.stringify([claims.sessionId, claims.storeId, claims.expiresAt, claims.nonce]),
  ).toString("base64url");
  return { token: `${PREFIX}.${payload}.${mac(key, payload).toString("base64url")}`, claims };
}

export type ExitTokenCheck =
  | { ok: true; claims: ExitClaims }
  | { ok: false; reason: "malformed" | "forged" | "expired" };

export function verifyExitToken(key: Buffer, token: string, now = new Date()): ExitTokenCheck {
  const parts = token.trim().split(".");
  if (parts.length !== 3 || parts[0] !== PREFIX || !parts[1] || !parts[2]) return { ok: false, reason: "malformed" };
  const [, payload, signature] = parts as [string, string, string];
  const given = Buffer.from(signature, "base64url");
  const expected = mac(key, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: "forged" };
  let fields: unknown;
  try {
    fields = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return { ok: false, reason: "malformed" };
  }
  if (
    !Array.isArray(fields) ||
    fields.length !== 4 ||
    typeof fields[0] !== "string" ||
    typeof fields[1] !== "string" ||
    typeof fields[2] !== "number" ||
    typeof fields[3] !== "string"
  )
    return { ok: false, reason: "malformed" };
  const claims: ExitClaims = { sessionId: fields[0], storeId: fields[1], expiresAt: fields[2], nonce: fields[3] };
  if (claims.expiresAt * 1000 <= now.getTime()) return { ok: false, reason: "expired" };
  return { ok: true, claims };
}
