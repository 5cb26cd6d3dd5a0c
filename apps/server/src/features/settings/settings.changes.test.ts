import type { SettingChange } from "@glide/contracts";
import { describe, expect, it } from "vitest";
import { as, signIn } from "../../test/harness.ts";
import {
  ctx,
  expectError,
  mine,
  platform,
  put,
  storeAdmin,
  storeAdminEmail,
  theirs,
  useSettingsApp,
} from "./settings.fixtures.ts";

/** Who may change what, and the history of the changes. */
useSettingsApp();

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
    await put("product", "default_vat_category", "food");
    expect((await history(`?store_id=${mine}`)).total).toBe(4);
    expect((await history("?category=product")).items.map((c) => c.key)).toEqual(["default_vat_category"]);
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
