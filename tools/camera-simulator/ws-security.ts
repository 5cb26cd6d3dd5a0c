import { createHash, timingSafeEqual } from "node:crypto";
import { elementAttributes, elementText, textOf } from "./xml.ts";

/**
 * WS-Security UsernameToken as ONVIF devices check it: the password digest
 * is Base64(SHA-1(nonce bytes + Created + password)), `Created` must lie
 * within a few minutes of the device's own clock, and a nonce is accepted
 * once. The device's clock is the simulator's, which may be set wrong on
 * purpose, so a client that signs with its own clock is refused.
 */

const PASSWORD_DIGEST =
  "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordDigest";

/** Why a token was refused; the device only ever says "not authorized", the control API tells tests which. */
export type TokenRefusal = "missing" | "malformed" | "user" | "password" | "clock" | "replay";

export type TokenCheck = { ok: true } | { ok: false; reason: TokenRefusal };

export function passwordDigest(nonce: Buffer, created: string, password: string): string {
  return createHash("sha1")
    .update(Buffer.concat([nonce, Buffer.from(created, "utf8"), Buffer.from(password, "utf8")]))
    .digest("base64");
}

export function createTokenChecker(opts: { windowMs: number }) {
  /** Nonces seen inside the window, with when they may be forgotten. */
  const seen = new Map<string, number>();

  function forgetOld(now: number) {
    for (const [nonce, until] of seen) if (until < now) seen.delete(nonce);
  }

  return function check(
    envelope: string,
    credentials: { user: string; password: string },
    deviceNow: number,
  ): TokenCheck {
    const header = elementText(envelope, "Header");
    const token = header === null ? null : elementText(header, "UsernameToken");
    if (token === null) return { ok: false, reason: "missing" };
    const username = textOf(token, "Username");
    const digest = textOf(token, "Password");
    const nonceText = textOf(token, "Nonce");
    const created = textOf(token, "Created");
    const type = elementAttributes(token, "Password")?.Type;
    if (username === null || digest === null || nonceText === null || created === null || type !== PASSWORD_DIGEST) {
      return { ok: false, reason: "malformed" };
    }
    const createdAt = Date.parse(created);
    if (!Number.isFinite(createdAt)) return { ok: false, reason: "malformed" };
    if (username !== credentials.user) return { ok: false, reason: "user" };
    const expected = Buffer.from(passwordDigest(Buffer.from(nonceText, "base64"), created, credentials.password));
    const given = Buffer.from(digest);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, reason: "password" };
    if (Math.abs(createdAt - deviceNow) > opts.windowMs) return { ok: false, reason: "clock" };
    forgetOld(deviceNow);
    if (seen.has(nonceText)) return { ok: false, reason: "replay" };
    seen.set(nonceText, deviceNow + 2 * opts.windowMs);
    return { ok: true };
  };
}
