import { describe, expect, it } from "vitest";
import { z } from "zod";
import { EMAIL_MAX_LENGTH, profileEmailSchema, profileSchema } from "./profile.ts";

const message = (value: unknown) => profileEmailSchema.safeParse(value).error?.issues[0]?.message;

/** An address of exactly `length` characters. */
const addressOf = (length: number) => `${"a".repeat(length - "@example.se".length)}@example.se`;

describe("the shopper's profile", () => {
  it("keeps the name and the e-mail address, or no address", () => {
    for (const profile of [
      { name: "Anna Andersson", email: "anna@example.se" },
      { name: "Anna Andersson", email: null },
    ]) {
      expect(profileSchema.parse(profile)).toEqual(profile);
    }
    expect(profileSchema.safeParse({ name: "Anna Andersson" }).success).toBe(false);
  });
});

describe("the receipt e-mail address", () => {
  it("takes an address, trimmed, or null to stop receipts", () => {
    expect(profileEmailSchema.parse({ email: " anna@example.se " })).toEqual({ email: "anna@example.se" });
    expect(profileEmailSchema.parse({ email: null })).toEqual({ email: null });
  });

  it("takes at most 254 characters, not counting spaces around it", () => {
    expect(EMAIL_MAX_LENGTH).toBe(254);
    const longest = addressOf(254);
    expect(profileEmailSchema.parse({ email: ` ${longest} ` }).email).toBe(longest);
    expect(message({ email: addressOf(255) })).toBe("email must be at most 254 characters");
  });

  it("says when the address is not one", () => {
    for (const email of ["anna", "anna@", "@example.se", "anna@example", "anna @example.se", " "]) {
      expect(message({ email })).toBe("email must be an e-mail address, such as namn@example.se");
    }
    for (const body of [{}, { email: 5 }, { email: ["anna@example.se"] }]) {
      expect(message(body)).toBe("email must be an e-mail address or null");
    }
  });

  it("is documented as an e-mail address in the OpenAPI document", () => {
    const email = z.toJSONSchema(profileEmailSchema, { io: "input" }).properties?.email;
    expect(email).toEqual({ anyOf: [{ type: "string", format: "email", maxLength: 254 }, { type: "null" }] });
  });
});
