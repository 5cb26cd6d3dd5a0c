import { type Store, type StoreModule, storeModuleSchema, storeSchema } from "@glide/contracts";
import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { TEST_DATABASE_URL, waitingForLocks } from "../../test/harness.ts";
import { admin, adminEmail, auditOf, create, ctx, useStoresApp } from "./stores.fixtures.ts";

/** Stores after they are made: listing and searching, updating, modules, deleting, and the audit log of each change. */
useStoresApp();

describe("listing and searching", () => {
  let lund: Store;
  beforeAll(async () => {
    lund = await create({
      name: "Sökbar Butik",
      city: "Örebro",
      email: "orebro@glide.example",
      organization_number: "556701-2348",
    });
  });

  it.each([["sökbar"], ["ÖREBRO"], ["orebro@glide"], ["556701-2348"], ["5567012348"]])(
    "finds the store by %s",
    async (q) => {
      const res = await admin.get(`/api/v1/stores/?search=${encodeURIComponent(q)}`);
      expect(res.statusCode).toBe(200);
      const found = z.array(storeSchema).parse(res.json());
      expect(found.map((s) => s.id)).toContain(lund.id);
    },
  );

  it("returns an empty array when nothing matches, and treats % literally", async () => {
    expect((await admin.get("/api/v1/stores/?search=nothing-like-this")).json()).toEqual([]);
    expect((await admin.get("/api/v1/stores/?search=%25")).json()).toEqual([]);
  });

  it("pages with limit and offset and reports the total", async () => {
    for (const name of ["Sidbutik Ett", "Sidbutik Två", "Sidbutik Tre", "Sidbutik Fyra"]) await create({ name });
    const all: Store[] = (await admin.get("/api/v1/stores/")).json();
    expect(all.length).toBeGreaterThanOrEqual(5);
    const first = await admin.get("/api/v1/stores/?limit=2");
    expect(first.headers["x-total-count"]).toBe(String(all.length));
    expect(first.json().map((s: Store) => s.id)).toEqual(all.slice(0, 2).map((s) => s.id));
    const next = await admin.get("/api/v1/stores/?limit=2&offset=2");
    expect(next.json().map((s: Store) => s.id)).toEqual(all.slice(2, 4).map((s) => s.id));
    expect(next.headers["x-total-count"]).toBe(String(all.length));
    // The last store's page, and the first page past the end: the total all the same.
    const last = await admin.get(`/api/v1/stores/?limit=2&offset=${all.length - 1}`);
    expect(last.json().map((s: Store) => s.id)).toEqual([all.at(-1)!.id]);
    expect(last.headers["x-total-count"]).toBe(String(all.length));
    const past = await admin.get(`/api/v1/stores/?limit=2&offset=${all.length}`);
    expect(past.json()).toEqual([]);
    expect(past.headers["x-total-count"]).toBe(String(all.length));
    // A search's total is of its matches only.
    const found = await admin.get("/api/v1/stores/?limit=1&search=sidbutik");
    expect(found.json()).toHaveLength(1);
    expect(found.headers["x-total-count"]).toBe("4");
    expect((await admin.get("/api/v1/stores/?limit=0")).statusCode).toBe(400);
  });

  it("accepts the path with or without the trailing slash", async () => {
    expect((await admin.get("/api/v1/stores")).statusCode).toBe(200);
  });
});

describe("updating and deleting", () => {
  it("updates fields and leaves the others alone", async () => {
    const store = await create({ name: "Före", city: "Kiruna", settings: { vat_rate: 0.12 } });
    const res = await admin.put(`/api/v1/stores/${store.id}`, { name: "Efter", settings: { language: "fi-FI" } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: "Efter",
      city: "Kiruna",
      settings: { language: "fi-FI", vat_rate: 0.12 },
    });
  });

  it("activates and deactivates with only is_active", async () => {
    const store = await create({ name: "Toggle" });
    const off = await admin.put(`/api/v1/stores/${store.id}`, { is_active: false });
    expect(off.json()).toMatchObject({ is_active: false, name: "Toggle" });
    const on = await admin.put(`/api/v1/stores/${store.id}/`, { is_active: true });
    expect(on.json().is_active).toBe(true);
  });

  it("deletes a store and then answers 404 for it", async () => {
    const store = await create({ name: "Gone" });
    expect((await admin.delete(`/api/v1/stores/${store.id}`)).statusCode).toBe(204);
    const again = await admin.delete(`/api/v1/stores/${store.id}`);
    expect(again.statusCode).toBe(404);
    expect(again.json().detail).toContain(store.id);
    expect((await admin.put(`/api/v1/stores/${store.id}`, { name: "x" })).statusCode).toBe(404);
  });

  it("answers 400 naming the id for a malformed id", async () => {
    const res = await admin.put("/api/v1/stores/not-a-uuid", { name: "x" });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toContain("id");
  });
});

describe("modules", () => {
  it("lists the catalogue with prices in kronor and toggles a module", async () => {
    const store = await create({ name: "Moduler" });
    const list = z.array(storeModuleSchema).parse((await admin.get(`/api/v1/stores/${store.id}/modules`)).json());
    const ids = list.map((m) => m.module_id);
    expect(ids).toEqual(
      expect.arrayContaining([
        "ai_product_recognition",
        "face_checkout",
        "age_verification",
        "analytics",
        "door_access",
      ]),
    );
    expect(list.every((m) => !m.enabled && m.price_per_month > 0)).toBe(true);

    const res = await admin.post(`/api/v1/stores/${store.id}/modules/analytics`, {
      module_id: "analytics",
      enabled: true,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ module_id: "analytics", enabled: true, price_per_month: 499 });
    const after: StoreModule[] = (await admin.get(`/api/v1/stores/${store.id}/modules`)).json();
    expect(after.find((m) => m.module_id === "analytics")?.enabled).toBe(true);
    const stores: Store[] = (await admin.get("/api/v1/stores/")).json();
    expect(stores.find((s) => s.id === store.id)?.settings.modules).toEqual({ analytics: { enabled: true } });

    await admin.post(`/api/v1/stores/${store.id}/modules/analytics`, { enabled: false });
    const off: Store[] = (await admin.get("/api/v1/stores/")).json();
    expect(off.find((s) => s.id === store.id)?.settings.modules).toEqual({ analytics: { enabled: false } });
  });

  it("rejects unknown modules, unknown stores, a mismatched module_id and a missing flag", async () => {
    const store = await create({ name: "Moduler 2" });
    expect((await admin.post(`/api/v1/stores/${store.id}/modules/teleport`, { enabled: true })).statusCode).toBe(404);
    expect(
      (await admin.post("/api/v1/stores/00000000-0000-4000-8000-000000000000/modules/analytics", { enabled: true }))
        .statusCode,
    ).toBe(404);
    const mismatch = await admin.post(`/api/v1/stores/${store.id}/modules/analytics`, {
      module_id: "face_checkout",
      enabled: true,
    });
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json().detail).toContain("module_id");
    const missing = await admin.post(`/api/v1/stores/${store.id}/modules/analytics`, {});
    expect(missing.statusCode).toBe(422);
    expect(missing.json().detail).toContain("enabled");
  });
});

describe("the audit log", () => {
  it("logs creating, editing and deleting a store as entries about that store", async () => {
    const store = await create({ name: "Loggad" });
    const edited = await admin.put(`/api/v1/stores/${store.id}`, { name: "Omdöpt", city: "Visby" });
    expect(edited.statusCode).toBe(200);
    expect((await admin.delete(`/api/v1/stores/${store.id}`)).statusCode).toBe(204);
    const entry = { actor_email: adminEmail, entity_type: "store", store_id: store.id };
    expect(await auditOf(store.id)).toEqual([
      { ...entry, action: "store.create", summary: 'Store "Loggad" created', before: null, after: store },
      {
        ...entry,
        action: "store.update",
        summary: 'Store "Omdöpt" updated: name (was "Loggad"), city',
        before: store,
        after: edited.json(),
      },
      { ...entry, action: "store.delete", summary: 'Store "Omdöpt" deleted', before: edited.json(), after: null },
    ]);
  });

  it("logs turning a module on and off with its name and the store's, and nothing when it stays as it was", async () => {
    const store = await create({ name: "Modullogg" });
    const url = `/api/v1/stores/${store.id}/modules/analytics`;
    expect((await admin.post(url, { enabled: false })).statusCode).toBe(200);
    expect((await admin.post(url, { enabled: true })).statusCode).toBe(200);
    expect((await admin.post(url, { enabled: true })).statusCode).toBe(200);
    expect((await admin.post(url, { enabled: false })).statusCode).toBe(200);
    const entry = { actor_email: adminEmail, entity_type: "store", store_id: store.id };
    expect((await auditOf(store.id)).slice(1)).toEqual([
      {
        ...entry,
        action: "store.module_enable",
        summary: 'Module "Analytics" enabled for store "Modullogg"',
        before: { module_id: "analytics", enabled: false },
        after: { module_id: "analytics", enabled: true },
      },
      {
        ...entry,
        action: "store.module_disable",
        summary: 'Module "Analytics" disabled for store "Modullogg"',
        before: { module_id: "analytics", enabled: true },
        after: { module_id: "analytics", enabled: false },
      },
    ]);
  });

  it("answers an edit that changes nothing with the store as it is, and logs nothing", async () => {
    const store = await create({ name: "Orörd", city: "Luleå" });
    const empty = await admin.put(`/api/v1/stores/${store.id}`, {});
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json()).toEqual(store);
    const same = await admin.put(`/api/v1/stores/${store.id}`, { name: "Orörd", city: "Luleå" });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json()).toEqual(store);
    expect((await auditOf(store.id)).map((e) => e.action)).toEqual(["store.create"]);
  });
});

describe("searching by organisation number", () => {
  it("finds the number written with a space or a slash instead of the hyphen", async () => {
    const store = await create({ name: "Mellanslag", organization_number: "559012-3450" });
    const ids = async (search: string) =>
      ((await admin.get(`/api/v1/stores/?search=${encodeURIComponent(search)}`)).json() as Store[]).map((s) => s.id);
    expect(await ids("559012 3450")).toEqual([store.id]);
    expect(await ids("559012/3450")).toEqual([store.id]);
  });
});

/**
 * Two deletes at the same moment. A row lock of our own keeps the request's delete waiting after it
 * has read the store; the store is then deleted by someone else. PGlite runs one transaction at a
 * time, so this can only happen on PostgreSQL.
 */
describe.skipIf(!TEST_DATABASE_URL)("two deletes at the same moment (PostgreSQL)", () => {
  it("answers 404 and logs nothing when the store is deleted while the request deletes it", async () => {
    const store = await create({ name: "Dubbelraderad" });
    const other = new pg.Client({ connectionString: ctx.databaseUrl });
    await other.connect();
    await other.query("begin");
    await other.query("select id from stores where id = $1 for update", [store.id]);
    const res = admin.delete(`/api/v1/stores/${store.id}`);
    await waitingForLocks(ctx.app.db, 1);
    await other.query("delete from stores where id = $1", [store.id]);
    await other.query("commit");
    await other.end();
    expect((await res).json()).toEqual({ detail: `Store ${store.id} not found`, code: "not_found" });
    expect((await auditOf(store.id)).map((e) => e.action)).toEqual(["store.create"]);
  });
});
