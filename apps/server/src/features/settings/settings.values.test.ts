import { SETTING_VALUE_SCHEMAS, type Setting, settingSchema } from "@glide/contracts";
import { describe, expect, it } from "vitest";
import { ADMIN_COOKIE } from "../admin-auth/admin-auth.hooks.ts";
import {
  ctx,
  DEFAULTS,
  expectError,
  mine,
  platform,
  platformCookie,
  put,
  storeAdmin,
  useSettingsApp,
} from "./settings.fixtures.ts";

/** Reading settings, and every editable key's value checked by its schema. */
useSettingsApp();

describe("reading settings", () => {
  it("lists every known key, filters by category, and answers one by its path", async () => {
    const all: Setting[] = (await platform.get("/api/v1/settings/")).json();
    const known = Object.entries(DEFAULTS).flatMap(([c, keys]) => Object.keys(keys).map((k) => `${c}/${k}`));
    expect(all.map((s) => `${s.category}/${s.key}`).sort()).toEqual(known.sort());
    for (const s of all) settingSchema.parse(s);

    const ai: Setting[] = (await platform.get("/api/v1/settings/?category=ai")).json();
    expect(ai.map((s) => s.key)).toEqual(["confidence_threshold", "iou_threshold", "model_name"]);

    const one = (await storeAdmin.get("/api/v1/settings/ai/confidence_threshold")).json();
    expect(one).toMatchObject({ category: "ai", key: "confidence_threshold", value: 0.5, is_editable: true });
  });

  it("answers 404 for an unknown key or category, and 400 for an unknown category filter", async () => {
    expect((await platform.get("/api/v1/settings/ai/no_such_key")).statusCode).toBe(404);
    expect((await platform.get("/api/v1/settings/kitchen/model_name")).statusCode).toBe(404);
    await expectError(await put("kitchen", "model_name", "x"), 404);
    // Names every object has are not settings either.
    await expectError(await put("ai", "constructor", 1), 404);
    await expectError(await put("toString", "x", 1), 404);
    const proto = await ctx.app.inject({
      method: "PUT",
      url: `/api/v1/settings/stores/${mine}`,
      payload: '{"settings":{"ai":{"__proto__":{"x":1}}}}',
      headers: { "content-type": "application/json" },
      cookies: { [ADMIN_COOKIE]: platformCookie },
    });
    expect(proto.statusCode).toBe(400);
    expect((await platform.get(`/api/v1/settings/stores/${mine}`)).json().custom_settings).toEqual({});
    const unknownKey = await expectError(await put("ai", "no_such_key", 1), 404);
    expect(unknownKey.detail).toBe("Setting ai/no_such_key not found");
    expect((await platform.get("/api/v1/settings/?category=kitchen")).statusCode).toBe(400);
  });
});

/** Per key: values that fit and values that do not, with the path the 422 names inside the value. */
const CASES: Record<string, { good: unknown[]; bad: [unknown, string][] }> = {
  "product/default_vat_category": {
    good: ["standard", "food", "alcoholic_drink", "books_newspapers", "exempt"],
    bad: [
      ["Food", "value"],
      ["luxury", "value"],
      [0.25, "value"],
      [null, "value"],
    ],
  },
  "product/vat_rates_by_country": {
    good: [{ SE: 0.25 }, { SE: 0.25, FI: 0.255 }, {}],
    bad: [
      [{ SE: 25 }, "value.SE"],
      [{ XX: 0.1 }, "value.XX"],
      [[0.25], "value"],
    ],
  },
  "product/currencies_by_country": {
    good: [{ SE: { code: "SEK", symbol: "kr", position: "after" } }],
    bad: [
      [{ SE: { code: "XYZ", symbol: "kr", position: "after" } }, "value.SE.code"],
      [{ SE: { code: "SEK", symbol: "kr", position: "middle" } }, "value.SE.position"],
      [{ SE: { code: "SEK", symbol: "", position: "after" } }, "value.SE.symbol"],
      [{ SE: { code: "SEK", symbol: "kr", position: "after", extra: 1 } }, "value.SE"],
    ],
  },
  "product/default_currency": {
    good: ["EUR", "CHF"],
    bad: [
      ["SEKK", "value"],
      [1, "value"],
    ],
  },
  "product/currency_symbol": {
    good: ["€", "CHF"],
    bad: [
      ["", "value"],
      ["kronor", "value"],
    ],
  },
  "camera/brand_presets": {
    good: [DEFAULTS.camera!.brand_presets!.value],
    bad: [
      [
        { ...(DEFAULTS.camera!.brand_presets!.value as object), axis: { port: 0, stream_format: "/a" } },
        "value.axis.port",
      ],
      [
        { ...(DEFAULTS.camera!.brand_presets!.value as object), axis: { port: 554, stream_format: "no-slash" } },
        "value.axis.stream_format",
      ],
      [{ hikvision: { port: 554, stream_format: "/a" } }, "value.dahua"],
    ],
  },
  "camera/system_defaults": {
    good: [{ connection_type: "onvif", type: "standalone", brand: "axis", port: 80 }],
    bad: [
      [{ connection_type: "ftp", type: "nvr", brand: "axis", port: 80 }, "value.connection_type"],
      [{ connection_type: "rtsp", type: "nvr", brand: "axis", port: 65536 }, "value.port"],
      [{ connection_type: "rtsp", type: "nvr", brand: "sony", port: 554 }, "value.brand"],
      [{ connection_type: "rtsp", type: "nvr", brand: "axis" }, "value.port"],
    ],
  },
  "camera/camera_defaults": {
    good: [
      { fps: 15, resolution: "1280x720", location_zone: "exit" },
      { fps: 60, resolution: "3840x2160", location_zone: "aisle" },
    ],
    bad: [
      [{ fps: 14, resolution: "1280x720", location_zone: "exit" }, "value.fps"],
      [{ fps: 61, resolution: "1280x720", location_zone: "exit" }, "value.fps"],
      [{ fps: 30.5, resolution: "1280x720", location_zone: "exit" }, "value.fps"],
      [{ fps: 30, resolution: "800x600", location_zone: "exit" }, "value.resolution"],
      [{ fps: 30, resolution: "1280x720", location_zone: "roof" }, "value.location_zone"],
    ],
  },
  "camera/health_check_interval": {
    good: [10, 60, 3600],
    bad: [
      [9, "value"],
      [3601, "value"],
      [30.5, "value"],
      ["60", "value"],
    ],
  },
  "store/default_country": {
    good: ["NO", "US"],
    bad: [
      ["SWE", "value"],
      ["se", "value"],
    ],
  },
  "store/default_timezone": {
    good: ["Europe/Oslo"],
    bad: [
      ["Mars/Base", "value"],
      ["", "value"],
    ],
  },
  "store/default_locale": {
    good: ["en-GB"],
    bad: [
      ["sv", "value"],
      [null, "value"],
    ],
  },
  "store/spot_check_share": {
    good: [0, 0.05, 0.2],
    bad: [
      [-0.01, "value"],
      [0.21, "value"],
      [5, "value"],
      ["0.1", "value"],
    ],
  },
  "store/abandon_after_minutes": {
    good: [5, 30, 1440],
    bad: [
      [4, "value"],
      [1441, "value"],
      [30.5, "value"],
      [null, "value"],
    ],
  },
  "store/max_line_quantity": {
    good: [1, 99, 999],
    bad: [
      [0, "value"],
      [1000, "value"],
      [2.5, "value"],
      ["10", "value"],
    ],
  },
  "store/max_cart_total": {
    good: [1, 50_000, 999_999],
    bad: [
      [0, "value"],
      [1_000_000, "value"],
      [100.5, "value"],
      [null, "value"],
    ],
  },
  "store/require_card_at_door": {
    good: [false, true],
    bad: [
      ["false", "value"],
      [0, "value"],
      [null, "value"],
    ],
  },
  "ai/confidence_threshold": {
    good: [0, 0.55, 1],
    bad: [
      [-0.05, "value"],
      [1.05, "value"],
      [50, "value"],
    ],
  },
  "ai/iou_threshold": {
    good: [0, 1],
    bad: [
      [2, "value"],
      ["0.4", "value"],
    ],
  },
  "ai/model_name": { good: ["yolov8x"], bad: [["yolov9", "value"]] },
  "ui/defaults": {
    good: [
      { view_mode: "grid", page_size: 1, date_format: "DD.MM.YYYY", time_format: "HH:mm:ss" },
      { view_mode: "list", page_size: 100, date_format: "YYYY-MM-DD", time_format: "h:mm A" },
    ],
    bad: [
      [{ view_mode: "grid", page_size: 0, date_format: "DD.MM.YYYY", time_format: "HH:mm" }, "value.page_size"],
      [{ view_mode: "grid", page_size: 101, date_format: "DD.MM.YYYY", time_format: "HH:mm" }, "value.page_size"],
      [{ view_mode: "table", page_size: 20, date_format: "DD.MM.YYYY", time_format: "HH:mm" }, "value.view_mode"],
      [{ view_mode: "grid", page_size: 20, date_format: "YY", time_format: "HH:mm" }, "value.date_format"],
      [{ view_mode: "grid", page_size: 20, date_format: "DD.MM.YYYY", time_format: "25h" }, "value.time_format"],
      [{ view_mode: "grid", page_size: 20, date_format: "DD.MM.YYYY", time_format: "HH:mm", theme: "x" }, "value"],
    ],
  },
};

describe("every editable key's value is checked by its schema", () => {
  it("has a case for every editable key", () => {
    const editable = Object.entries(DEFAULTS).flatMap(([c, keys]) =>
      Object.entries(keys)
        .filter(([, d]) => (d as unknown as { is_editable: boolean }).is_editable)
        .map(([k]) => `${c}/${k}`),
    );
    expect(Object.keys(CASES).sort()).toEqual(editable.sort());
  });

  for (const [path, { good, bad }] of Object.entries(CASES)) {
    const [category, key] = path.split("/") as [string, string];
    it(`${path}: keeps what fits, refuses the rest with 422 and the path inside the value, changing nothing`, async () => {
      for (const value of good) {
        const res = await put(category, key, value);
        expect(res.statusCode, `${JSON.stringify(value)}: ${res.body}`).toBe(200);
        expect(res.json().value).toEqual(value);
        expect((await platform.get(`/api/v1/settings/${path}`)).json().value).toEqual(value);
      }
      const kept = (await platform.get(`/api/v1/settings/${path}`)).json().value;
      for (const [value, at] of bad) {
        const err = await expectError(await put(category, key, value), 422);
        expect(err.code).toBe("validation_error");
        expect(
          err.errors?.map((e) => e.path),
          JSON.stringify(value),
        ).toContain(at);
        expect(err.detail.startsWith(`${at}:`), err.detail).toBe(true);
      }
      expect((await platform.get(`/api/v1/settings/${path}`)).json().value).toEqual(kept);
    });
  }

  it("says in words what is wrong, e.g. the page size's range", async () => {
    const err = await expectError(
      await put("ui", "defaults", { view_mode: "grid", page_size: 0, date_format: "YYYY-MM-DD", time_format: "HH:mm" }),
      422,
    );
    expect(err.detail).toBe("value.page_size: The page size must be from 1 to 100");
  });

  it("every built-in value fits its own schema", () => {
    for (const [category, keys] of Object.entries(DEFAULTS)) {
      for (const [key, def] of Object.entries(keys)) {
        const schema = (
          SETTING_VALUE_SCHEMAS as unknown as Record<
            string,
            Record<string, { safeParse(v: unknown): { success: boolean } }>
          >
        )[category]![key]!;
        expect(schema.safeParse(def.value).success, `${category}/${key}`).toBe(true);
      }
    }
  });
});
