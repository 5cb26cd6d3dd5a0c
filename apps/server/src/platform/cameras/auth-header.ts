import { createHash, randomBytes } from "node:crypto";

/**
 * The client side of HTTP (and RTSP) authentication: read the challenges of
 * a 401 (several WWW-Authenticate lines, or several challenges in one) and
 * answer the best one we can: Digest with SHA-256, then Digest with MD5
 * (RFC 7616, with qop=auth when offered, without as RFC 2069 cameras want),
 * then Basic.
 */

export type Challenge = { scheme: string; params: Record<string, string> };
export type Credentials = { username: string; password: string };

const TOKEN = /[!#$%&'*+.^_`|~\w-]+/y;

/** Parses WWW-Authenticate values into challenges, scheme names in lower case. */
export function parseChallenges(values: string[]): Challenge[] {
  const challenges: Challenge[] = [];
  for (const value of values) {
    let i = 0;
    let current: Challenge | null = null;
    while (i < value.length) {
      while (i < value.length && (value[i] === " " || value[i] === "," || value[i] === "\t")) i++;
      TOKEN.lastIndex = i;
      const token = TOKEN.exec(value)?.[0];
      if (!token) break;
      i += token.length;
      let j = i;
      while (value[j] === " " || value[j] === "\t") j++;
      if (value[j] === "=" && current) {
        i = j + 1;
        while (value[i] === " " || value[i] === "\t") i++;
        let v = "";
        if (value[i] === '"') {
          i++;
          while (i < value.length && value[i] !== '"') {
            if (value[i] === "\\" && i + 1 < value.length) i++;
            v += value[i];
            i++;
          }
          i++;
        } else {
          TOKEN.lastIndex = i;
          v = TOKEN.exec(value)?.[0] ?? "";
          i += v.length;
        }
        current.params[token.toLowerCase()] = v;
      } else {
        current = { scheme: token.toLowerCase(), params: {} };
        challenges.push(current);
      }
    }
  }
  return challenges;
}

const HASHES: Record<string, string> = { "SHA-256": "sha256", MD5: "md5" };
const hash = (algorithm: string, text: string) => createHash(algorithm).update(text, "utf8").digest("hex");
const quote = (v: string) => `"${v.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;

function rank(c: Challenge): number {
  if (c.scheme === "digest") {
    const algorithm = (c.params.algorithm ?? "MD5").toUpperCase();
    if (!HASHES[algorithm] || !c.params.nonce) return 0;
    return algorithm === "SHA-256" ? 3 : 2;
  }
  return c.scheme === "basic" ? 1 : 0;
}

/** The challenge we will answer, or null when none is one we can. */
export function pickChallenge(challenges: Challenge[]): Challenge | null {
  let best: Challenge | null = null;
  for (const c of challenges) if (rank(c) > (best ? rank(best) : 0)) best = c;
  return best;
}

/**
 * The Authorization value answering `challenge` for this request. `uri` is
 * the request target exactly as the request line has it (a path for HTTP,
 * the whole URL for RTSP).
 */
export function authorization(
  challenge: Challenge,
  credentials: Credentials,
  request: { method: string; uri: string },
): string {
  if (challenge.scheme === "basic") {
    return `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`, "utf8").toString("base64")}`;
  }
  const p = challenge.params;
  const algorithmName = (p.algorithm ?? "MD5").toUpperCase();
  const algorithm = HASHES[algorithmName] ?? "md5";
  const realm = p.realm ?? "";
  const nonce = p.nonce ?? "";
  const ha1 = hash(algorithm, `${credentials.username}:${realm}:${credentials.password}`);
  const ha2 = hash(algorithm, `${request.method}:${request.uri}`);
  const offered = (p.qop ?? "").split(",").map((q) => q.trim().toLowerCase());
  const parts = [
    `username=${quote(credentials.username)}`,
    `realm=${quote(realm)}`,
    `nonce=${quote(nonce)}`,
    `uri=${quote(request.uri)}`,
  ];
  if (p.algorithm) parts.push(`algorithm=${p.algorithm}`);
  if (offered.includes("auth")) {
    const nc = "00000001";
    const cnonce = randomBytes(8).toString("hex");
    parts.push(
      `response=${quote(hash(algorithm, `${ha1}:${nonce}:${nc}:${cnonce}:auth:${ha2}`))}`,
      "qop=auth",
      `nc=${nc}`,
      `cnonce=${quote(cnonce)}`,
    );
  } else {
    parts.push(`response=${quote(hash(algorithm, `${ha1}:${nonce}:${ha2}`))}`);
  }
  if (p.opaque !== undefined) parts.push(`opaque=${quote(p.opaque)}`);
  return `Digest ${parts.join(", ")}`;
}
