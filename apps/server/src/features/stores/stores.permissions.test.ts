import { randomUUID } from "node:crypto";
import type { Store } from "@glide/contracts";
import { beforeAll, describe, expect, it } from "vitest";
import { as, signIn } from "../../test/harness.ts";
import { admin, auditOf, create, ctx, useStoresApp } from "./stores.fixtures.ts";

/** Who may do what with stores: store admins' reach, what only platform admins may do, and unknown ids. */
useStoresApp();

describe("who may do what", () => {
  let mine: Store;
  let other: Store;
  let storeAdmin: ReturnType<typeof as>;
  beforeAll(async () => {
    mine = await create({ name: "Min butik" });
    other = await create({ name: "Annans butik" });
    storeAdmin = as(ctx.app, (await signIn(ctx.app, "store_admin", [mine.id])).cookie);
  });

  it("answers 401 to anonymous callers on every route", async () => {
    const anon = as(ctx.app, null);
    const calls = [
      anon.get("/api/v1/stores/"),
      anon.post("/api/v1/stores/", { name: "x" }),
      anon.put(`/api/v1/stores/${mine.id}`, { name: "x" }),
      anon.delete(`/api/v1/stores/${mine.id}`),
      anon.get(`/api/v1/stores/${mine.id}/modules`),
      anon.post(`/api/v1/stores/${mine.id}/modules/analytics`, { enabled: true }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ detail: "Sign in required", code: "unauthorized" });
    }
  });

  it("shows a store admin only their stores", async () => {
    const list: Store[] = (await storeAdmin.get("/api/v1/stores/")).json();
    expect(list.map((s) => s.id)).toEqual([mine.id]);
  });

  it("lets a store admin edit details of their store but nothing else", async () => {
    expect((await storeAdmin.put(`/api/v1/stores/${mine.id}`, { phone: "08-1" })).json().phone).toBe("08-1");
    expect((await storeAdmin.get(`/api/v1/stores/${mine.id}/modules`)).statusCode).toBe(200);

    const denied = [
      storeAdmin.put(`/api/v1/stores/${other.id}`, { phone: "08-2" }),
      storeAdmin.get(`/api/v1/stores/${other.id}/modules`),
      storeAdmin.put(`/api/v1/stores/${mine.id}`, { is_active: false }),
      storeAdmin.post("/api/v1/stores/", { name: "New" }),
      storeAdmin.delete(`/api/v1/stores/${mine.id}`),
      storeAdmin.post(`/api/v1/stores/${mine.id}/modules/analytics`, { enabled: true }),
    ];
    for (const res of await Promise.all(denied)) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().detail).toBeTruthy();
    }
    const otherNow: Store[] = (await admin.get("/api/v1/stores/")).json();
    expect(otherNow.find((s) => s.id === other.id)?.phone).toBeNull();
    expect(otherNow.find((s) => s.id === mine.id)?.is_active).toBe(true);
  });
});

describe("searching and the edges of permission", () => {
  it("matches % and _ literally and ignores surrounding spaces", async () => {
    const hundred = await create({ name: "Hundra 100% Ekologiskt" });
    const under = await create({ name: "Butik_Understreck" });
    await create({ name: "Hundra 1000 Ekologiskt" });
    // Where _ matched any one character, "k_U" would find this store too.
    await create({ name: "Butik Umeå" });
    const names = async (search: string) =>
      ((await admin.get(`/api/v1/stores/?search=${encodeURIComponent(search)}`)).json() as Store[]).map((s) => s.id);
    expect(await names("100%")).toEqual([hundred.id]);
    expect(await names("k_U")).toEqual([under.id]);
    expect(await names("  k_U  ")).toEqual([under.id]);
  });

  it("finds an organisation number across its hyphen from three digits on", async () => {
    const store = await create({ name: "Orgnummer", organization_number: "556677-8899", country: "SE" });
    const ids = async (search: string) =>
      ((await admin.get(`/api/v1/stores/?search=${search}`)).json() as Store[]).map((s) => s.id);
    expect(await ids("7788")).toContain(store.id);
    expect(await ids("778")).toContain(store.id);
  });

  it("shows a store admin without stores an empty list", async () => {
    const lonely = as(ctx.app, (await signIn(ctx.app, "store_admin", [])).cookie);
    const res = await lonely.get("/api/v1/stores/");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    expect(res.headers["x-total-count"]).toBe("0");
  });

  it("answers 404 for an unknown store or module, and tells a store admin what only platform admins may do", async () => {
    const unknown = "00000000-0000-4000-8000-000000000000";
    expect((await admin.get(`/api/v1/stores/${unknown}`)).statusCode).toBe(404);
    expect((await admin.put(`/api/v1/stores/${unknown}`, { name: "x" })).statusCode).toBe(404);
    const store = await create({ name: "Moduler" });
    const noModule = await admin.post(`/api/v1/stores/${store.id}/modules/no_such_module`, { enabled: true });
    expect(noModule.statusCode).toBe(404);
    const storeAdmin = as(ctx.app, (await signIn(ctx.app, "store_admin", [store.id])).cookie);
    const refused = await storeAdmin.post("/api/v1/stores/", { name: "Egen" });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toMatch(/^Only platform admins may /);
  });
});

describe("what only platform admins may do, and unknown ids", () => {
  const unknown = randomUUID();
  let store: Store;
  let storeAdmin: ReturnType<typeof as>;
  beforeAll(async () => {
    store = await create({ name: "Behörighet" });
    storeAdmin = as(ctx.app, (await signIn(ctx.app, "store_admin", [store.id])).cookie);
  });

  it.each([
    ["create stores", () => storeAdmin.post("/api/v1/stores/", { name: "Egen" })],
    ["activate or deactivate stores", () => storeAdmin.put(`/api/v1/stores/${store.id}`, { is_active: false })],
    ["delete stores", () => storeAdmin.delete(`/api/v1/stores/${store.id}`)],
    ["change store modules", () => storeAdmin.post(`/api/v1/stores/${store.id}/modules/analytics`, { enabled: true })],
  ])("tells a store admin that only platform admins may %s", async (what, call) => {
    const res = await call();
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: `Only platform admins may ${what}`, code: "forbidden" });
  });

  it("changes nothing a store admin was refused", async () => {
    const list: Store[] = (await admin.get("/api/v1/stores/")).json();
    expect(list.find((s) => s.id === store.id)).toMatchObject({ is_active: true, settings: { modules: {} } });
    expect(await auditOf(store.id)).toHaveLength(1); // its creation only
  });

  it("answers 404 naming the store to an edit, a delete and the module routes of an unknown store", async () => {
    const notFound = { detail: `Store ${unknown} not found`, code: "not_found" };
    const calls = [
      await admin.put(`/api/v1/stores/${unknown}`, { name: "x" }),
      await admin.put(`/api/v1/stores/${unknown}`, {}),
      await admin.delete(`/api/v1/stores/${unknown}`),
      await admin.get(`/api/v1/stores/${unknown}/modules`),
      await admin.post(`/api/v1/stores/${unknown}/modules/analytics`, { enabled: true }),
    ];
    for (const res of calls) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toEqual(notFound);
    }
    expect(await auditOf(unknown)).toEqual([]);
  });

  it("answers 404 naming the module to a change of an unknown module", async () => {
    const res = await admin.post(`/api/v1/stores/${store.id}/modules/teleport`, { enabled: true });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: "Module teleport not found", code: "not_found" });
    expect(await auditOf(store.id)).toHaveLength(1);
  });
});
