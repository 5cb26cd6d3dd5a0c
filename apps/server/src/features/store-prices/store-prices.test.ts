import { type StorePrice, storePriceListSchema, storePriceSchema } from "@glide/contracts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { queryRows, sql } from "../../db/client.ts";
import { auditRowsOf } from "../../test/audit-rows.ts";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";

/**
 * A store's own prices through the API: who reads and writes them, the
 * price's rules at their edges, and the audit log (CSV is in
 * store-prices.csv.test.ts).
 */
let ctx: TestContext;
let platform: ReturnType<typeof as>;
let ownAdmin: ReturnType<typeof as>;
let otherAdmin: ReturnType<typeof as>;
let platformEmail: string;
let storeA: string;
let storeB: string;
let milk: string;
let bread: string;
let cheese: string;

const UNKNOWN = "00000000-0000-4000-8000-000000000000";
const prices = (store: string) => `/api/v1/stores/${store}/prices`;
const price = (store: string, product: string) => `${prices(store)}/${product}`;

/** The overrides of store A as the table holds them, to see a refused write left it as it was. */
const rows = () =>
  queryRows<{ product_id: string; price_ore: number }>(
    ctx.app.db,
    sql`select product_id, price_ore from store_prices where store_id = ${storeA} order by product_id`,
  );

async function listed(query = "", caller = platform): Promise<{ items: StorePrice[]; total: number }> {
  const res = await caller.get(`${prices(storeA)}${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return { items: storePriceListSchema.parse(res.json()), total: Number(res.headers["x-total-count"]) };
}

async function made(sku: string, name: string, catalogue: number) {
  const res = await platform.post("/api/v1/products/", { sku, name, price: catalogue });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

beforeAll(async () => {
  ctx = await createTestContext();
  const session = await signIn(ctx.app);
  platformEmail = session.email;
  platform = as(ctx.app, session.cookie);
  storeA = (await platform.post("/api/v1/stores/", { name: "Butik A" })).json().id;
  storeB = (await platform.post("/api/v1/stores/", { name: "Butik B" })).json().id;
  ownAdmin = as(ctx.app, (await signIn(ctx.app, "store_admin", [storeA])).cookie);
  otherAdmin = as(ctx.app, (await signIn(ctx.app, "store_admin", [storeB])).cookie);
  milk = await made("SP-MILK", "Mjölk 1 l", 12.9);
  bread = await made("SP-BREAD", "Bröd", 29);
  cheese = await made("SP-OST", "Ost per kg", 119);
});
afterAll(() => ctx?.close());
beforeEach(async () => {
  await ctx.app.db.execute(sql`delete from store_prices`);
});

describe("setting a store's price", () => {
  it("answers the row with the catalogue's price beside it, in the audit log with old and new price", async () => {
    const res = await platform.put(price(storeA, milk), { price: 11.5 });
    expect(res.statusCode, res.body).toBe(200);
    const row = storePriceSchema.parse(res.json());
    expect(row).toMatchObject({
      product_id: milk,
      sku: "SP-MILK",
      name: "Mjölk 1 l",
      catalogue_price: 12.9,
      price: 11.5,
    });
    expect(await rows()).toEqual([{ product_id: milk, price_ore: 1150 }]);

    expect((await platform.put(price(storeA, milk), { price: 10.95 })).statusCode).toBe(200);
    const audit = await auditRowsOf(ctx.app.db, `${storeA}/${milk}`);
    expect(audit.map((a) => [a.action, a.entity_type, a.store_id, a.actor_email, a.summary])).toEqual([
      [
        "store_price.update",
        "store_price",
        storeA,
        platformEmail,
        'Price of product "Mjölk 1 l" (SKU SP-MILK) in store "Butik A" changed from the catalogue\'s 12.90 kr to 11.50 kr',
      ],
      [
        "store_price.update",
        "store_price",
        storeA,
        platformEmail,
        'Price of product "Mjölk 1 l" (SKU SP-MILK) in store "Butik A" changed from 11.50 kr to 10.95 kr',
      ],
    ]);
    expect(audit[1]).toMatchObject({
      before: { store_id: storeA, product_id: milk, price: 11.5 },
      after: { store_id: storeA, product_id: milk, price: 10.95 },
    });
  });

  it("is idempotent: the same price again changes neither the row's time nor the log", async () => {
    const logged = async () => (await auditRowsOf(ctx.app.db, `${storeA}/${bread}`)).length;
    const first = storePriceSchema.parse((await platform.put(price(storeA, bread), { price: 25 })).json());
    const entries = await logged();
    const again = await platform.put(price(storeA, bread), { price: 25 });
    expect(again.statusCode).toBe(200);
    expect(storePriceSchema.parse(again.json())).toEqual(first);
    expect(await logged()).toBe(entries);
    expect((await listed()).items).toEqual([first]);
  });

  it("takes 0 and two decimals; refuses a negative price, a third decimal, a price too large, text and extra fields with 422", async () => {
    expect((await platform.put(price(storeA, milk), { price: 0 })).json()).toMatchObject({ price: 0 });
    expect((await platform.put(price(storeA, milk), { price: 0.01 })).json()).toMatchObject({ price: 0.01 });
    expect((await platform.put(price(storeA, milk), { price: 10_000_000 })).statusCode).toBe(200);
    const before = await rows();
    for (const [body, detail] of [
      [{ price: -0.01 }, "Price cannot be negative"],
      [{ price: 1.005 }, "Price allows at most two decimals"],
      [{ price: 10_000_000.01 }, "Price must be at most 10,000,000 kr"],
      [{ price: "12" }, "Price must be a number"],
      [{}, "Price is required"],
      [{ price: 5, store_id: storeB }, ""],
    ] as const) {
      const res = await platform.put(price(storeA, milk), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().detail).toContain(detail);
    }
    expect(await rows()).toEqual(before);
  });

  it("answers 404 for an unknown product or store, 400 (as for every path) for ids that are not UUIDs", async () => {
    const noProduct = await platform.put(price(storeA, UNKNOWN), { price: 5 });
    expect(noProduct.statusCode).toBe(404);
    expect(noProduct.json().detail).toBe(`Product ${UNKNOWN} not found`);
    const noStore = await platform.put(price(UNKNOWN, milk), { price: 5 });
    expect(noStore.statusCode).toBe(404);
    expect(noStore.json().detail).toBe(`Store ${UNKNOWN} not found`);
    const badStore = await platform.put(price("butik-a", milk), { price: 5 });
    expect(badStore.statusCode).toBe(400);
    expect(badStore.json().detail).toContain("Store id must be a UUID");
    const badProduct = await platform.put(price(storeA, "mjolk"), { price: 5 });
    expect(badProduct.statusCode).toBe(400);
    expect(badProduct.json().detail).toContain("Product id must be a UUID");
    expect(await rows()).toEqual([]);
  });
});

describe("who may", () => {
  it("lets a store admin read and write their own store's prices", async () => {
    const res = await ownAdmin.put(price(storeA, cheese), { price: 99.9 });
    expect(res.statusCode, res.body).toBe(200);
    expect((await listed("", ownAdmin)).items.map((i) => i.price)).toEqual([99.9]);
    expect((await ownAdmin.delete(price(storeA, cheese))).statusCode).toBe(204);
  });

  it("refuses another store's admin with 403, and an unknown store to a store admin the same way, writing nothing", async () => {
    await platform.put(price(storeA, milk), { price: 11 });
    const before = await rows();
    for (const res of [
      await otherAdmin.get(prices(storeA)),
      await otherAdmin.put(price(storeA, milk), { price: 1 }),
      await otherAdmin.delete(price(storeA, milk)),
      await otherAdmin.get(`${prices(storeA)}/export`),
      await ownAdmin.get(prices(UNKNOWN)),
      await ownAdmin.put(price(UNKNOWN, milk), { price: 1 }),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().detail).toBe("You do not manage this store");
    }
    expect(await rows()).toEqual(before);
    const anonymous = as(ctx.app, null);
    expect((await anonymous.get(prices(storeA))).statusCode).toBe(401);
    expect((await anonymous.put(price(storeA, milk), { price: 1 })).statusCode).toBe(401);
  });
});

describe("the list", () => {
  beforeEach(async () => {
    await platform.put(price(storeA, milk), { price: 11 });
    await platform.put(price(storeA, bread), { price: 27.5 });
    await platform.put(price(storeA, cheese), { price: 109 });
    await platform.put(price(storeB, milk), { price: 13 });
  });

  it("holds only the store's overrides, by name", async () => {
    const { items, total } = await listed();
    expect(items.map((i) => [i.sku, i.name, i.catalogue_price, i.price])).toEqual([
      ["SP-BREAD", "Bröd", 29, 27.5],
      ["SP-MILK", "Mjölk 1 l", 12.9, 11],
      ["SP-OST", "Ost per kg", 119, 109],
    ]);
    expect(total).toBe(3);
  });

  it("searches name and SKU, case aside, with % taken literally", async () => {
    expect((await listed("?search=mjöl")).items.map((i) => i.sku)).toEqual(["SP-MILK"]);
    expect((await listed("?search=sp-ost")).items.map((i) => i.sku)).toEqual(["SP-OST"]);
    expect(await listed("?search=%25")).toEqual({ items: [], total: 0 });
  });

  it("pages with limit and offset, the total in X-Total-Count", async () => {
    const page = await listed("?limit=2&offset=1");
    expect(page.items.map((i) => i.sku)).toEqual(["SP-MILK", "SP-OST"]);
    expect(page.total).toBe(3);
    for (const query of ["?limit=0", "?limit=1001", "?offset=-1", "?limit=x"]) {
      expect((await platform.get(`${prices(storeA)}${query}`)).statusCode, query).toBe(400);
    }
  });

  it("answers 404 for an unknown store", async () => {
    expect((await platform.get(prices(UNKNOWN))).statusCode).toBe(404);
  });
});

describe("removing a store's price", () => {
  it("answers 204, then 404 while there is none, in the audit log", async () => {
    await platform.put(price(storeA, bread), { price: 25 });
    expect((await platform.delete(price(storeA, bread))).statusCode).toBe(204);
    expect(await rows()).toEqual([]);
    const again = await platform.delete(price(storeA, bread));
    expect(again.statusCode).toBe(404);
    expect(again.json().detail).toBe('Store "Butik A" has no price of its own for Bröd');
    const last = (await auditRowsOf(ctx.app.db, `${storeA}/${bread}`)).at(-1);
    expect(last).toMatchObject({
      action: "store_price.delete",
      store_id: storeA,
      summary: `Price of product "Bröd" (SKU SP-BREAD) in store "Butik A" removed (was 25.00 kr; the catalogue's 29.00 kr applies)`,
      before: { store_id: storeA, product_id: bread, price: 25 },
      after: null,
    });
    expect((await platform.delete(price(storeA, UNKNOWN))).statusCode).toBe(404);
    expect((await platform.delete(price(UNKNOWN, bread))).statusCode).toBe(404);
  });
});
