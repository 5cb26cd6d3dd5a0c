import { type StorePriceImportReport, storePriceImportReportSchema, storePriceListSchema } from "@glide/contracts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { queryRows, sql } from "../../db/client.ts";
import { auditRowsOf } from "../../test/audit-rows.ts";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";
import { ADMIN_COOKIE } from "../admin-auth/admin-auth.hooks.ts";

/**
 * A price group's prices through the API: set, listed, removed, and as CSV
 * (the code they share with a store's own prices is tested at length in
 * store-prices/); who may, and bad input.
 */
let ctx: TestContext;
let platformCookie: string;
let platform: ReturnType<typeof as>;
let ownAdmin: ReturnType<typeof as>;
let group: string;
let milk: string;
let bread: string;
const UNKNOWN = "00000000-0000-4000-8000-000000000000";
const prices = (g = group) => `/api/v1/price-groups/${g}/prices`;

/** The group's prices by SKU, in öre, as the table holds them. */
const table = async () =>
  Object.fromEntries(
    (
      await queryRows<{ sku: string; price_ore: number }>(
        ctx.app.db,
        sql`select p.sku, g.price_ore from price_group_prices g join products p on p.id = g.product_id
            where g.group_id = ${group} order by p.sku`,
      )
    ).map((r) => [r.sku, r.price_ore]),
  );

const importCsv = (csv: string, dryRun: boolean) =>
  ctx.app.inject({
    method: "POST",
    url: `${prices()}/import?dry_run=${dryRun}`,
    payload: csv,
    headers: { "content-type": "text/csv", cookie: `${ADMIN_COOKIE}=${platformCookie}` },
  });

async function reported(csv: string, dryRun: boolean): Promise<StorePriceImportReport> {
  const res = await importCsv(csv, dryRun);
  expect(res.statusCode, res.body).toBe(200);
  return storePriceImportReportSchema.parse(res.json());
}

beforeAll(async () => {
  ctx = await createTestContext();
  platformCookie = (await signIn(ctx.app)).cookie;
  platform = as(ctx.app, platformCookie);
  const store = (await platform.post("/api/v1/stores/", { name: "Butik A" })).json().id;
  ownAdmin = as(ctx.app, (await signIn(ctx.app, "store_admin", [store])).cookie);
  group = (await platform.post("/api/v1/price-groups", { name: "Syd" })).json().id;
  await platform.put(`/api/v1/stores/${store}/price-group`, { price_group_id: group });
  milk = (await platform.post("/api/v1/products/", { sku: "PG-MILK", name: "Mjölk", price: 12.9 })).json().id;
  bread = (await platform.post("/api/v1/products/", { sku: "PG-BREAD", name: "Bröd", price: 29 })).json().id;
});
afterAll(() => ctx?.close());
beforeEach(async () => {
  await ctx.app.db.execute(sql`delete from price_group_prices`);
});

describe("a group's price", () => {
  it("is set with the catalogue's beside it, listed and searched by name, removed, each in the audit log", async () => {
    const set = await platform.put(`${prices()}/${milk}`, { price: 11.5 });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ product_id: milk, sku: "PG-MILK", catalogue_price: 12.9, price: 11.5 });
    await platform.put(`${prices()}/${bread}`, { price: 25 });
    const list = await platform.get(prices());
    expect(storePriceListSchema.parse(list.json()).map((p) => [p.name, p.price])).toEqual([
      ["Bröd", 25],
      ["Mjölk", 11.5],
    ]);
    expect(list.headers["x-total-count"]).toBe("2");
    expect((await platform.get(`${prices()}?search=pg-milk`)).json().map((p: { sku: string }) => p.sku)).toEqual([
      "PG-MILK",
    ]);
    expect((await platform.delete(`${prices()}/${milk}`)).statusCode).toBe(204);
    const again = await platform.delete(`${prices()}/${milk}`);
    expect(again.statusCode).toBe(404);
    expect(again.json().detail).toBe('Price group "Syd" has no price for Mjölk');
    expect((await auditRowsOf(ctx.app.db, `${group}/${milk}`)).map((a) => [a.action, a.summary])).toEqual([
      [
        "price_group.price_update",
        `Price of product "Mjölk" (SKU PG-MILK) in price group "Syd" changed from the catalogue's 12.90 kr to 11.50 kr`,
      ],
      [
        "price_group.price_delete",
        `Price of product "Mjölk" (SKU PG-MILK) in price group "Syd" removed (was 11.50 kr)`,
      ],
    ]);
  });

  it("refuses a bad price (422), an unknown product or group (404), writing nothing", async () => {
    for (const [body, detail] of [
      [{ price: -1 }, "Price cannot be negative"],
      [{ price: 1.005 }, "Price allows at most two decimals"],
      [{ price: "12" }, "Price must be a number"],
    ] as const) {
      const res = await platform.put(`${prices()}/${milk}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().detail).toContain(detail);
    }
    const noProduct = await platform.put(`${prices()}/${UNKNOWN}`, { price: 5 });
    expect(noProduct.statusCode).toBe(404);
    expect(noProduct.json().detail).toBe(`Product ${UNKNOWN} not found`);
    const noGroup = await platform.put(`${prices(UNKNOWN)}/${milk}`, { price: 5 });
    expect(noGroup.statusCode).toBe(404);
    expect(noGroup.json().detail).toBe(`Price group ${UNKNOWN} not found`);
    expect(await table()).toEqual({});
  });

  it("is read by the admin of a store in the group, who changes nothing (403)", async () => {
    await platform.put(`${prices()}/${milk}`, { price: 11.5 });
    expect((await ownAdmin.get(prices())).json().map((p: { price: number }) => p.price)).toEqual([11.5]);
    expect((await ownAdmin.get(`${prices()}/export`)).statusCode).toBe(200);
    for (const res of [
      await ownAdmin.put(`${prices()}/${milk}`, { price: 1 }),
      await ownAdmin.delete(`${prices()}/${milk}`),
      await ownAdmin.get(prices(UNKNOWN)),
    ]) {
      expect(res.statusCode).toBe(403);
    }
    expect(await table()).toEqual({ "PG-MILK": 1150 });
  });
});

describe("the group's prices as CSV", () => {
  it("export and import round trip: the export reads back as nothing to change, an edited one applies", async () => {
    await platform.put(`${prices()}/${milk}`, { price: 11.5 });
    const exported = await platform.get(`${prices()}/export`);
    expect(exported.headers["content-disposition"]).toBe('attachment; filename="price-group-prices.csv"');
    expect(exported.body).toBe("\uFEFFsku,name,catalogue_price,price\nPG-MILK,Mjölk,12.90,11.50\n");
    expect(await reported(exported.body, true)).toMatchObject({ set: 0, removed: 0, unchanged: 1, rejected: 0 });

    const edited = `${exported.body.replace("11.50", "")}PG-BREAD,Bröd,29.00,24.90\n`;
    expect(await reported(edited, false)).toMatchObject({ set: 1, removed: 1, unchanged: 0, rejected: 0 });
    expect(await table()).toEqual({ "PG-BREAD": 2490 });
    const [entry] = (await auditRowsOf(ctx.app.db, group)).filter((a) => a.action === "price_group.import");
    expect(entry?.summary).toBe('Prices of price group "Syd" imported from CSV: 1 set, 1 removed, 0 unchanged');
  });

  it("imports nothing while a row is bad (422 naming it)", async () => {
    const res = await importCsv("sku,price\nPG-MILK,10\nNO-SUCH,5\n", false);
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toContain("line 3: sku: No product has SKU NO-SUCH");
    expect(await table()).toEqual({});
  });
});
