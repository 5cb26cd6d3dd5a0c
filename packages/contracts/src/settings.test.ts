import { describe, expect, it } from "vitest";
import { COUNTRIES, CURRENCIES_BY_COUNTRY, LANGUAGES, PAGE_SIZES, TIMEZONES } from "./constants.ts";
import {
  AI_MODELS,
  CAMERA_BRANDS,
  CAMERA_SYSTEM_TYPES,
  CONNECTION_TYPES,
  cameraSettingsSchema,
  customSettingsSchema,
  effectiveSettingsSchema,
  FPS_RANGE,
  isSettingCategory,
  LOCATION_ZONES,
  MAX_PAGE_SIZE,
  SETTING_DEFINITIONS,
  SETTING_TEXT_LIMITS,
  SETTING_VALUE_SCHEMAS,
  type SettingCategory,
  SYSTEM_STATUSES,
  settingCategorySchema,
  settingChangeSchema,
  settingHistoryQuery,
  settingHistorySchema,
  settingKeysOf,
  settingParams,
  settingSchema,
  settingUpdateSchema,
  settingValueSchema,
  storeOverridesSchema,
  storeOverridesUpdateSchema,
  storeSettingsParams,
} from "./settings.ts";
import { keeps, messageAt, type Schema } from "./testing.ts";

const uuid = "0b7e3c1e-8f4a-4c55-9d3e-2f1a6b7c8d9e";
const categories: SettingCategory[] = ["camera", "product", "store", "ai", "ui"];
const { camera, product, store, ai, ui } = SETTING_VALUE_SCHEMAS;

const refused = (schema: Schema, value: unknown) => expect(schema.safeParse(value).success).toBe(false);

/** The built-in value of a key: what a fresh installation starts with. */
const builtIn = <C extends SettingCategory>(category: C, key: keyof (typeof SETTING_DEFINITIONS)[C]) =>
  (SETTING_DEFINITIONS[category][key] as { value: Record<string, unknown> }).value;

describe("the spec's camera and console lists (admin-console.md §9)", () => {
  it("names the same values as the spec", () => {
    expect(CAMERA_SYSTEM_TYPES).toEqual(["nvr", "dvr", "standalone"]);
    expect(CAMERA_BRANDS).toEqual(["hikvision", "dahua", "axis", "generic"]);
    expect(CONNECTION_TYPES).toEqual(["rtsp", "http", "onvif"]);
    expect(SYSTEM_STATUSES).toEqual(["online", "active", "offline", "inactive"]);
    expect(AI_MODELS).toEqual(["yolov8n", "yolov8s", "yolov8m", "yolov8l", "yolov8x"]);
    expect(LOCATION_ZONES).toEqual(["entrance", "exit", "aisle", "checkout", "storage", "other"]);
  });

  it("offers 15 to 60 frames per second in steps of 5, and pages of at most 100", () => {
    expect(FPS_RANGE).toEqual({ min: 15, max: 60, step: 5 });
    expect(MAX_PAGE_SIZE).toBe(Math.max(...PAGE_SIZES));
  });
});

describe("setting categories", () => {
  it("are the five tabs of the settings screen, and nothing else", () => {
    for (const category of categories) {
      expect(settingCategorySchema.parse(category)).toBe(category);
      expect(isSettingCategory(category)).toBe(true);
    }
    for (const category of ["x", "Camera", "toString"]) {
      refused(settingCategorySchema, category);
      expect(isSettingCategory(category)).toBe(false);
    }
  });
});

describe("known settings", () => {
  const keys: Record<SettingCategory, string[]> = {
    camera: ["brand_presets", "system_defaults", "camera_defaults", "resolutions", "health_check_interval"],
    product: [
      "default_vat_rate",
      "vat_rates_by_country",
      "currencies_by_country",
      "default_currency",
      "currency_symbol",
    ],
    store: [
      "types",
      "countries",
      "timezones",
      "languages",
      "default_country",
      "default_timezone",
      "default_locale",
      "spot_check_share",
      "abandon_after_minutes",
      "max_line_quantity",
      "max_cart_total",
      "require_card_at_door",
    ],
    ai: ["confidence_threshold", "iou_threshold", "model_name"],
    ui: ["defaults"],
  };

  it("lists each category's keys in the screen's order, each with a schema and a built-in definition", () => {
    for (const category of categories) {
      expect(settingKeysOf(category)).toEqual(keys[category]);
      expect(Object.keys(SETTING_DEFINITIONS[category])).toEqual(keys[category]);
      for (const key of keys[category]) {
        expect(settingValueSchema(category, key)).toBe(
          (SETTING_VALUE_SCHEMAS[category] as Record<string, unknown>)[key],
        );
      }
    }
  });

  it("knows no schema for an unknown category or key, not even an inherited name", () => {
    expect(settingValueSchema("x", "port")).toBeNull();
    expect(settingValueSchema("toString", "length")).toBeNull();
    expect(settingValueSchema("camera", "fps")).toBeNull();
    expect(settingValueSchema("camera", "toString")).toBeNull();
  });

  it("starts every installation with values that fit their own schemas, each described", () => {
    for (const category of categories) {
      for (const [key, definition] of Object.entries(SETTING_DEFINITIONS[category])) {
        keeps(settingValueSchema(category, key)!, (definition as { value: unknown }).value);
        expect((definition as { description: string }).description).not.toBe("");
      }
    }
  });

  it("keeps the reference lists read-only; an admin may change every other setting", () => {
    const readOnly = ["camera/resolutions", "store/types", "store/countries", "store/timezones", "store/languages"];
    for (const category of categories) {
      for (const [key, definition] of Object.entries(SETTING_DEFINITIONS[category])) {
        expect((definition as { is_editable: boolean }).is_editable, `${category}/${key}`).toBe(
          !readOnly.includes(`${category}/${key}`),
        );
      }
    }
  });

  it("starts with the spec's defaults", () => {
    expect(builtIn("camera", "camera_defaults")).toEqual({
      fps: 30,
      resolution: "1920x1080",
      location_zone: "entrance",
    });
    expect(builtIn("camera", "system_defaults")).toMatchObject({ port: 554 });
    expect(builtIn("ai", "confidence_threshold")).toBe(0.5);
    expect(builtIn("ai", "iou_threshold")).toBe(0.45);
    expect(builtIn("ui", "defaults")).toMatchObject({ view_mode: "list", page_size: 20 });
    expect(builtIn("camera", "resolutions")).toEqual(["1280x720", "1920x1080", "2560x1440", "3840x2160"]);
  });

  it("gives every country the store form offers a VAT rate and a currency, the home country the defaults", () => {
    const countries = Object.keys(COUNTRIES).sort();
    const rates = builtIn("product", "vat_rates_by_country");
    expect(Object.keys(rates).sort()).toEqual(countries);
    expect(Object.keys(builtIn("product", "currencies_by_country")).sort()).toEqual(countries);
    expect(rates.SE).toBe(builtIn("product", "default_vat_rate"));
    expect(builtIn("store", "default_country")).toBe("SE");
    expect(builtIn("product", "default_currency")).toBe("SEK");
  });

  it("gives every brand an RTSP path that names the channel", () => {
    const presets = builtIn("camera", "brand_presets") as Record<string, { stream_format: string }>;
    expect(Object.keys(presets)).toEqual(["hikvision", "dahua", "axis", "generic"]);
    for (const preset of Object.values(presets)) expect(preset.stream_format).toContain("{channel}");
  });
});

describe("camera settings", () => {
  const presets: Record<string, { port: number; stream_format: string }> = {
    hikvision: { port: 554, stream_format: "/Streaming/Channels/{channel}01" },
    dahua: { port: 554, stream_format: "/cam/realmonitor?channel={channel}&subtype=0" },
    axis: { port: 8554, stream_format: "/axis-media/media.amp?camera={channel}" },
    generic: { port: 10554, stream_format: "/stream{channel}" },
  };
  const preset = (brand: string, change: Record<string, unknown>) => ({
    ...presets,
    [brand]: { ...presets[brand], ...change },
  });

  it("maps each of the four brands to a port and a stream path, and no other brand", () => {
    const message = "Brand presets map each of hikvision, dahua, axis, generic to { port, stream_format }";
    expect(messageAt(camera.brand_presets, "presets")).toBe(message);
    expect(messageAt(camera.brand_presets, { ...presets, sony: presets.axis })).toBe(message);
    const { axis: _axis, ...withoutAxis } = presets;
    expect(camera.brand_presets.safeParse(withoutAxis).error?.issues.map((i) => i.path)).toEqual([["axis"]]);
    refused(camera.brand_presets, preset("dahua", { user: "admin" }));
  });

  it("takes a stream path that starts with / and has no spaces, trimmed, of at most 300 characters", () => {
    const at = (stream_format: string) => camera.brand_presets.safeParse(preset("generic", { stream_format }));
    expect(at(" /live ").data?.generic.stream_format).toBe("/live");
    keeps(camera.brand_presets, preset("generic", { stream_format: "/" }));
    const longest = `/${"a".repeat(SETTING_TEXT_LIMITS.stream_format - 1)}`;
    expect(longest).toHaveLength(300);
    keeps(camera.brand_presets, preset("generic", { stream_format: longest }));
    expect(at(`${longest}a`).success).toBe(false);
    const message = 'A stream path starts with "/" and has no spaces, e.g. /Streaming/Channels/{channel}01';
    for (const stream_format of ["live", "x/live", "/live stream", "/live\tx", "rtsp://cam/live"]) {
      expect(at(stream_format).error?.issues[0]).toMatchObject({ path: ["generic", "stream_format"], message });
    }
    expect(at("  ").success).toBe(false);
  });

  it("takes a port from 1 to 65535, a whole number", () => {
    const message = "A port must be a whole number from 1 to 65535";
    for (const port of [1, 65535]) keeps(camera.system_defaults, { ...builtIn("camera", "system_defaults"), port });
    for (const port of [0, 65536, 554.5, "554"]) {
      expect(messageAt(camera.system_defaults, { ...builtIn("camera", "system_defaults"), port }, "port")).toBe(
        message,
      );
      expect(messageAt(camera.brand_presets, preset("axis", { port }), "axis.port")).toBe(message);
    }
  });

  it("defaults a new system to a connection, a type and a brand from the lists", () => {
    const base = builtIn("camera", "system_defaults");
    for (const connection_type of ["rtsp", "http", "onvif"])
      keeps(camera.system_defaults, { ...base, connection_type });
    for (const type of ["nvr", "dvr", "standalone"]) keeps(camera.system_defaults, { ...base, type });
    for (const brand of ["hikvision", "dahua", "axis", "generic"]) keeps(camera.system_defaults, { ...base, brand });
    refused(camera.system_defaults, { ...base, connection_type: "ftp" });
    refused(camera.system_defaults, { ...base, type: "cloud" });
    refused(camera.system_defaults, { ...base, brand: "sony" });
    refused(camera.system_defaults, { ...base, host: "10.0.0.1" });
  });

  it("defaults a new camera to 15 to 60 whole frames per second, a resolution and a zone from the lists", () => {
    const base = builtIn("camera", "camera_defaults");
    const fps = (value: unknown) => messageAt(camera.camera_defaults, { ...base, fps: value }, "fps");
    for (const value of [15, 60]) keeps(camera.camera_defaults, { ...base, fps: value });
    expect(fps(14)).toBe("Frames per second must be from 15 to 60");
    expect(fps(61)).toBe("Frames per second must be from 15 to 60");
    expect(fps(30.5)).toBe("Frames per second must be a whole number from 15 to 60");
    expect(fps("30")).toBe("Frames per second must be a whole number from 15 to 60");
    for (const resolution of ["1280x720", "1920x1080", "2560x1440", "3840x2160"]) {
      keeps(camera.camera_defaults, { ...base, resolution });
    }
    for (const location_zone of ["entrance", "exit", "aisle", "checkout", "storage", "other"]) {
      keeps(camera.camera_defaults, { ...base, location_zone });
    }
    refused(camera.camera_defaults, { ...base, resolution: "800x600" });
    refused(camera.camera_defaults, { ...base, location_zone: "roof" });
    refused(camera.camera_defaults, { ...base, ptz: true });
  });

  it("offers at least one known resolution", () => {
    keeps(camera.resolutions, ["1280x720"]);
    refused(camera.resolutions, []);
    refused(camera.resolutions, ["1280x720", "800x600"]);
  });

  it("checks the cameras every 10 to 3600 whole seconds", () => {
    for (const seconds of [10, 3600]) keeps(camera.health_check_interval, seconds);
    expect(messageAt(camera.health_check_interval, 9)).toBe("The interval must be from 10 to 3600 seconds");
    expect(messageAt(camera.health_check_interval, 3601)).toBe("The interval must be from 10 to 3600 seconds");
    const whole = "The interval must be a whole number of seconds from 10 to 3600";
    expect(messageAt(camera.health_check_interval, 60.5)).toBe(whole);
    expect(messageAt(camera.health_check_interval, "60")).toBe(whole);
  });
});

describe("product settings", () => {
  it("keeps a VAT rate as a fraction from 0 to 1 with at most two decimals of a percent", () => {
    for (const rate of [0, 1, 0.25, 0.125, 0.255, 0.07, 0.0001]) keeps(product.default_vat_rate, rate);
    expect(messageAt(product.default_vat_rate, -0.01)).toBe(
      "A VAT rate must be from 0 to 1 (a fraction: 0.25 is 25 %)",
    );
    expect(messageAt(product.default_vat_rate, 1.01)).toBe("A VAT rate must be from 0 to 1 (a fraction: 0.25 is 25 %)");
    expect(messageAt(product.default_vat_rate, "0.25")).toBe(
      "A VAT rate must be a number from 0 to 1 (a fraction: 0.25 is 25 %)",
    );
    for (const rate of [0.12345, 0.00001]) {
      expect(messageAt(product.default_vat_rate, rate)).toBe(
        "A VAT rate allows at most two decimals of a percent (0.125 is 12.5 %)",
      );
    }
  });

  it("keeps VAT rates by known country code, naming an unknown code at its own path", () => {
    keeps(product.vat_rates_by_country, {});
    keeps(product.vat_rates_by_country, { SE: 0.25, FI: 0.255 });
    expect(product.vat_rates_by_country.safeParse({ SE: 0.25, XX: 0.1 }).error?.issues).toEqual([
      { code: "custom", path: ["XX"], message: "Unknown country code; use one of SE, NO, DK, FI, DE, UK, US, FR" },
    ]);
    expect(messageAt(product.vat_rates_by_country, { NO: 25 }, "NO")).toBe(
      "A VAT rate must be from 0 to 1 (a fraction: 0.25 is 25 %)",
    );
  });

  it("keeps each country's currency code, symbol of 1 to 5 characters, and its place", () => {
    const byCountry = product.currencies_by_country;
    const se = CURRENCIES_BY_COUNTRY.SE;
    keeps(byCountry, { SE: { ...se, symbol: "12345" }, US: { code: "USD", symbol: "$", position: "before" } });
    for (const code of ["SEK", "EUR", "USD", "NOK", "DKK", "GBP", "CHF"]) keeps(byCountry, { SE: { ...se, code } });
    expect(byCountry.parse({ SE: { ...se, symbol: " kr " } }).SE?.symbol).toBe("kr");
    for (const change of [{ symbol: " " }, { symbol: "123456" }, { code: "BTC" }, { position: "middle" }, { x: 1 }]) {
      refused(byCountry, { SE: { ...se, ...change } });
    }
    expect(messageAt(byCountry, { XX: se }, "XX")).toMatch(/^Unknown country code/);
  });

  it("takes a default currency from the list", () => {
    for (const code of ["SEK", "EUR", "USD", "NOK", "DKK", "GBP", "CHF"]) keeps(product.default_currency, code);
    refused(product.default_currency, "BTC");
  });

  it("takes a currency symbol of 1 to 5 characters, trimmed", () => {
    expect(product.currency_symbol.parse(" kr ")).toBe("kr");
    keeps(product.currency_symbol, "x".repeat(SETTING_TEXT_LIMITS.currency_symbol));
    expect(SETTING_TEXT_LIMITS.currency_symbol).toBe(5);
    refused(product.currency_symbol, "x".repeat(6));
    expect(messageAt(product.currency_symbol, "  ")).toBe("A currency symbol cannot be empty");
  });
});

describe("store settings", () => {
  const type = { value: "grocery", label: "Grocery" };

  it("offers at least one store type, each a value and a label of 1 to 100 characters, trimmed", () => {
    keeps(store.types, { types: [type] });
    keeps(store.types, { types: [{ value: "v".repeat(100), label: "l".repeat(100) }] });
    expect(store.types.parse({ types: [{ value: " kiosk ", label: " Kiosk " }] })).toEqual({
      types: [{ value: "kiosk", label: "Kiosk" }],
    });
    for (const changed of [{ value: " " }, { label: "" }, { value: "v".repeat(101) }, { label: "l".repeat(101) }]) {
      refused(store.types, { types: [{ ...type, ...changed }] });
    }
    refused(store.types, { types: [] });
    refused(store.types, { types: [{ ...type, icon: "x" }] });
    refused(store.types, { types: [type], other: [] });
  });

  it("names countries by known code, time zones and languages by known name", () => {
    expect(store.countries.parse({ SE: " Sverige " })).toEqual({ SE: "Sverige" });
    refused(store.countries, { SE: " " });
    expect(messageAt(store.countries, { XX: "Nowhere" }, "XX")).toMatch(/^Unknown country code/);
    keeps(store.timezones, { "Asia/Tokyo": "Tokyo" });
    keeps(store.languages, { "fi-FI": "Suomi" });
    refused(store.timezones, { "Europe/Nowhere": "Nowhere" });
    refused(store.languages, { "xx-XX": "X" });
    refused(store.timezones, { "Asia/Tokyo": "" });
    keeps(store.countries, COUNTRIES);
    keeps(store.timezones, TIMEZONES);
    keeps(store.languages, LANGUAGES);
  });

  it("defaults a new store to a country, time zone and language from the lists", () => {
    for (const code of ["SE", "NO", "DK", "FI", "DE", "UK", "US", "FR"]) keeps(store.default_country, code);
    keeps(store.default_timezone, "America/Los_Angeles");
    keeps(store.default_locale, "en-GB");
    refused(store.default_country, "XX");
    refused(store.default_timezone, "Stockholm");
    refused(store.default_locale, "sv");
  });

  it("flags from none to a fifth of exits for a staff check", () => {
    for (const share of [0, 0.05, 0.2]) keeps(store.spot_check_share, share);
    expect(messageAt(store.spot_check_share, -0.01)).toBe(
      "The spot-check share must be from 0 to 0.2 (0.05 is 5 % of exits)",
    );
    expect(messageAt(store.spot_check_share, 0.21)).toBe(
      "The spot-check share must be from 0 to 0.2 (at most 20 % of exits)",
    );
    expect(messageAt(store.spot_check_share, "0.05")).toBe(
      "The spot-check share must be a fraction from 0 to 0.2 (0.05 is 5 % of exits)",
    );
  });

  it("calls a visit abandoned after 5 to 1440 whole minutes without activity", () => {
    for (const minutes of [5, 1440]) keeps(store.abandon_after_minutes, minutes);
    const range = "A visit can be called abandoned after 5 to 1440 minutes without activity";
    expect(messageAt(store.abandon_after_minutes, 4)).toBe(range);
    expect(messageAt(store.abandon_after_minutes, 1441)).toBe(range);
    expect(messageAt(store.abandon_after_minutes, 30.5)).toBe("Minutes must be a whole number from 5 to 1440");
    expect(messageAt(store.abandon_after_minutes, "30")).toBe("Minutes must be a whole number from 5 to 1440");
  });

  it("asks for a card on file at the door unless a store says otherwise, as a plain true or false", () => {
    expect(builtIn("store", "require_card_at_door")).toBe(true);
    for (const value of [true, false]) keeps(store.require_card_at_door, value);
    const words = "Say true (a card on file is needed to get in) or false";
    for (const value of ["true", 1, null]) expect(messageAt(store.require_card_at_door, value)).toBe(words);
  });
});

describe("AI settings", () => {
  it("keeps both thresholds as fractions from 0 to 1 and says which is wrong", () => {
    for (const [schema, what] of [
      [ai.confidence_threshold, "The confidence threshold"],
      [ai.iou_threshold, "The IOU threshold"],
    ] as const) {
      for (const value of [0, 1, 0.123]) keeps(schema, value);
      expect(messageAt(schema, -0.01)).toBe(`${what} must be from 0 to 1 (a fraction: 0.25 is 25 %)`);
      expect(messageAt(schema, 1.01)).toBe(`${what} must be from 0 to 1 (a fraction: 0.25 is 25 %)`);
      expect(messageAt(schema, "0.5")).toBe(`${what} must be a number from 0 to 1 (a fraction: 0.25 is 25 %)`);
    }
  });

  it("runs one of the five detection models", () => {
    for (const model of ["yolov8n", "yolov8s", "yolov8m", "yolov8l", "yolov8x"]) keeps(ai.model_name, model);
    refused(ai.model_name, "yolov9n");
  });
});

describe("console display defaults", () => {
  const base = { view_mode: "list", page_size: 20, date_format: "YYYY-MM-DD", time_format: "HH:mm" };

  it("take a view mode, a date format and a time format from the lists", () => {
    for (const view_mode of ["list", "grid"]) keeps(ui.defaults, { ...base, view_mode });
    for (const date_format of ["YYYY-MM-DD", "DD/MM/YYYY", "MM/DD/YYYY", "DD.MM.YYYY", "D MMM YYYY"]) {
      keeps(ui.defaults, { ...base, date_format });
    }
    for (const time_format of ["HH:mm", "HH:mm:ss", "h:mm A"]) keeps(ui.defaults, { ...base, time_format });
    refused(ui.defaults, { ...base, view_mode: "table" });
    refused(ui.defaults, { ...base, date_format: "YY-M-D" });
    refused(ui.defaults, { ...base, time_format: "hh" });
    refused(ui.defaults, { ...base, theme: "dark" });
  });

  it("take a page size from 1 to 100, which every page size of the spec fits", () => {
    for (const page_size of [1, ...PAGE_SIZES]) keeps(ui.defaults, { ...base, page_size });
    const at = (page_size: unknown) => messageAt(ui.defaults, { ...base, page_size }, "page_size");
    expect(at(0)).toBe("The page size must be from 1 to 100");
    expect(at(101)).toBe("The page size must be from 1 to 100");
    expect(at(20.5)).toBe("The page size must be a whole number from 1 to 100");
    expect(at("20")).toBe("The page size must be a whole number from 1 to 100");
  });
});

describe("settings requests and answers", () => {
  const setting = {
    id: "s",
    category: "ai",
    key: "model_name",
    value: { any: ["json"] },
    description: "Product detection model",
    is_editable: false,
    updated_at: null,
  };
  const change = {
    id: "c",
    category: "store",
    key: "spot_check_share",
    store_id: uuid,
    store_name: "Butik",
    changed_by: "a@x.se",
    changed_at: "2026-11-23T10:00:00.000Z",
    old_value: null,
    new_value: 0.05,
  };

  it("a setting keeps every field, in one of the known categories", () => {
    keeps(settingSchema, setting);
    keeps(settingSchema, { ...setting, description: null, updated_at: "2026-11-23T10:00:00.000Z" });
    refused(settingSchema, { ...setting, category: "cameras" });
  });

  it("a setting's path takes any category and key of 1 to 100 characters", () => {
    keeps(settingParams, { category: "c".repeat(100), key: "k".repeat(100) });
    keeps(settingParams, { category: "x", key: "y" });
    for (const params of [
      { category: "", key: "k" },
      { category: "c".repeat(101), key: "k" },
      { category: "ui", key: "" },
      { category: "ui", key: "k".repeat(101) },
    ]) {
      refused(settingParams, params);
    }
  });

  it("a change sends any value, and a store's overrides are category, key and value", () => {
    keeps(settingUpdateSchema, { value: { fps: 30 } });
    const overrides = { camera: { health_check_interval: 30 }, ui: {} };
    keeps(customSettingsSchema, overrides);
    keeps(storeOverridesUpdateSchema, { settings: overrides });
    keeps(storeOverridesSchema, { store_id: uuid, custom_settings: overrides });
    refused(customSettingsSchema, { camera: 30 });
    keeps(storeSettingsParams, { store_id: uuid });
    expect(messageAt(storeSettingsParams, { store_id: "1" }, "store_id")).toBe("Must be a valid id (UUID)");
  });

  it("effective settings hold every category", () => {
    const values = Object.fromEntries(
      categories.map((category) => [
        category,
        Object.fromEntries(Object.entries(SETTING_DEFINITIONS[category]).map(([key, d]) => [key, d.value])),
      ]),
    );
    keeps(effectiveSettingsSchema, values);
    const { ui: _ui, ...withoutUi } = values;
    refused(effectiveSettingsSchema, withoutUi);
  });

  it("the history keeps every field of a change, global or a store's", () => {
    keeps(settingChangeSchema, change);
    const global = { ...change, store_id: null, store_name: null, changed_by: null, old_value: 0, new_value: null };
    keeps(settingHistorySchema, { items: [change, global], total: 2 });
    refused(settingHistorySchema, { items: [], total: 1.5 });
    refused(settingChangeSchema, { ...change, category: "x" });
  });

  it("the history is read 50 at a time from the start unless asked otherwise", () => {
    expect(settingHistoryQuery.parse({})).toEqual({ limit: 50, offset: 0 });
    const query = { category: "store", key: "k".repeat(100), store_id: uuid, limit: "200", offset: "7" };
    expect(settingHistoryQuery.parse(query)).toEqual({ ...query, limit: 200, offset: 7 });
    expect(settingHistoryQuery.parse({ limit: "1", offset: "0" })).toEqual({ limit: 1, offset: 0 });
    for (const wrong of [
      { category: "x" },
      { key: "" },
      { key: "k".repeat(101) },
      { limit: "0" },
      { limit: "201" },
      { limit: "1.5" },
      { offset: "-1" },
      { offset: "0.5" },
    ]) {
      refused(settingHistoryQuery, wrong);
    }
    expect(messageAt(settingHistoryQuery, { store_id: "1" }, "store_id")).toBe("Must be a valid id (UUID)");
  });

  it("the camera screen's settings keep every list and value", () => {
    const list = [{ value: "nvr", label: "NVR" }];
    keeps(cameraSettingsSchema, {
      camera_types: { value: list },
      camera_brands: { value: [{ value: "axis", label: "Axis" }] },
      system_statuses: { value: [{ value: "online", label: "Online" }] },
      connection_types: { value: [{ value: "rtsp", label: "RTSP" }] },
      location_zones: { value: [{ value: "exit", label: "Exit" }] },
      resolutions: { value: [{ value: "1280x720", label: "1280 × 720" }] },
      fps_range: { value: { ...FPS_RANGE } },
      brand_presets: { value: builtIn("camera", "brand_presets") },
      system_defaults: { value: builtIn("camera", "system_defaults") },
      camera_defaults: { value: builtIn("camera", "camera_defaults") },
    });
  });
});
