import { describe, expect, it } from "vitest";
import { COUNTRY_CODES, COUNTRY_TIMEZONES, CURRENCIES, CURRENCIES_BY_COUNTRY, TIMEZONES } from "./constants.ts";
import { PRODUCT_LIMITS, productInputSchema } from "./products.ts";
import { STORE_LIMITS, storeInputSchema } from "./stores.ts";

/** The messages a form shows beside each field, by path. */
function messages(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  return Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join("."), issue.message]));
}

const product = { sku: "A-1", name: "Lingonsylt", price: 10 };

describe("product messages say what is wrong", () => {
  it("a name over the limit is too long, not missing", () => {
    const tooLong = messages(productInputSchema.safeParse({ ...product, name: "x".repeat(5000) }));
    expect(tooLong.name).toBe("Name must be at most 200 characters; shorten it");
    expect(productInputSchema.safeParse({ ...product, name: "x".repeat(PRODUCT_LIMITS.name) }).success).toBe(true);
    expect(messages(productInputSchema.safeParse({ ...product, name: "x".repeat(201) })).name).toMatch(/at most 200/);
  });

  it("a missing or empty name is required, a number is not text", () => {
    expect(messages(productInputSchema.safeParse({ sku: "A", price: 1 })).name).toBe("Name is required");
    expect(messages(productInputSchema.safeParse({ ...product, name: "  " })).name).toBe("Name is required");
    expect(messages(productInputSchema.safeParse({ ...product, name: 5 })).name).toBe("Name must be text");
  });

  it("the SKU says the same", () => {
    expect(messages(productInputSchema.safeParse({ ...product, sku: "x".repeat(65) })).sku).toBe(
      "SKU must be at most 64 characters; shorten it",
    );
    expect(productInputSchema.safeParse({ ...product, sku: "x".repeat(PRODUCT_LIMITS.sku) }).success).toBe(true);
    expect(messages(productInputSchema.safeParse({ name: "n", price: 1 })).sku).toBe("SKU is required");
  });
});

describe("store messages", () => {
  it("a size with decimals is refused with how to fix it, a whole size is taken", () => {
    expect(messages(storeInputSchema.safeParse({ name: "x", size_sqm: 12.7 })).size_sqm).toBe(
      "Size must be a whole number of square metres: round 12.7 to 13",
    );
    expect(storeInputSchema.safeParse({ name: "x", size_sqm: 13 }).success).toBe(true);
    expect(storeInputSchema.safeParse({ name: "x", size_sqm: STORE_LIMITS.size_sqm }).success).toBe(true);
    expect(storeInputSchema.safeParse({ name: "x", size_sqm: STORE_LIMITS.size_sqm + 1 }).success).toBe(false);
  });

  it("the name limit is the exported one", () => {
    expect(storeInputSchema.safeParse({ name: "x".repeat(STORE_LIMITS.name) }).success).toBe(true);
    expect(storeInputSchema.safeParse({ name: "x".repeat(STORE_LIMITS.name + 1) }).success).toBe(false);
  });
});

describe("country defaults", () => {
  it("every country has a time zone from the list and a currency the API takes", () => {
    for (const country of COUNTRY_CODES) {
      expect(Object.keys(TIMEZONES)).toContain(COUNTRY_TIMEZONES[country]);
      expect(CURRENCIES).toContain(CURRENCIES_BY_COUNTRY[country].code);
      const store = { name: "x", country, timezone: COUNTRY_TIMEZONES[country] };
      expect(storeInputSchema.safeParse(store).success).toBe(true);
    }
  });
});
