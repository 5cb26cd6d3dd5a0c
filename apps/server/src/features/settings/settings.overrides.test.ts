import { cameraSettingsSchema, storeSchema } from "@glide/contracts";
import { sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { queryRows } from "../../db/client.ts";
import { ADMIN_COOKIE } from "../admin-auth/admin-auth.hooks.ts";
import { SETTINGS_TOPIC } from "./effective-settings.ts";
import {
  ctx,
  expectError,
  mine,
  platform,
  platformCookie,
  put,
  storeAdmin,
  theirs,
  useSettingsApp,
} from "./settings.fixtures.ts";

/** Store overrides, and the effective settings: a store's override, else the global value, else the built-in one. */
useSettingsApp();

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
  it("a changed default VAT category is the category of the next product made without one", async () => {
    expect((await put("product", "default_vat_category", "food")).statusCode).toBe(200);
    const product = await platform.post("/api/v1/products/", { sku: `VAT-${Date.now()}`, name: "Bröd", price: 20 });
    expect(product.json(), product.body).toMatchObject({ vat_category: "food" });
    // A category or a rate the request gives still wins.
    const given = await platform.post("/api/v1/products/", {
      sku: `VAT2-${Date.now()}`,
      name: "Tvål",
      price: 15,
      vat_rate: 25,
    });
    expect(given.json()).toMatchObject({ vat_category: "standard", vat_rate: 25 });
    // A CSV row that names no VAT makes a new product in the default category; an update keeps its category.
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
    expect(listed[0].vat_category).toBe("food");
    await put("product", "default_vat_category", "books_newspapers");
    expect((await csv(`sku,name,price\n${csvSku},Ost,55`)).statusCode).toBe(200);
    expect((await platform.get(`/api/v1/products/?search=${csvSku}`)).json()[0].vat_category).toBe("food");

    // Not a category: refused, and the value stays.
    const refused = await expectError(await put("product", "default_vat_category", "luxury"), 422);
    expect(refused.detail).toContain("A VAT category is one of standard, food, alcoholic_drink, books_newspapers");
    expect((await put("product", "default_vat_category", "standard")).statusCode).toBe(200);
    const after = await platform.post("/api/v1/products/", { sku: `VAT3-${Date.now()}`, name: "Ljus", price: 9 });
    expect(after.json().vat_category).toBe("standard");
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
