import { auditEntrySchema } from "@glide/contracts";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog } from "../../db/schema/index.ts";
import { ADMIN_COOKIE } from "../admin-auth/admin-auth.hooks.ts";
import {
  count,
  ctx,
  expectOk,
  latest,
  list,
  mine,
  openAuditTests,
  platform,
  platformAdmin,
  storeAdmin,
  storeAdminEmail,
} from "./audit.fixtures.ts";
import { recordUpdate } from "./audit.ts";

beforeAll(openAuditTests);
afterAll(() => ctx.close());

describe("stores", () => {
  it("records create, a rename with old and new values, and delete, by the admin who did it", async () => {
    const store = expectOk(await platform.post("/api/v1/stores/", { name: "Gamla namnet" }), 201);
    const created = await latest("store.create", store.id);
    expect(created).toMatchObject({
      actor_id: platformAdmin.id,
      actor_email: platformAdmin.email,
      entity_type: "store",
      store_id: store.id,
      summary: 'Store "Gamla namnet" created',
      before: null,
      after: { id: store.id, name: "Gamla namnet" },
    });

    expectOk(await platform.put(`/api/v1/stores/${store.id}`, { name: "Nya namnet", phone: "046-11 22 33" }));
    const renamed = await latest("store.update", store.id);
    expect(renamed.summary).toBe('Store "Nya namnet" updated: name (was "Gamla namnet"), phone');
    expect(renamed.before).toMatchObject({ name: "Gamla namnet", phone: null });
    expect(renamed.after).toMatchObject({ name: "Nya namnet", phone: "046-11 22 33" });

    // Saving the same values again changes nothing, so nothing is recorded.
    const before = await count();
    expectOk(await platform.put(`/api/v1/stores/${store.id}`, { name: "Nya namnet" }));
    expect(await count()).toBe(before);

    expectOk(await platform.delete(`/api/v1/stores/${store.id}`), 204);
    const deleted = await latest("store.delete", store.id);
    expect(deleted).toMatchObject({ summary: 'Store "Nya namnet" deleted', after: null });
    expect(deleted.before).toMatchObject({ name: "Nya namnet" });
  });

  it("names the store admin when they change their own store", async () => {
    expectOk(await storeAdmin.put(`/api/v1/stores/${mine}`, { city: "Lund" }));
    const entry = await latest("store.update", mine);
    expect(entry).toMatchObject({ actor_email: storeAdminEmail, summary: 'Store "Revisionsbutiken" updated: city' });
  });

  it("records a module enabled and disabled, only when its state changes", async () => {
    const moduleId = expectOk(await platform.get(`/api/v1/stores/${mine}/modules`))[0].module_id;
    expectOk(await platform.post(`/api/v1/stores/${mine}/modules/${moduleId}`, { enabled: true }));
    const enabled = await latest("store.module_enable", mine);
    expect(enabled.before).toEqual({ module_id: moduleId, enabled: false });
    expect(enabled.after).toEqual({ module_id: moduleId, enabled: true });
    expect(enabled.summary).toMatch(/^Module ".+" enabled for store "Revisionsbutiken"$/);

    const before = await count();
    expectOk(await platform.post(`/api/v1/stores/${mine}/modules/${moduleId}`, { enabled: true }));
    expect(await count()).toBe(before);

    expectOk(await platform.post(`/api/v1/stores/${mine}/modules/${moduleId}`, { enabled: false }));
    expect((await latest("store.module_disable", mine)).after).toEqual({ module_id: moduleId, enabled: false });
  });

  it("records device keys created and revoked, never the key or its hash", async () => {
    const key = expectOk(
      await platform.post(`/api/v1/stores/${mine}/device-keys`, { kind: "door_scanner", label: "Entrédörr" }),
      201,
    );
    const created = await latest("store.device_key_create", key.id);
    expect(created).toMatchObject({
      entity_type: "device_key",
      store_id: mine,
      summary: 'Device key "Entrédörr" (door_scanner) created for store "Revisionsbutiken"',
      after: { id: key.id, kind: "door_scanner", label: "Entrédörr" },
    });
    expect(JSON.stringify(created)).not.toContain(key.key);
    expect(JSON.stringify(created)).not.toMatch(/key_hash|keyHash/);

    expectOk(await platform.delete(`/api/v1/stores/${mine}/device-keys/${key.id}`), 204);
    const revoked = await latest("store.device_key_delete", key.id);
    expect(revoked).toMatchObject({ after: null, before: { id: key.id, label: "Entrédörr" } });
  });
});

describe("products", () => {
  const csvImport = (csv: string, query: string) =>
    ctx.app.inject({
      method: "POST",
      url: `/api/v1/products/import${query}`,
      payload: csv,
      headers: { "content-type": "text/csv" },
      cookies: { [ADMIN_COOKIE]: platformAdmin.cookie },
    });

  it("records create, update with old and new price, and delete", async () => {
    const product = expectOk(
      await platform.post("/api/v1/products/", { sku: "AUD-1", name: "Mjölk", price: 12.5 }),
      201,
    );
    expect(await latest("product.create", product.id)).toMatchObject({
      summary: 'Product "Mjölk" (SKU AUD-1) created',
      after: { sku: "AUD-1", price: 12.5 },
    });

    expectOk(await platform.put(`/api/v1/products/${product.id}`, { price: 13.9 }));
    const updated = await latest("product.update", product.id);
    // updated_at moves on every save; it is no change a person made.
    expect(updated.summary).toBe('Product "Mjölk" (SKU AUD-1) updated: price');
    expect(updated.before).toMatchObject({ price: 12.5 });
    expect(updated.after).toMatchObject({ price: 13.9 });

    expectOk(await platform.delete(`/api/v1/products/${product.id}`), 204);
    expect(await latest("product.delete", product.id)).toMatchObject({ before: { sku: "AUD-1" }, after: null });
  });

  it("records one entry per CSV import with its counts, none for a dry run", async () => {
    expectOk(await platform.post("/api/v1/products/", { sku: "AUD-CSV-1", name: "Fil", price: 10 }), 201);
    const csv = "sku,name,price\nAUD-CSV-1,Filmjölk,11\nAUD-CSV-2,Yoghurt,20\nAUD-CSV-3,Grädde,15\n,Utan SKU,1\n";
    const before = await count();
    expectOk(await csvImport(csv, "?dry_run=true"));
    expect(await count()).toBe(before);

    expectOk(await csvImport(csv, "?dry_run=false&skip_rejected=true"));
    expect(await count()).toBe(before + 1);
    const { items } = await list("?action=product.import&limit=1");
    const entry = auditEntrySchema.parse(expectOk(await platform.get(`/api/v1/admin/audit/${items[0]!.id}`)));
    expect(entry).toMatchObject({
      summary: "Products imported from CSV: 2 created, 1 updated, 1 skipped",
      after: { created: 2, updated: 1, skipped: 1, rows: 4 },
    });
  });

  it("records an uploaded photo", async () => {
    const image = await sharp({ create: { width: 2, height: 2, channels: 3, background: "#246" } })
      .png()
      .toBuffer();
    const res = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/products/images",
      payload: image,
      headers: { "content-type": "image/png" },
      cookies: { [ADMIN_COOKIE]: platformAdmin.cookie },
    });
    const { image_url } = expectOk(res, 201);
    expect((await latest("product.image_upload", image_url)).after).toEqual({ image_url });
  });
});

describe("settings", () => {
  it("records a global value with old and new value", async () => {
    expectOk(await platform.put("/api/v1/settings/ai/model_name", { value: "yolov8m" }));
    const entry = await latest("setting.update", "ai/model_name");
    expect(entry).toMatchObject({ entity_type: "setting", summary: "Setting ai/model_name changed" });
    expect(entry.before).toMatchObject({ value: "yolov8n" });
    expect(entry.after).toMatchObject({ value: "yolov8m" });
  });

  it("records a store's overrides key by key, by the store admin who set them", async () => {
    const put = (settings: unknown) => storeAdmin.put(`/api/v1/settings/stores/${mine}`, { settings });
    expectOk(await put({ ai: { confidence_threshold: 0.7 } }));
    expectOk(await put({ ai: { confidence_threshold: 0.8 }, store: { abandon_after_minutes: 45 } }));
    const entry = await latest("setting.store_override", mine);
    expect(entry).toMatchObject({
      actor_email: storeAdminEmail,
      entity_type: "store",
      store_id: mine,
      summary: 'Settings of store "Revisionsbutiken" overridden: ai/confidence_threshold, store/abandon_after_minutes',
      before: { "ai/confidence_threshold": 0.7 },
      after: { "ai/confidence_threshold": 0.8, "store/abandon_after_minutes": 45 },
    });
  });
});

describe("cameras", () => {
  const SECRET = "hemligt-lösen-123";

  it("records systems and cameras, a password change as has_password and never the password", async () => {
    const system = expectOk(
      await platform.post("/api/v1/cameras/systems", {
        name: "NVR revision",
        host: "127.0.0.1",
        port: 1,
        username: "admin",
        password: SECRET,
        store_id: mine,
      }),
      201,
    );
    const created = await latest("camera_system.create", system.id);
    expect(created).toMatchObject({ store_id: mine, after: { name: "NVR revision", has_password: true } });

    expectOk(await platform.put(`/api/v1/cameras/systems/${system.id}`, { password: "ett-annat-lösen" }));
    const changed = await latest("camera_system.update", system.id);
    expect(changed.summary).toBe('Camera system "NVR revision" updated: password');
    expect(changed.before).toMatchObject({ has_password: true });
    expect(changed.after).toMatchObject({ has_password: true });

    const camera = expectOk(
      await platform.post("/api/v1/cameras/cameras", { name: "Kamera kassa", camera_system_id: system.id }),
      201,
    );
    expect(await latest("camera.create", camera.id)).toMatchObject({ store_id: mine, after: { name: "Kamera kassa" } });
    expectOk(await platform.put(`/api/v1/cameras/cameras/${camera.id}`, { fps: 25 }));
    const moved = await latest("camera.update", camera.id);
    expect(moved.summary).toBe('Camera "Kamera kassa" updated: fps');
    expect(moved.after).toMatchObject({ fps: 25 });
    expectOk(await platform.delete(`/api/v1/cameras/cameras/${camera.id}`), 204);
    expect(await latest("camera.delete", camera.id)).toMatchObject({ after: null });

    expectOk(await platform.delete(`/api/v1/cameras/systems/${system.id}`), 204);
    expect(await latest("camera_system.delete", system.id)).toMatchObject({ before: { name: "NVR revision" } });

    // Nowhere in the log, whatever the entry.
    const rows = await ctx.app.db.select().from(auditLog);
    const everything = JSON.stringify(rows);
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toContain("ett-annat-lösen");
    expect(everything).not.toMatch(/"password(_sealed)?"/);
  });
});

describe("an update's line", () => {
  const update = (entityId: string, before: unknown, after: unknown, alsoChanged?: string[]) =>
    recordUpdate(ctx.app.db, {
      actor: { id: null, email: "system" },
      action: "thing.update",
      entityType: "thing",
      entityId,
      label: "Thing",
      before,
      after,
      ...(alsoChanged ? { alsoChanged } : {}),
    });

  it("names the changed fields, the old name only when there was one, and nothing at all for no change", async () => {
    await update("line-1", { name: "Old", size: 1 }, { name: "New", size: 2 });
    expect((await latest("thing.update", "line-1")).summary).toBe('Thing updated: name (was "Old"), size');
    await update("line-2", { name: null, size: 1 }, { name: "Named", size: 1 }, ["password"]);
    expect((await latest("thing.update", "line-2")).summary).toBe("Thing updated: name, password");
    const before = await count();
    await update("line-3", { name: "Same" }, { name: "Same" });
    expect(await count()).toBe(before);
  });
});

describe("failed changes", () => {
  it("write no entry", async () => {
    const product = expectOk(
      await platform.post("/api/v1/products/", { sku: "AUD-DUP", name: "Dubbel", price: 1 }),
      201,
    );
    const before = await count();
    expect((await platform.post("/api/v1/products/", { sku: "AUD-DUP", name: "Igen", price: 1 })).statusCode).toBe(409);
    expect((await platform.put(`/api/v1/stores/${mine}`, { organization_number: "123" })).statusCode).toBe(422);
    expect((await storeAdmin.delete(`/api/v1/stores/${mine}`)).statusCode).toBe(403);
    expect((await storeAdmin.delete(`/api/v1/products/${product.id}`)).statusCode).toBe(403);
    expect((await platform.delete(`/api/v1/cameras/cameras/${crypto.randomUUID()}`)).statusCode).toBe(404);
    expect((await platform.put("/api/v1/settings/ai/model_name", { value: 7 })).statusCode).toBe(422);
    expect(await count()).toBe(before);
  });
});
