import { describe, expect, it } from "vitest";
import {
  STORE_DEFAULTS,
  storeIdParams,
  storeInputSchema,
  storeModuleParams,
  storeModuleSchema,
  storeModuleUpdateSchema,
  storeSchema,
  storeSettingsInputSchema,
  storeUpdateSchema,
} from "./stores.ts";

const parsed = (input: Record<string, unknown>) => storeInputSchema.parse({ name: "Butik", ...input });

/** The first message at `path`, as a form would show it beside the field. */
function messageAt(input: Record<string, unknown>, path: string): string | undefined {
  const result = storeInputSchema.safeParse({ name: "Butik", ...input });
  return result.error?.issues.find((issue) => issue.path.join(".") === path)?.message;
}

describe("store input", () => {
  it("needs a name, trimmed", () => {
    expect(storeInputSchema.parse({ name: "  Butik " })).toEqual({ name: "Butik" });
    expect(messageAt({ name: "   " }, "name")).toBe("Store name is required");
    expect(parsed({ name: ` ${"x".repeat(200)} ` }).name).toHaveLength(200);
  });

  it("stores empty text as null, trims the rest, and keeps each limit", () => {
    const out = parsed({ legal_name: " ", city: " Umeå ", phone: "", address: " Storgatan 1" });
    expect(out).toMatchObject({ legal_name: null, city: "Umeå", phone: null, address: "Storgatan 1" });
    expect(parsed({ postal_code: `${"1".repeat(20)}  ` }).postal_code).toHaveLength(20);
    expect(storeInputSchema.safeParse({ name: "B", postal_code: "1".repeat(21) }).success).toBe(false);
    expect(storeInputSchema.safeParse({ name: "B", city: 12 }).success).toBe(false);
  });

  it("says what is wrong with the size", () => {
    expect(messageAt({ size_sqm: "12" }, "size_sqm")).toBe("Size must be a number of square metres");
    expect(messageAt({ size_sqm: -1 }, "size_sqm")).toBe("Size cannot be negative");
    expect(messageAt({ size_sqm: 1_000_001 }, "size_sqm")).toBe("Size must be at most 1,000,000 square metres");
    expect(messageAt({ size_sqm: Number.POSITIVE_INFINITY }, "size_sqm")).not.toMatch(/round/);
    expect(parsed({ size_sqm: 0 }).size_sqm).toBe(0);
    expect(parsed({ size_sqm: null }).size_sqm).toBeNull();
  });

  it("takes an e-mail address and a web address, or nothing", () => {
    expect(parsed({ email: " a@example.se ", website: " https://example.se " })).toMatchObject({
      email: "a@example.se",
      website: "https://example.se",
    });
    expect(parsed({ email: "", website: "  " })).toMatchObject({ email: null, website: null });
    expect(parsed({ email: "  ", website: "" })).toMatchObject({ email: null, website: null });
    expect(parsed({ website: "http://example.se/butik" }).website).toBe("http://example.se/butik");
    expect(messageAt({ email: "a@" }, "email")).toBe("Email must be a valid e-mail address, e.g. name@example.se");
    expect(storeInputSchema.safeParse({ name: "B", email: `${"a".repeat(190)}@example.se` }).success).toBe(false);
    const refused = "Website must be a web address starting with https:// or http://";
    for (const website of ["ftp://example.se", "example.se", "xhttps://example.se", "httpsx://example.se"]) {
      expect(messageAt({ website }, "website")).toBe(refused);
    }
    expect(storeInputSchema.safeParse({ name: "B", website: `https://e.se/${"a".repeat(300)}` }).success).toBe(false);
  });

  it("knows the countries and time zones", () => {
    expect(parsed({ country: "NO", timezone: "Asia/Tokyo" })).toMatchObject({ country: "NO", timezone: "Asia/Tokyo" });
    expect(storeInputSchema.safeParse({ name: "B", country: "XX" }).success).toBe(false);
    expect(storeInputSchema.safeParse({ name: "B", timezone: "Europe/Nowhere" }).success).toBe(false);
  });

  it("takes a VAT rate from 0 to 100 % with two decimals of a percent", () => {
    expect(storeSettingsInputSchema.parse({ vat_rate: 0, currency: "CHF", language: "fi-FI" })).toEqual({
      vat_rate: 0,
      currency: "CHF",
      language: "fi-FI",
    });
    expect(storeSettingsInputSchema.parse({ vat_rate: 1 }).vat_rate).toBe(1);
    expect(storeSettingsInputSchema.parse({ vat_rate: 0.1275 }).vat_rate).toBe(0.1275);
    const at = (vat_rate: number) => storeSettingsInputSchema.safeParse({ vat_rate }).error?.issues[0]?.message;
    expect(at(-0.01)).toBe("VAT rate must be between 0 and 100 %");
    expect(at(1.01)).toBe("VAT rate must be between 0 and 100 %");
    expect(at(0.12755)).toBe("VAT rate allows at most two decimals of a percent");
    expect(messageAt({ settings: { vat_rate: 2 } }, "settings.vat_rate")).toBe("VAT rate must be between 0 and 100 %");
    expect(storeSettingsInputSchema.safeParse({ currency: "ISK" }).success).toBe(false);
  });

  it("lets an edit send only what changes", () => {
    expect(storeUpdateSchema.parse({ is_active: false })).toEqual({ is_active: false });
    expect(STORE_DEFAULTS.country).toBe("SE");
  });
});

describe("store answers and paths", () => {
  const id = "0b7e3c1e-8f4a-4c55-9d3e-2f1a6b7c8d9e";

  it("keep every field", () => {
    const store = {
      id,
      name: "Butik",
      legal_name: null,
      organization_number: "556036-0793",
      vat_number: null,
      store_type: "grocery",
      size_sqm: 120,
      description: null,
      address: null,
      city: "Umeå",
      postal_code: null,
      country: "SE",
      timezone: "Europe/Stockholm",
      phone: null,
      email: null,
      website: null,
      contact_person: null,
      contact_title: null,
      is_active: true,
      created_at: "2026-01-01T00:00:00Z",
      settings: { language: "sv-SE", currency: "SEK", vat_rate: 0.25, modules: { cameras: { enabled: true } } },
      custom_settings: { door: { open_ms: 3000 } },
    };
    expect(storeSchema.parse(store)).toEqual(store);
    const module = {
      module_id: "m",
      name: "M",
      description: "d",
      category: "c",
      price_per_month: 99,
      enabled: false,
    };
    expect(storeModuleSchema.parse(module)).toEqual(module);
    expect(storeModuleUpdateSchema.parse({ module_id: "m", enabled: true })).toEqual({ module_id: "m", enabled: true });
  });

  it("check the ids in the path", () => {
    expect(storeIdParams.parse({ id })).toEqual({ id });
    expect(storeIdParams.safeParse({ id: "x" }).error?.issues[0]?.message).toBe("Store id must be a UUID");
    expect(storeModuleParams.parse({ id, moduleId: "m".repeat(100) }).moduleId).toHaveLength(100);
    expect(storeModuleParams.parse({ id, moduleId: "m" }).moduleId).toBe("m");
    expect(storeModuleParams.safeParse({ id, moduleId: "" }).success).toBe(false);
    expect(storeModuleParams.safeParse({ id, moduleId: "m".repeat(101) }).success).toBe(false);
  });
});
