import { describe, expect, it } from "vitest";
import { COUNTRIES, PAGE_SIZES, STORE_DEFAULTS } from "./constants.ts";
import {
  AI_MODELS,
  CAMERA_BRANDS,
  CAMERA_SYSTEM_TYPES,
  CONNECTION_TYPES,
  FPS_RANGE,
  isSettingCategory,
  LOCATION_ZONES,
  MAX_PAGE_SIZE,
  SETTING_DEFINITIONS,
  SETTING_VALUE_SCHEMAS,
  type SettingCategory,
  SYSTEM_STATUSES,
  settingCategorySchema,
  settingKeysOf,
  settingValueSchema,
} from "./settings.ts";
import {
  cameraSettingsSchema,
  customSettingsSchema,
  effectiveSettingsSchema,
  settingChangeSchema,
  settingHistoryQuery,
  settingHistorySchema,
  settingParams,
  settingSchema,
  settingUpdateSchema,
  storeOverridesSchema,
  storeOverridesUpdateSchema,
  storeSettingsParams,
} from "./settings-api.ts";
import { builtIn, keeps, messageAt, refused } from "./testing.ts";

/** The setting categories and keys the console knows, and the settings requests and answers. */

const uuid = "0b7e3c1e-8f4a-4c55-9d3e-2f1a6b7c8d9e";
const categories: SettingCategory[] = ["camera", "product", "store", "ai", "ui"];

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
      "default_vat_category",
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
    expect(rates.SE).toBe(STORE_DEFAULTS.vat_rate);
    expect(builtIn("product", "default_vat_category")).toBe("standard");
    expect(builtIn("store", "default_country")).toBe("SE");
    expect(builtIn("product", "default_currency")).toBe("SEK");
  });

  it("gives every brand an RTSP path that names the channel", () => {
    const presets = builtIn("camera", "brand_presets") as Record<string, { stream_format: string }>;
    expect(Object.keys(presets)).toEqual(["hikvision", "dahua", "axis", "generic"]);
    for (const preset of Object.values(presets)) expect(preset.stream_format).toContain("{channel}");
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
