import { type PriceGroup, priceGroupListSchema, priceGroupSchema } from "@glide/contracts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { queryRows, sql } from "../../db/client.ts";
import { auditRowsOf } from "../../test/audit-rows.ts";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";

/**
 * Price groups through the API: making, renaming and deleting them, putting
 * stores in them, who may, bad input, and the audit log (prices of a group
 * are in price-group-prices.test.ts, what a scan costs in price-groups.scan.test.ts).
 */
let ctx: TestContext;
let platform: ReturnType<typeof as>;
let ownAdmin: ReturnType<typeof as>;
let storeA: string;
let storeB: string;
const UNKNOWN = "00000000-0000-4000-8000-000000000000";

async function made(name: string): Promise<PriceGroup> {
  const res = await platform.post("/api/v1/price-groups", { name });
  expect(res.statusCode, res.body).toBe(201);
  return priceGroupSchema.parse(res.json());
}

async function listed(caller = platform): Promise<PriceGroup[]> {
  const res = await caller.get("/api/v1/price-groups");
  expect(res.statusCode, res.body).toBe(200);
  return priceGroupListSchema.parse(res.json());
}

const assign = (store: string, price_group_id: string | null, caller = platform) =>
  caller.put(`/api/v1/stores/${store}/price-group`, { price_group_id });

const groupOfStore = async (store: string) =>
  (
    await queryRows<{ g: string | null }>(ctx.app.db, sql`select price_group_id as g from stores where id = ${store}`)
  )[0]!.g;

beforeAll(async () => {
  ctx = await createTestContext();
  platform = as(ctx.app, (await signIn(ctx.app)).cookie);
  storeA = (await platform.post("/api/v1/stores/", { name: "Butik A" })).json().id;
  storeB = (await platform.post("/api/v1/stores/", { name: "Butik B" })).json().id;
  ownAdmin = as(ctx.app, (await signIn(ctx.app, "store_admin", [storeA])).cookie);
});
afterAll(() => ctx?.close());
beforeEach(async () => {
  await ctx.app.db.execute(sql`delete from price_groups`);
});

describe("a price group", () => {
  it("is created, listed by name with its stores and number of prices, renamed and deleted, each in the audit log", async () => {
    const south = await made("  Syd ");
    expect(south).toMatchObject({ name: "Syd", stores: [], price_count: 0 });
    await made("Norr");
    expect((await assign(storeB, south.id)).json()).toEqual({ price_group_id: south.id });
    expect((await assign(storeA, south.id)).statusCode).toBe(200);
    const product = (await platform.post("/api/v1/products/", { sku: "PG-1", name: "Vara", price: 5 })).json().id;
    expect((await platform.put(`/api/v1/price-groups/${south.id}/prices/${product}`, { price: 4 })).statusCode).toBe(
      200,
    );
    expect((await listed()).map((g) => [g.name, g.stores.map((s) => s.name), g.price_count])).toEqual([
      ["Norr", [], 0],
      ["Syd", ["Butik A", "Butik B"], 1],
    ]);

    const renamed = await platform.put(`/api/v1/price-groups/${south.id}`, { name: "Södra" });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ id: south.id, name: "Södra" });
    expect((await platform.delete(`/api/v1/price-groups/${south.id}`)).statusCode).toBe(204);
    expect(await groupOfStore(storeA)).toBeNull();
    expect((await listed()).map((g) => g.name)).toEqual(["Norr"]);
    expect((await auditRowsOf(ctx.app.db, south.id)).map((a) => [a.action, a.summary])).toEqual([
      ["price_group.create", 'Price group "Syd" created'],
      ["price_group.update", 'Price group "Södra" renamed (was "Syd")'],
      ["price_group.delete", 'Price group "Södra" deleted (2 stores left it)'],
    ]);
  });

  it("refuses a name already taken, case aside, with 409 on the name; a blank, long or non-text name with 422", async () => {
    const south = await made("Syd");
    const north = await made("Norr");
    for (const res of [
      await platform.post("/api/v1/price-groups", { name: "syd" }),
      await platform.put(`/api/v1/price-groups/${north.id}`, { name: "SYD" }),
    ]) {
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ detail: expect.stringContaining('named "'), errors: [{ path: "name" }] });
    }
    for (const [body, detail] of [
      [{ name: "  " }, "Name is required"],
      [{}, "Name is required"],
      [{ name: 5 }, "Name must be text"],
      [{ name: "x".repeat(101) }, "Name must be at most 100 characters"],
    ] as const) {
      const res = await platform.post("/api/v1/price-groups", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().detail).toContain(detail);
    }
    expect((await listed()).map((g) => g.name)).toEqual(["Norr", "Syd"]);
    expect((await platform.put(`/api/v1/price-groups/${south.id}`, { name: "Syd" })).statusCode).toBe(200);
    expect((await auditRowsOf(ctx.app.db, south.id)).map((a) => a.action)).toEqual(["price_group.create"]);
  });

  it("answers 404 for an unknown group, 400 for an id that is not a UUID", async () => {
    expect((await platform.put(`/api/v1/price-groups/${UNKNOWN}`, { name: "X" })).statusCode).toBe(404);
    const gone = await platform.delete(`/api/v1/price-groups/${UNKNOWN}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().detail).toBe(`Price group ${UNKNOWN} not found`);
    const bad = await platform.delete("/api/v1/price-groups/syd");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toContain("Price group id must be a UUID");
  });
});

describe("putting a store in a group", () => {
  it("moves it, takes it out with null, is idempotent, and is in the store's audit log", async () => {
    const south = await made("Syd");
    const north = await made("Norr");
    const assignments = async () =>
      (await auditRowsOf(ctx.app.db, storeA)).filter((a) => a.action === "price_group.assign");
    const before = (await assignments()).length;
    expect((await assign(storeA, south.id)).statusCode).toBe(200);
    expect((await assign(storeA, south.id)).statusCode).toBe(200);
    expect((await assign(storeA, north.id)).statusCode).toBe(200);
    expect(await groupOfStore(storeA)).toBe(north.id);
    expect((await assign(storeA, null)).json()).toEqual({ price_group_id: null });
    expect(await groupOfStore(storeA)).toBeNull();
    const log = (await assignments()).slice(before);
    expect(log.map((a) => [a.store_id, a.summary])).toEqual([
      [storeA, 'Store "Butik A" put in price group "Syd"'],
      [storeA, 'Store "Butik A" put in price group "Norr"'],
      [storeA, 'Store "Butik A" taken out of its price group'],
    ]);
  });

  it("refuses an unknown group (422 on price_group_id) and answers 404 for an unknown store", async () => {
    const south = await made("Syd");
    const res = await assign(storeA, UNKNOWN);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      detail: `Price group ${UNKNOWN} not found`,
      errors: [{ path: "price_group_id" }],
    });
    expect((await assign(storeA, "syd" as never)).statusCode).toBe(422);
    expect((await assign(UNKNOWN, south.id)).statusCode).toBe(404);
    expect(await groupOfStore(storeA)).toBeNull();
  });
});

describe("who may", () => {
  it("lets a store admin list the groups of their own stores, seeing only their stores, and write nothing", async () => {
    const south = await made("Syd");
    const north = await made("Norr");
    await assign(storeA, south.id);
    await assign(storeB, south.id);
    expect((await listed(ownAdmin)).map((g) => [g.name, g.stores.map((s) => s.name)])).toEqual([["Syd", ["Butik A"]]]);
    expect((await ownAdmin.get(`/api/v1/price-groups/${south.id}/prices`)).statusCode).toBe(200);
    for (const res of [
      await ownAdmin.get(`/api/v1/price-groups/${north.id}/prices`),
      await ownAdmin.post("/api/v1/price-groups", { name: "Egen" }),
      await ownAdmin.put(`/api/v1/price-groups/${south.id}`, { name: "Min" }),
      await ownAdmin.delete(`/api/v1/price-groups/${south.id}`),
      await assign(storeA, north.id, ownAdmin),
      await assign(storeA, null, ownAdmin),
    ]) {
      expect(res.statusCode, res.body).toBe(403);
    }
    expect((await listed()).map((g) => [g.name, g.stores.length])).toEqual([
      ["Norr", 0],
      ["Syd", 2],
    ]);
    expect((await as(ctx.app, null).get("/api/v1/price-groups")).statusCode).toBe(401);
  });
});
