import { createHmac, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { EXIT_TOKEN_TTL_SECONDS, signExitToken, verifyExitToken } from "./exit-token.ts";

const key = randomBytes(32);
const visit = { sessionId: "0b7e3c1e-8f4a-4c55-9d3e-2f1a6b7c8d9e", storeId: "11111111-2222-4333-8444-555555555555" };
const now = new Date("2026-11-23T12:00:00Z");

describe("the exit token", () => {
  it("names the visit and the store and reads back with the key that signed it", () => {
    const { token, claims } = signExitToken(key, visit, now);
    expect(token).toMatch(/^GLIDEX1\.[\w-]+\.[\w-]+$/);
    expect(token).not.toContain(visit.sessionId);
    expect(claims.expiresAt).toBe(now.getTime() / 1000 + EXIT_TOKEN_TTL_SECONDS);
    expect(verifyExitToken(key, token, now)).toEqual({ ok: true, claims });
    expect(verifyExitToken(key, ` ${token}\n`, now).ok).toBe(true);
  });

  it("is valid until the second before its expiry, not at it", () => {
    const { token } = signExitToken(key, visit, now);
    const last = new Date(now.getTime() + EXIT_TOKEN_TTL_SECONDS * 1000 - 1);
    const end = new Date(now.getTime() + EXIT_TOKEN_TTL_SECONDS * 1000);
    expect(verifyExitToken(key, token, last).ok).toBe(true);
    expect(verifyExitToken(key, token, end)).toEqual({ ok: false, reason: "expired" });
  });

  it("refuses another key, a changed payload or signature, and what is not a token", () => {
    const { token } = signExitToken(key, visit, now);
    const [prefix, payload, signature] = token.split(".") as [string, string, string];
    expect(verifyExitToken(randomBytes(32), token, now)).toEqual({ ok: false, reason: "forged" });
    const otherVisit = signExitToken(key, { ...visit, sessionId: visit.storeId }, now).token.split(".")[1];
    expect(verifyExitToken(key, `${prefix}.${otherVisit}.${signature}`, now)).toEqual({ ok: false, reason: "forged" });
    expect(verifyExitToken(key, `${prefix}.${payload}.${signature.slice(0, -2)}`, now)).toEqual({
      ok: false,
      reason: "forged",
    });
    for (const bad of ["", "GLIDEX1", `GLIDEX2.${payload}.${signature}`, `${token}.x`, visit.sessionId]) {
      expect(verifyExitToken(key, bad, now)).toEqual({ ok: false, reason: "malformed" });
    }
  });

  it("refuses a correctly signed payload that is not JSON or not the token's four fields", () => {
    /** A token of this format signed with the right key around any payload, as only the server could make one. */
    const signed = (text: string) => {
      const payload = Buffer.from(text).toString("base64url");
      const signature = createHmac("sha256", key).update(`GLIDEX1.${payload}`).digest("base64url");
      return `GLIDEX1.${payload}.${signature}`;
    };
    const expires = now.getTime() / 1000 + 60;
    const good = [visit.sessionId, visit.storeId, expires, "nonce"];
    expect(verifyExitToken(key, signed(JSON.stringify(good)), now)).toEqual({
      ok: true,
      claims: { sessionId: visit.sessionId, storeId: visit.storeId, expiresAt: expires, nonce: "nonce" },
    });
    const bad = [
      "not json",
      JSON.stringify({ 0: visit.sessionId, 1: visit.storeId, 2: expires, 3: "nonce", length: 4 }),
      JSON.stringify(good.slice(0, 3)),
      JSON.stringify([...good, "extra"]),
      JSON.stringify([1, visit.storeId, expires, "nonce"]),
      JSON.stringify([visit.sessionId, null, expires, "nonce"]),
      JSON.stringify([visit.sessionId, visit.storeId, String(expires), "nonce"]),
      JSON.stringify([visit.sessionId, visit.storeId, expires, 7]),
    ];
    for (const text of bad)
      expect(verifyExitToken(key, signed(text), now), text).toEqual({ ok: false, reason: "malformed" });
  });

  it("gives each token its own nonce, so each can be spent once", () => {
    const a = signExitToken(key, visit, now).claims.nonce;
    const b = signExitToken(key, visit, now).claims.nonce;
    expect(a).not.toBe(b);
  });
});
