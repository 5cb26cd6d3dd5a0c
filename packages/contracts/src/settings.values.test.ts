import { describe, expect, it } from "vitest";
import { COUNTRIES, CURRENCIES_BY_COUNTRY, LANGUAGES, PAGE_SIZES, TIMEZONES } from "./constants.ts";
import { SETTING_TEXT_LIMITS, SETTING_VALUE_SCHEMAS } from "./settings.ts";
import { builtIn, keeps, messageAt, refused } from "./testing.ts";
import { VAT_CATEGORIES } from "./vat.ts";

/** Each category's setting values: camera, product, store, AI and the console's display defaults. */

const { camera, product, store, ai, ui } = SETTING_VALUE_SCHEMAS;

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
  it("keeps a default VAT category, one of the categories and nothing else", () => {
    for (const category of VAT_CATEGORIES) keeps(product.default_vat_category, category);
    const words = "A VAT category is one of standard, food, alcoholic_drink, books_newspapers, exempt";
    for (const bad of ["Food", "luxury", "", 0.25, null])
      expect(messageAt(product.default_vat_category, bad)).toBe(words);
  });

  it("keeps a country's VAT rate as a fraction from 0 to 1 with at most two decimals of a percent", () => {
    const rateOf = (SE: unknown) => ({ SE });
    for (const rate of [0, 1, 0.25, 0.125, 0.255, 0.07, 0.0001]) keeps(product.vat_rates_by_country, rateOf(rate));
    const at = (rate: unknown) => messageAt(product.vat_rates_by_country, rateOf(rate), "SE");
    expect(at(-0.01)).toBe("A VAT rate must be from 0 to 1 (a fraction: 0.25 is 25 %)");
    expect(at(1.01)).toBe("A VAT rate must be from 0 to 1 (a fraction: 0.25 is 25 %)");
    expect(at("0.25")).toBe("A VAT rate must be a number from 0 to 1 (a fraction: 0.25 is 25 %)");
    for (const rate of [0.12345, 0.00001]) {
      expect(at(rate)).toBe("A VAT rate allows at most two decimals of a percent (0.125 is 12.5 %)");
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
