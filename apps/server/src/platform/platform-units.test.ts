import { describe, expect, it } from "vitest";
import { decrypt, deriveKey, encrypt, keyedHash } from "./crypto.ts";
import { ageOn, birthDate, isValidPersonalNumber } from "./personal-number.ts";

describe("personal numbers", () => {
  it.each(["198112189876", "199001012385", "200501022388", "198112789873"])("accepts %s", (pn) => {
    expect(isValidPersonalNumber(pn)).toBe(true);
  });
  it.each(["198112189877", "19811218987", "199013012381", "abcdefghijkl", "199002302380"])("rejects %s", (pn) => {
    expect(isValidPersonalNumber(pn)).toBe(false);
  });
  it("reads the birth date, also from a coordination number", () => {
    expect(birthDate("198112189876")).toBe("1981-12-18");
    expect(birthDate("198112789873")).toBe("1981-12-18");
  });
  it("counts age in whole years", () => {
    expect(ageOn("2008-11-21", "2026-11-20")).toBe(17);
    expect(ageOn("2008-11-21", "2026-11-21")).toBe(18);
  });
});

describe("secrets at rest", () => {
  const key = deriveKey("a".repeat(40), "test");
  it("encrypts so that only the key opens it, and never the same way twice", () => {
    const a = encrypt(key, "198112189876");
    expect(a).not.toContain("198112189876");
    expect(a).not.toBe(encrypt(key, "198112189876"));
    expect(decrypt(key, a)).toBe("198112189876");
    expect(() => decrypt(deriveKey("b".repeat(40), "test"), a)).toThrow();
    const [v, iv, tag, data] = a.split(".") as [string, string, string, string];
    const flipped = Buffer.from(data, "base64url");
    flipped[0]! ^= 1;
    expect(() => decrypt(key, [v, iv, tag, flipped.toString("base64url")].join("."))).toThrow();
  });
  it("a value bound to something opens only with the same, never with another or with nothing", () => {
    const bound = encrypt(key, "descriptor", "visit-1");
    expect(decrypt(key, bound, "visit-1")).toBe("descriptor");
    expect(() => decrypt(key, bound, "visit-2")).toThrow();
    expect(() => decrypt(key, bound)).toThrow();
    expect(() => decrypt(key, encrypt(key, "descriptor"), "visit-1")).toThrow();
    expect(decrypt(key, encrypt(key, "descriptor", ""), "")).toBe("descriptor");
  });
  it("derives separate keys per purpose and hashes with a key", () => {
    expect(deriveKey("a".repeat(40), "x").equals(deriveKey("a".repeat(40), "y"))).toBe(false);
    expect(keyedHash(key, "198112189876")).toMatch(/^[0-9a-f]{64}$/);
    expect(keyedHash(key, "198112189876")).not.toBe(keyedHash(deriveKey("c".repeat(40), "test"), "198112189876"));
  });
});
