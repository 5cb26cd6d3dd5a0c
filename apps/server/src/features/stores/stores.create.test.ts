import { errorSchema, STORE_LIMITS, type Store } from "@glide/contracts";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/client.ts";
import { admin, create, ctx, useStoresApp } from "./stores.fixtures.ts";

/**
 * Making a store: its fields and their checks, its country, time zone,
 * currency and VAT rate, and its organisation number.
 */
useStoresApp();

describe("creating stores", () => {
  it("applies the defaults and returns the full store", async () => {
    const store = await create({ name: "  Glide Test  " });
    expect(store).toMatchObject({
      name: "Glide Test",
      country: "SE",
      timezone: "Europe/Stockholm",
      is_active: true,
      settings: { language: "sv-SE", currency: "SEK", vat_rate: 0.25, modules: {} },
      custom_settings: {},
      size_sqm: null,
    });
    expect(Date.parse(store.created_at)).not.toBeNaN();
  });

  it("keeps every field of the four tabs, with empty strings stored as null", async () => {
    const store = await create({
      name: "Glide Full",
      legal_name: "Glide Full AB",
      organization_number: "5560360793",
      vat_number: "SE556036079301",
      store_type: "grocery",
      size_sqm: 250,
      description: "Big one",
      address: "Storgatan 1",
      city: "Lund",
      postal_code: "222 22",
      country: "SE",
      timezone: "Europe/Stockholm",
      phone: "046-12 34 56",
      email: "lund@glide.example",
      website: "https://glide.example/lund",
      contact_person: "Per",
      contact_title: "",
      settings: { language: "en-GB", currency: "EUR", vat_rate: 0.1234 },
    });
    expect(store).toMatchObject({
      organization_number: "556036-0793",
      size_sqm: 250,
      contact_title: null,
      website: "https://glide.example/lund",
      settings: { language: "en-GB", currency: "EUR", vat_rate: 0.1234 },
    });
  });

  it.each([
    [{}, "name"],
    [{ name: "" }, "name: Store name is required"],
    [{ name: "x", settings: { vat_rate: 1.5 } }, "settings.vat_rate"],
    [{ name: "x", settings: { vat_rate: -0.01 } }, "settings.vat_rate"],
    [{ name: "x", settings: { vat_rate: 0.12345 } }, "settings.vat_rate"],
    [{ name: "x", size_sqm: 12.5 }, "size_sqm"],
    [{ name: "x", size_sqm: "12" }, "size_sqm"],
    [{ name: "x", email: "not-an-email" }, "email"],
    [{ name: "x", website: "javascript:alert(1)" }, "website"],
    [{ name: "x", country: "XX" }, "country"],
    [{ name: "x", timezone: "Mars/Olympus" }, "timezone"],
    [{ name: "x", settings: { currency: "BTC" } }, "settings.currency"],
    [{ name: "x", organization_number: "556036-0794" }, "organization_number"],
    [{ name: "x", organization_number: "12345" }, "organization_number"],
  ])("rejects %j with 422 naming %s", async (body, field) => {
    const res = await admin.post("/api/v1/stores/", body);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: "validation_error" });
    expect(res.json().detail).toContain(field);
  });

  it("lists every problem with words a form can show beside its field", async () => {
    const res = await admin.post("/api/v1/stores/", {
      name: "x".repeat(5000),
      size_sqm: 12.7,
      settings: { vat_rate: 1.5 },
    });
    expect(res.statusCode).toBe(422);
    const body = errorSchema.parse(res.json());
    expect(body.errors).toEqual(
      expect.arrayContaining([
        { path: "name", message: "Must be at most 200 characters" },
        { path: "size_sqm", message: "Size must be a whole number of square metres: round 12.7 to 13" },
        { path: "settings.vat_rate", message: "VAT rate must be between 0 and 100 %" },
      ]),
    );
    expect(body.errors).toHaveLength(3);
    expect(body.detail).toMatch(/\(and 2 more problems\)$/);
  });

  it("names the field of a wrong organisation number, so the form can mark it", async () => {
    const res = await admin.post("/api/v1/stores/", { name: "x", organization_number: "556036-0794" });
    expect(res.statusCode).toBe(422);
    expect(errorSchema.parse(res.json()).errors).toEqual([
      {
        path: "organization_number",
        message: "Not a valid Swedish organisation number: use NNNNNN-NNNN with a correct check digit",
      },
    ]);
  });

  it("takes the longest name and a whole size, and refuses one character more", async () => {
    const longest = await create({ name: "n".repeat(STORE_LIMITS.name), size_sqm: 13 });
    expect(longest.size_sqm).toBe(13);
    expect((await admin.post("/api/v1/stores/", { name: "n".repeat(STORE_LIMITS.name + 1) })).statusCode).toBe(422);
  });

  it("checks the organisation number only for Swedish stores", async () => {
    const store = await create({ name: "Oslo", country: "NO", organization_number: "923 609 016" });
    expect(store.organization_number).toBe("923 609 016");
    const res = await admin.put(`/api/v1/stores/${store.id}`, { country: "SE" });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toContain("organization_number");
  });

  it("writes nothing when a request is rejected", async () => {
    const before = (await admin.get("/api/v1/stores/")).json().length;
    await admin.post("/api/v1/stores/", { name: "Half", organization_number: "556036-0794" });
    expect((await admin.get("/api/v1/stores/")).json()).toHaveLength(before);
  });
});

describe("the organisation number when the country changes", () => {
  it("checks the new number, not the old one, when both change to a Swedish store", async () => {
    const store = await create({ name: "Flyttar", country: "NO", organization_number: "923 609 016" });
    const res = await admin.put(`/api/v1/stores/${store.id}`, { country: "SE", organization_number: "5560360793" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ country: "SE", organization_number: "556036-0793" });
  });

  it("leaves a stored number alone when an edit changes neither it nor the country", async () => {
    const store = await create({ name: "Gammalt nummer" });
    // A number stored before check digits were checked (no request can store it now).
    await queryRows(ctx.app.db, sql`update stores set organization_number = '556036-0794' where id = ${store.id}`);
    const res = await admin.put(`/api/v1/stores/${store.id}`, { phone: "0980-123" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ phone: "0980-123", organization_number: "556036-0794" });
    const moved = await admin.put(`/api/v1/stores/${store.id}`, { country: "SE" });
    expect(moved.statusCode).toBe(422);
    expect(moved.json().errors).toEqual([
      {
        path: "organization_number",
        message: "Not a valid Swedish organisation number: use NNNNNN-NNNN with a correct check digit",
      },
    ]);
  });
});

describe("a new store's country, time zone, currency and VAT rate", () => {
  const setting = async (category: string, key: string, value: unknown) => {
    const res = await admin.put(`/api/v1/settings/${category}/${key}`, { value });
    expect(res.statusCode, res.body).toBe(200);
  };
  const defaultsOf = (store: Store) => ({
    country: store.country,
    timezone: store.timezone,
    language: store.settings.language,
    currency: store.settings.currency,
    vat_rate: store.settings.vat_rate,
  });

  it("takes another country's time zone, currency and VAT rate from the settings", async () => {
    expect(defaultsOf(await create({ name: "Oslo", country: "NO" }))).toEqual({
      country: "NO",
      timezone: "Europe/Oslo",
      language: "sv-SE",
      currency: "NOK",
      vat_rate: 0.25,
    });
    expect(defaultsOf(await create({ name: "Berlin", country: "DE" }))).toEqual({
      country: "DE",
      timezone: "Europe/Berlin",
      language: "sv-SE",
      currency: "EUR",
      vat_rate: 0.19,
    });
    // No VAT is a rate too, not a missing one.
    expect(defaultsOf(await create({ name: "New York", country: "US" }))).toEqual({
      country: "US",
      timezone: "America/New_York",
      language: "sv-SE",
      currency: "USD",
      vat_rate: 0,
    });
  });

  describe("with default settings of its own", () => {
    let built: Record<string, { category: string; value: unknown }>;
    beforeAll(async () => {
      const effective = (await admin.get("/api/v1/settings/effective")).json();
      built = {
        default_country: { category: "store", value: effective.store.default_country },
        default_timezone: { category: "store", value: effective.store.default_timezone },
        default_locale: { category: "store", value: effective.store.default_locale },
        default_currency: { category: "product", value: effective.product.default_currency },
        currencies_by_country: { category: "product", value: effective.product.currencies_by_country },
        vat_rates_by_country: { category: "product", value: effective.product.vat_rates_by_country },
      };
      const { UK: _c, ...currencies } = effective.product.currencies_by_country;
      const { UK: _v, ...vatRates } = effective.product.vat_rates_by_country;
      await setting("store", "default_country", "DK");
      await setting("store", "default_timezone", "Asia/Tokyo");
      await setting("store", "default_locale", "en-GB");
      await setting("product", "default_currency", "EUR");
      await setting("product", "currencies_by_country", currencies);
      // A rate of the test's own for the home country, to see that it is the map's, as every other country's is.
      await setting("product", "vat_rates_by_country", { ...vatRates, DK: 0.2 });
    });
    afterAll(async () => {
      for (const [key, { category, value }] of Object.entries(built)) await setting(category, key, value);
    });

    it("puts a store without a country in the default country, with the default_* values and its VAT rate", async () => {
      expect(defaultsOf(await create({ name: "Hemma" }))).toEqual({
        country: "DK",
        timezone: "Asia/Tokyo",
        language: "en-GB",
        currency: "EUR",
        vat_rate: 0.2,
      });
      expect(defaultsOf(await create({ name: "Hemma uttryckligen", country: "DK" }))).toEqual({
        country: "DK",
        timezone: "Asia/Tokyo",
        language: "en-GB",
        currency: "EUR",
        vat_rate: 0.2,
      });
    });

    it("gives a store in another country that country's values, now Sweden too", async () => {
      expect(defaultsOf(await create({ name: "Borta", country: "SE" }))).toEqual({
        country: "SE",
        timezone: "Europe/Stockholm",
        language: "en-GB",
        currency: "SEK",
        vat_rate: 0.25,
      });
    });

    it("falls back to the default currency, and the built-in 25 %, for a country missing from their maps", async () => {
      expect(defaultsOf(await create({ name: "London", country: "UK" }))).toEqual({
        country: "UK",
        timezone: "Europe/London",
        language: "en-GB",
        currency: "EUR",
        vat_rate: 0.25,
      });
    });
  });
});
