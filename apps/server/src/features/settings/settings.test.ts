import {
  cameraSettingsSchema,
  errorSchema,
  SETTING_DEFINITIONS,
  SETTING_VALUE_SCHEMAS,
  type Setting,
  type SettingChange,
  settingSchema,
  storeSchema,
} from "@glide/contracts";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { queryRows } from "../../db/client.ts";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";
import { ADMIN_COOKIE } from "../admin-auth/admin-auth.hooks.ts";
import { SETTINGS_TOPIC } from "./effective-settings.ts";

let ctx: TestContext;
let platform: ReturnType<typeof as>;
let platformCookie: string;
let storeAdmin: ReturnType<typeof as>;
let storeAdminEmail: string;
let mine: string;
let theirs: string;

const DEFAULTS = SETTING_DEFINITIONS as unknown as Record<string, Record<string, { value: unknown }>>;

beforeAll(async () => {
  ctx = await createTestContext();
  platformCookie = (await signIn(ctx.app)).cookie;
  platform = as(ctx.app, platformCookie);
  mine = (await platform.post("/api/v1/stores/", { name: "Min butik" })).json().id;
  theirs = (await platform.post("/api/v1/stores/", { name: "Annans butik" })).json().id;
  const sa = await signIn(ctx.app, "store_admin", [mine]);
  storeAdmin = as(ctx.app, sa.cookie);
  storeAdminEmail = sa.email;
});
afterAll(() => ctx.close());

/** Every global value back to its built-in one, and no store overrides, so each test starts alike. */
beforeEach(async () => {
  for (const [category, keys] of Object.entries(DEFAULTS)) {
    for (const [key, def] of Object.entries(keys)) {
      await ctx.app.db.execute(
        sql`update settings set value = ${JSON.stringify(def.value)}::jsonb where category = ${category} and key = ${key}`,
      );
    }
  }
  await ctx.app.db.execute(sql`update stores set custom_settings = '{}'::jsonb`);
  await ctx.app.db.execute(sql`delete from setting_changes`);
  for (const store of [null, mine, theirs]) await ctx.app.settings.changed(store);
});

const put = (category: string, key: string, value: unknown, who = platform) =>
  who.put(`/api/v1/settings/${category}/${key}`, { value });

async function expectError(res: Awaited<ReturnType<typeof put>>, status: number) {
  expect(res.statusCode, res.body).toBe(status);
  return errorSchema.parse(res.json());
}

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
  "product/default_vat_rate": {
    good: [0, 0.06, 0.125, 1],
    bad: [
      [-0.01, "value"],
      [1.01, "value"],
      [25, "value"],
      ["0.25", "value"],
      [0.12345, "value"],
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

describe("who may change what", () => {
  it("a read-only setting cannot be changed (403), even to a value that fits", async () => {
    const before = (await platform.get("/api/v1/settings/store/countries")).json();
    expect(before.is_editable).toBe(false);
    const err = await expectError(await put("store", "countries", { SE: "Sverige" }), 403);
    expect(err).toMatchObject({ code: "read_only", detail: "Setting store/countries is read-only" });
    expect((await platform.get("/api/v1/settings/store/countries")).json().value).toEqual(before.value);
    await expectError(await put("camera", "resolutions", ["1280x720"]), 403);
  });

  it("only a platform admin changes a global value; a store admin is told to use an override", async () => {
    const err = await expectError(await put("ai", "model_name", "yolov8s", storeAdmin), 403);
    expect(err.detail).toMatch(/store override/);
    expect((await platform.get("/api/v1/settings/ai/model_name")).json().value).toBe("yolov8n");
    expect((await put("ai", "model_name", "yolov8s")).statusCode).toBe(200);
  });
});

describe("store overrides", () => {
  const overrides = (store: string, who = platform) => who.get(`/api/v1/settings/stores/${store}`);
  const setOverrides = (store: string, settings: unknown, who = platform) =>
    who.put(`/api/v1/settings/stores/${store}`, { settings });

  it("a store admin sets and reads their own store's, never another store's", async () => {
    expect((await overrides(mine, storeAdmin)).json()).toEqual({ store_id: mine, custom_settings: {} });
    const set = await setOverrides(mine, { ai: { confidence_threshold: 0.7 } }, storeAdmin);
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({ store_id: mine, custom_settings: { ai: { confidence_threshold: 0.7 } } });
    expect((await overrides(mine, storeAdmin)).json().custom_settings).toEqual({ ai: { confidence_threshold: 0.7 } });
    // The store's own record carries them too.
    const listed = storeSchema.array().parse((await platform.get("/api/v1/stores/")).json());
    expect(listed.find((s) => s.id === mine)?.custom_settings).toEqual({
      ai: { confidence_threshold: 0.7 },
    });

    await expectError(await overrides(theirs, storeAdmin), 403);
    await expectError(await setOverrides(theirs, { ai: { confidence_threshold: 0.7 } }, storeAdmin), 403);
    expect((await overrides(theirs)).json().custom_settings).toEqual({});
    // A platform admin may set any store's.
    expect((await setOverrides(theirs, { ai: { model_name: "yolov8m" } })).statusCode).toBe(200);
  });

  it("refuses unknown keys (404), read-only keys (403) and misfits (422), writing nothing", async () => {
    await setOverrides(mine, {
      ui: { defaults: { view_mode: "grid", page_size: 50, date_format: "YYYY-MM-DD", time_format: "HH:mm" } },
    });
    const kept = (await overrides(mine)).json().custom_settings;

    const unknown = await expectError(await setOverrides(mine, { ...kept, ai: { no_such: 1 } }), 404);
    expect(unknown).toMatchObject({
      code: "not_found",
      detail: "Setting ai/no_such not found",
      errors: [{ path: "settings.ai.no_such", message: "There is no setting ai/no_such" }],
    });
    await expectError(await setOverrides(mine, { kitchen: { model_name: "x" } }), 404);

    const readOnly = await expectError(
      await setOverrides(mine, { ...kept, store: { countries: { SE: "Sverige" } } }),
      403,
    );
    expect(readOnly).toEqual({
      code: "read_only",
      detail: "Setting store/countries is read-only and cannot be overridden",
      errors: [{ path: "settings.store.countries", message: "This setting is read-only" }],
    });

    const misfit = await expectError(await setOverrides(mine, { ...kept, ai: { confidence_threshold: 1.5 } }), 422);
    expect(misfit.errors?.map((e) => e.path)).toEqual(["settings.ai.confidence_threshold"]);
    const nested = await expectError(
      await setOverrides(mine, {
        camera: { camera_defaults: { fps: 70, resolution: "1280x720", location_zone: "exit" } },
      }),
      422,
    );
    expect(nested.errors?.map((e) => e.path)).toEqual(["settings.camera.camera_defaults.fps"]);
    expect((await setOverrides(mine, "not an object")).statusCode).toBe(422);

    expect((await overrides(mine)).json().custom_settings).toEqual(kept);
    const nowhere = await expectError(await overrides("00000000-0000-4000-8000-000000000000"), 404);
    expect(nowhere.detail).toBe("Store 00000000-0000-4000-8000-000000000000 not found");
  });

  it("sending the same overrides again changes nothing and records nothing", async () => {
    const body = { ai: { model_name: "yolov8s" } };
    await setOverrides(mine, body);
    const again = await setOverrides(mine, body);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ store_id: mine, custom_settings: body });
    const history = (await platform.get(`/api/v1/settings/history?store_id=${mine}`)).json();
    expect(history.total).toBe(1);
    const audited = await queryRows<{ n: number }>(
      ctx.app.db,
      sql`select count(*)::int as n from audit_log where action = 'setting.store_override' and entity_id = ${mine}
            and summary like '%ai/model_name%' and after ->> 'ai/model_name' = 'yolov8s'`,
    );
    expect(audited[0]!.n).toBe(1);
  });

  it("tells every instance of a change, global or a store's, and of an unchanged save nothing", async () => {
    await ctx.app.bus.ready();
    const told: unknown[] = [];
    const stop = ctx.app.bus.subscribe(SETTINGS_TOPIC, (m) => told.push(m));
    try {
      // What the set-up before this test announced is through once this comes back.
      await ctx.app.bus.publish(SETTINGS_TOPIC, "start");
      await vi.waitFor(() => expect(told).toContain("start"), { timeout: 5000 });
      told.length = 0;
      expect((await put("ai", "model_name", "yolov8n")).statusCode).toBe(200); // the value it already has
      expect((await setOverrides(mine, {})).statusCode).toBe(200); // no overrides, as before
      expect((await put("ai", "model_name", "yolov8s")).statusCode).toBe(200);
      expect((await setOverrides(mine, { ai: { model_name: "yolov8m" } })).statusCode).toBe(200);
      // A marker sent after them arrives after them: one channel, in order.
      await ctx.app.bus.publish(SETTINGS_TOPIC, "marker");
      await vi.waitFor(() => expect(told).toContain("marker"), { timeout: 5000 });
      expect(told).toEqual([{ store_id: null }, { store_id: mine }, "marker"]);
    } finally {
      stop();
    }
  });

  it("a read-only key a store already has may be dropped, and kept as it is, never changed", async () => {
    await ctx.app.db.execute(
      sql`update stores set custom_settings = '{"store": {"countries": {"SE": "Sverige"}}}'::jsonb where id = ${mine}`,
    );
    const kept = await setOverrides(mine, { store: { countries: { SE: "Sverige" } }, ai: { model_name: "yolov8m" } });
    expect(kept.statusCode, kept.body).toBe(200);
    await expectError(await setOverrides(mine, { store: { countries: { SE: "Svea rike" } } }), 403);
    const dropped = await setOverrides(mine, {});
    expect(dropped.statusCode, dropped.body).toBe(200);
    expect(dropped.json().custom_settings).toEqual({});
  });

  it("the whole object replaces the old one: a key left out is removed", async () => {
    await setOverrides(mine, { ai: { confidence_threshold: 0.6, model_name: "yolov8s" } });
    const res = await setOverrides(mine, { ai: { model_name: "yolov8s" } });
    expect(res.json().custom_settings).toEqual({ ai: { model_name: "yolov8s" } });
    expect((await setOverrides(mine, {})).json().custom_settings).toEqual({});
  });
});

describe("effective settings: a store's override, else the global value, else the built-in one", () => {
  it("a changed default VAT rate is the VAT of the next store and product made without one", async () => {
    expect((await put("product", "default_vat_rate", 0.12)).statusCode).toBe(200);
    const store = storeSchema.parse((await platform.post("/api/v1/stores/", { name: "Ny butik" })).json());
    expect(store.settings.vat_rate).toBe(0.12);
    const product = await platform.post("/api/v1/products/", { sku: `VAT-${Date.now()}`, name: "Bröd", price: 20 });
    expect(product.json().vat_rate, product.body).toBe(12);
    // A value the request gives still wins.
    const given = await platform.post("/api/v1/products/", {
      sku: `VAT2-${Date.now()}`,
      name: "Mjölk",
      price: 15,
      vat_rate: 6,
    });
    expect(given.json().vat_rate).toBe(6);
    // A CSV row that leaves vat_rate empty makes a new product with the default; an update keeps its rate.
    const csvSku = `CSV-${Date.now()}`;
    const csv = (body: string) =>
      ctx.app.inject({
        method: "POST",
        url: "/api/v1/products/import?dry_run=false",
        payload: body,
        headers: { "content-type": "text/csv" },
        cookies: { [ADMIN_COOKIE]: platformCookie },
      });
    const first = await csv(`sku,name,price\n${csvSku},Ost,50`);
    expect(first.statusCode, first.body).toBe(200);
    const listed = (await platform.get(`/api/v1/products/?search=${csvSku}`)).json();
    expect(listed[0].vat_rate).toBe(12);
    await put("product", "default_vat_rate", 0.06);
    expect((await csv(`sku,name,price\n${csvSku},Ost,55`)).statusCode).toBe(200);
    expect((await platform.get(`/api/v1/products/?search=${csvSku}`)).json()[0].vat_rate).toBe(12);

    expect((await put("product", "default_vat_rate", 0.25)).statusCode).toBe(200);
    const after = storeSchema.parse((await platform.post("/api/v1/stores/", { name: "Nästa butik" })).json());
    expect(after.settings.vat_rate).toBe(0.25);
  });

  it("a new store's country, time zone, language and currency come from the default_* settings", async () => {
    await put("store", "default_country", "NO");
    await put("store", "default_timezone", "Europe/Oslo");
    await put("store", "default_locale", "nb-NO");
    await put("product", "default_currency", "NOK");
    const store = storeSchema.parse((await platform.post("/api/v1/stores/", { name: "Norsk butik" })).json());
    expect(store).toMatchObject({ country: "NO", timezone: "Europe/Oslo" });
    expect(store.settings).toMatchObject({ language: "nb-NO", currency: "NOK", vat_rate: 0.25 });
  });

  it("a store in another country than the default starts with that country's currency, VAT and time zone", async () => {
    const fi = storeSchema.parse((await platform.post("/api/v1/stores/", { name: "Suomi", country: "FI" })).json());
    expect(fi).toMatchObject({ country: "FI", timezone: "Europe/Helsinki" });
    expect(fi.settings).toMatchObject({ currency: "EUR", vat_rate: 0.255, language: "sv-SE" });
    const se = storeSchema.parse((await platform.post("/api/v1/stores/", { name: "Sverige", country: "SE" })).json());
    expect(se.settings).toMatchObject({ currency: "SEK", vat_rate: 0.25 });
    // What the request says wins over both.
    const given = storeSchema.parse(
      (
        await platform.post("/api/v1/stores/", {
          name: "Egen",
          country: "FI",
          settings: { currency: "SEK", vat_rate: 0.1 },
        })
      ).json(),
    );
    expect(given.settings).toMatchObject({ currency: "SEK", vat_rate: 0.1 });
  });

  it("an override changes what its store reads and nothing else; removing it brings the global value back", async () => {
    const camera = async (store?: string) =>
      cameraSettingsSchema.parse(
        (await platform.get(`/api/v1/settings/camera${store ? `?store_id=${store}` : ""}`)).json(),
      ).camera_defaults.value;
    expect(await camera(mine)).toEqual({ fps: 30, resolution: "1920x1080", location_zone: "entrance" });

    await put("camera", "camera_defaults", { fps: 25, resolution: "1280x720", location_zone: "aisle" });
    expect(await camera(mine)).toEqual({ fps: 25, resolution: "1280x720", location_zone: "aisle" });

    const override = { fps: 15, resolution: "2560x1440", location_zone: "exit" };
    expect(
      (await platform.put(`/api/v1/settings/stores/${mine}`, { settings: { camera: { camera_defaults: override } } }))
        .statusCode,
    ).toBe(200);
    expect(await camera(mine)).toEqual(override);
    expect(await camera(theirs)).toEqual({ fps: 25, resolution: "1280x720", location_zone: "aisle" });
    expect(await camera()).toEqual({ fps: 25, resolution: "1280x720", location_zone: "aisle" });

    const effective = (await storeAdmin.get(`/api/v1/settings/effective?store_id=${mine}`)).json();
    expect(effective.camera.camera_defaults).toEqual(override);
    expect(effective.ai.confidence_threshold).toBe(0.5);
    expect((await storeAdmin.get(`/api/v1/settings/effective?store_id=${theirs}`)).statusCode).toBe(403);
    expect((await storeAdmin.get(`/api/v1/settings/camera?store_id=${theirs}`)).statusCode).toBe(403);

    await platform.put(`/api/v1/settings/stores/${mine}`, { settings: {} });
    expect(await camera(mine)).toEqual({ fps: 25, resolution: "1280x720", location_zone: "aisle" });
  });

  it("a stored value that no longer fits is passed over for the built-in one", async () => {
    await ctx.app.db.execute(
      sql`update settings set value = '"gone"'::jsonb where category = 'ai' and key = 'iou_threshold'`,
    );
    await ctx.app.settings.changed(null);
    expect((await platform.get("/api/v1/settings/effective")).json().ai.iou_threshold).toBe(0.45);
  });

  it("a store's override that no longer fits is passed over for the global value", async () => {
    await put("ai", "iou_threshold", 0.3);
    await ctx.app.db.execute(
      sql`update stores set custom_settings = '{"ai": {"iou_threshold": 7, "model_name": "yolov8l"}}'::jsonb where id = ${mine}`,
    );
    await ctx.app.settings.changed(mine);
    const effective = (await platform.get(`/api/v1/settings/effective?store_id=${mine}`)).json();
    expect(effective.ai).toMatchObject({ iou_threshold: 0.3, model_name: "yolov8l" });
  });

  it("a store that does not exist reads the global values", async () => {
    await put("ai", "model_name", "yolov8m");
    const values = await ctx.app.settings.effective("00000000-0000-4000-8000-000000000000");
    expect(values.ai.model_name).toBe("yolov8m");
  });

  it("the camera screen's lists carry value and label", async () => {
    const lists = cameraSettingsSchema.parse((await storeAdmin.get("/api/v1/settings/camera")).json());
    expect(lists.connection_types.value).toEqual([
      { value: "rtsp", label: "RTSP" },
      { value: "http", label: "HTTP" },
      { value: "onvif", label: "ONVIF" },
    ]);
    expect(lists.camera_types.value.map((o) => o.value)).toEqual(["nvr", "dvr", "standalone"]);
    expect(lists.resolutions.value.map((o) => o.value)).toEqual(["1280x720", "1920x1080", "2560x1440", "3840x2160"]);
    expect(lists.fps_range.value).toEqual({ min: 15, max: 60, step: 5 });
  });
});

describe("history", () => {
  const history = async (query = "", who = platform) => {
    const res = await who.get(`/api/v1/settings/history${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { items: SettingChange[]; total: number };
  };

  it("records who changed what, when, from what to what; an unchanged value and a refused one are not recorded", async () => {
    const before = Date.now();
    await put("ai", "confidence_threshold", 0.6);
    const again = await put("ai", "confidence_threshold", 0.6);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ key: "confidence_threshold", value: 0.6 });
    await put("ai", "confidence_threshold", 7);
    await put("ai", "confidence_threshold", 0.65);
    const { items, total } = await history();
    expect(total).toBe(2);
    expect(items.map((c) => [c.old_value, c.new_value])).toEqual([
      [0.6, 0.65],
      [0.5, 0.6],
    ]);
    expect(items[0]).toMatchObject({ category: "ai", key: "confidence_threshold", store_id: null, store_name: null });
    expect(items[0]!.changed_by).toMatch(/@example\.se$/);
    expect(Date.parse(items[0]!.changed_at)).toBeGreaterThanOrEqual(before - 1000);
  });

  it("records each changed key of an override, with the store; filters by key and store; pages", async () => {
    await storeAdmin.put(`/api/v1/settings/stores/${mine}`, {
      settings: { ai: { confidence_threshold: 0.7, model_name: "yolov8s" } },
    });
    await storeAdmin.put(`/api/v1/settings/stores/${mine}`, {
      settings: { ai: { confidence_threshold: 0.8, model_name: "yolov8s" } },
    });
    await storeAdmin.put(`/api/v1/settings/stores/${mine}`, { settings: { ai: { confidence_threshold: 0.8 } } });
    const { items, total } = await history(`?store_id=${mine}`);
    expect(total).toBe(4);
    const model = items.filter((c) => c.key === "model_name");
    expect(model.map((c) => [c.old_value, c.new_value])).toEqual([
      ["yolov8s", null],
      [null, "yolov8s"],
    ]);
    expect(items[0]).toMatchObject({ store_id: mine, store_name: "Min butik", changed_by: storeAdminEmail });
    await platform.put(`/api/v1/settings/stores/${theirs}`, { settings: { ai: { confidence_threshold: 0.3 } } });
    await put("product", "default_vat_rate", 0.12);
    expect((await history(`?store_id=${mine}`)).total).toBe(4);
    expect((await history("?category=product")).items.map((c) => c.key)).toEqual(["default_vat_rate"]);
    expect((await history("?category=ai")).total).toBe(5);
    const page = await history(`?store_id=${mine}&key=confidence_threshold&limit=1&offset=1`);
    expect(page.total).toBe(2);
    expect(page.items.map((c) => c.new_value)).toEqual([0.7]);
  });

  it("a store admin sees global changes and their stores' overrides, never another store's", async () => {
    await put("ai", "model_name", "yolov8l");
    await platform.put(`/api/v1/settings/stores/${theirs}`, { settings: { ai: { model_name: "yolov8x" } } });
    await storeAdmin.put(`/api/v1/settings/stores/${mine}`, { settings: { ai: { model_name: "yolov8m" } } });
    const seen = await history("", storeAdmin);
    expect(seen.items.map((c) => c.store_id)).toEqual([mine, null]);
    expect((await history("")).total).toBe(3);
    expect((await storeAdmin.get(`/api/v1/settings/history?store_id=${theirs}`)).statusCode).toBe(403);
    // A store admin who manages no store yet sees the global changes only.
    const none = as(ctx.app, (await signIn(ctx.app, "store_admin", [])).cookie);
    const global = await history("", none);
    expect(global.items.map((c) => c.store_id)).toEqual([null]);
    expect(global.total).toBe(1);
  });
});
