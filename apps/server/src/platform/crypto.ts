import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from "node:crypto";

/**
 * Keys for one purpose each, derived from SECRET_KEY, so a key leaked from
 * one use (say, token signing) opens nothing else.
 */
export function deriveKey(secretKey: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secretKey, "glide", purpose, 32));
}

/**
 * AES-256-GCM; the output carries its nonce and tag: "v1.<iv>.<tag>.<ciphertext>" in base64url.
 * `boundTo` (associated data) ties a value to what it belongs to: it opens only with the same.
 */
export function encrypt(key: Buffer, plaintext: string, boundTo?: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  if (boundTo !== undefined) cipher.setAAD(Buffer.from(boundTo, "utf8"));
  const data = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), data]
    .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
    .join(".");
}

export function decrypt(key: Buffer, sealed: string, boundTo?: string): string {
  const [version, iv, tag, data] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || data === undefined) throw new Error("not an encrypted value");
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  if (boundTo !== undefined) decipher.setAAD(Buffer.from(boundTo, "utf8"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
}

/** A keyed hash for looking a secret value up without storing it. */
export const keyedHash = (key: Buffer, value: string) => createHmac("sha256", key).update(value).digest("hex");

export const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");

export const randomToken = (bytes = 32) => randomBytes(bytes).toString("base64url");

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
