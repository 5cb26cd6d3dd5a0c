import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * The device side of HTTP authentication, shared by the picture URLs and
 * RTSP: Digest (RFC 7616 with MD5; with qop=auth over HTTP, without qop
 * over RTSP, as cameras do) or Basic. Nonces carry their own issue time and
 * a MAC, so any nonce this process issued in the last five minutes is good
 * and an older one is answered `stale=true`.
 */

const NONCE_LIFETIME_MS = 5 * 60_000;
const md5 = (text: string) => createHash("md5").update(text).digest("hex");

export type AuthScheme = "digest" | "basic";
export type AuthCheck = "ok" | "missing" | "wrong" | "stale";

/** `key=value` and `key="quoted, value"` pairs after the scheme name. */
export function parseAuthParams(text: string): Record<string, string> {
  const params: Record<string, string> = {};
  const re = /\s*([\w-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]*))\s*,?/gy;
  let m: RegExpExecArray | null = re.exec(text);
  while (m) {
    params[m[1]!.toLowerCase()] = m[2] !== undefined ? m[2].replace(/\\(.)/g, "$1") : (m[3] ?? "");
    if (re.lastIndex >= text.length) break;
    m = re.exec(text);
  }
  return params;
}

export function createHttpAuth(opts: { realm: string }) {
  const secret = randomBytes(32);
  const opaque = randomBytes(8).toString("hex");

  function nonce(now: number): string {
    const issued = String(now);
    const mac = createHmac("sha256", secret).update(issued).digest("base64url").slice(0, 22);
    return Buffer.from(`${issued}:${mac}`).toString("base64url");
  }

  function nonceState(value: string, now: number): "good" | "stale" | "bad" {
    const [issued, mac] = Buffer.from(value, "base64url").toString("utf8").split(":");
    if (!issued || !mac) return "bad";
    const expected = createHmac("sha256", secret).update(issued).digest("base64url").slice(0, 22);
    if (expected.length !== mac.length || !timingSafeEqual(Buffer.from(expected), Buffer.from(mac))) return "bad";
    return now - Number(issued) > NONCE_LIFETIME_MS ? "stale" : "good";
  }

  return {
    realm: opts.realm,

    /** The WWW-Authenticate value for a 401. */
    challenge(scheme: AuthScheme, o: { qop: boolean; stale?: boolean; now?: number }): string {
      if (scheme === "basic") return `Basic realm="${opts.realm}"`;
      const parts = [`realm="${opts.realm}"`];
      if (o.qop) parts.push('qop="auth"');
      parts.push(`nonce="${nonce(o.now ?? Date.now())}"`);
      if (o.qop) parts.push(`opaque="${opaque}"`, "algorithm=MD5");
      if (o.stale) parts.push("stale=TRUE");
      return `Digest ${parts.join(", ")}`;
    },

    /**
     * Checks an Authorization header against the credentials. `uri` is the
     * request target as the request line gave it; `qop` says whether qop=auth
     * is required (the challenge offered it).
     */
    check(
      header: string | undefined,
      req: { method: string; uri: string },
      credentials: { user: string; password: string },
      o: { scheme: AuthScheme; qop: boolean; now?: number },
    ): AuthCheck {
      if (!header) return "missing";
      const space = header.indexOf(" ");
      const scheme = (space < 0 ? header : header.slice(0, space)).toLowerCase();
      const rest = space < 0 ? "" : header.slice(space + 1);
      if (o.scheme === "basic") {
        if (scheme !== "basic") return "missing";
        const decoded = Buffer.from(rest.trim(), "base64").toString("utf8");
        const colon = decoded.indexOf(":");
        if (colon < 0) return "wrong";
        return same(decoded.slice(0, colon), credentials.user) && same(decoded.slice(colon + 1), credentials.password)
          ? "ok"
          : "wrong";
      }
      if (scheme !== "digest") return "missing";
      const p = parseAuthParams(rest);
      if (!p.username || !p.nonce || !p.uri || !p.response || p.realm !== opts.realm) return "wrong";
      if (p.algorithm && p.algorithm.toUpperCase() !== "MD5") return "wrong";
      if (p.uri !== req.uri && !sameTarget(p.uri, req.uri)) return "wrong";
      if (o.qop && (p.qop !== "auth" || !p.nc || !p.cnonce)) return "wrong";
      const state = nonceState(p.nonce, o.now ?? Date.now());
      if (state === "bad") return "wrong";
      const ha1 = md5(`${p.username}:${opts.realm}:${credentials.password}`);
      const ha2 = md5(`${req.method}:${p.uri}`);
      const expected = p.qop
        ? md5(`${ha1}:${p.nonce}:${p.nc}:${p.cnonce}:${p.qop}:${ha2}`)
        : md5(`${ha1}:${p.nonce}:${ha2}`);
      if (p.username !== credentials.user || !same(expected, p.response.toLowerCase())) return "wrong";
      return state === "stale" ? "stale" : "ok";
    },
  };
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** RTSP clients put either the whole URL or only its path in `uri`; both name the same resource. */
function sameTarget(a: string, b: string): boolean {
  const pathOf = (u: string) => (/^\w+:\/\//.test(u) ? u.replace(/^\w+:\/\/[^/]*/, "") || "/" : u);
  return pathOf(a) === pathOf(b);
}

export type HttpAuth = ReturnType<typeof createHttpAuth>;
