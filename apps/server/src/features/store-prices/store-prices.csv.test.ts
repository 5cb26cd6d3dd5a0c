import { type StorePriceImportReport, storePriceImportReportSchema } from "@glide/contracts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { queryRows, sql } from "../../db/client.ts";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";
import { ADMIN_COOKIE } from "../admin-auth/admin-auth.hooks.ts";

/**
 * A store's prices as CSV: the export, and the import that sets and removes
 * them all or nothing, with a report per row.
 */
let ctx: TestContext;
let platformCookie: string;
let platform: ReturnType<typeof as>;
let ownCookie: string;
let otherCookie: string;
let storeA: string;
let milk: string;
let bread: string;

const prices = (store: string) => `/api/v1/stores/${store}/prices`;

const importCsv = (csv: string, dryRun: boolean, cookie = platformCookie, store = storeA) =>
  ctx.app.inject({
    method: "POST",
    url: `${prices(store)}/import?dry_run=${dryRun}`,
    payload: csv,
    headers: { "content-type": "text/csv", cookie: `${ADMIN_COOKIE}=${cookie}` },
  });

async function reported(csv: string, dryRun: boolean, cookie = platformCookie): Promise<StorePriceImportReport> {
  const res = await importCsv(csv, dryRun, cookie);
  expect(res.statusCode, res.body).toBe(200);
  return storePriceImportReportSchema.parse(res.json());
}

/** Store A's overrides by SKU, in öre. */
const table = async () =>
  Object.fromEntries(
    (
      await queryRows<{ sku: string; price_ore: number }>(
        ctx.app.db,
        sql`select p.sku, s.price_ore from store_prices s join products p on p.id = s.product_id
            where s.store_id = ${storeA} order by p.sku`,
      )
    ).map((r) => [r.sku, r.price_ore]),
  );

const importEntries = () =>
  queryRows<{ summary: string; after: unknown; store_id: string }>(
    ctx.app.db,
    sql`select summary, after, store_id from audit_log where action = 'store_price.import' order by id`,
  );

beforeAll(async () => {
  ctx = await createTestContext();
  platformCookie = (await signIn(ctx.app)).cookie;
  platform = as(ctx.app, platformCookie);
  storeA = (await platform.post("/api/v1/stores/", { name: "Butik A" })).json().id;
  const storeB = (await platform.post("/api/v1/stores/", { name: "Butik B" })).json().id;
  ownCookie = (await signIn(ctx.app, "store_admin", [storeA])).cookie;
  otherCookie = (await signIn(ctx.app, "store_admin", [storeB])).cookie;
  milk = (await platform.post("/api/v1/products/", { sku: "CSV-MILK", name: "Mjölk", price: 12.9 })).json().id;
  bread = (await platform.post("/api/v1/products/", { sku: "CSV-BREAD", name: "=Bröd", price: 29 })).json().id;
  await platform.post("/api/v1/products/", { sku: "CSV-OST", name: "Ost", price: 119 });
});
afterAll(() => ctx?.close());
beforeEach(async () => {
  await ctx.app.db.execute(sql`delete from store_prices`);
});

describe("the export", () => {
  it("writes sku, name, catalogue_price, price of the overrides by name, formulas made harmless", async () => {
    await platform.put(`${prices(storeA)}/${milk}`, { price: 11.5 });
    await platform.put(`${prices(storeA)}/${bread}`, { price: 25 });
    const res = await platform.get(`${prices(storeA)}/export`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toBe('attachment; filename="store-prices.csv"');
    expect(res.body).toBe(
      "\uFEFFsku,name,catalogue_price,price\nCSV-BREAD,'=Bröd,29.00,25.00\nCSV-MILK,Mjölk,12.90,11.50\n",
    );
  });

  it("reads back through the import as nothing to change", async () => {
    await platform.put(`${prices(storeA)}/${milk}`, { price: 11.5 });
    const exported = (await platform.get(`${prices(storeA)}/export`)).body;
    expect(await reported(exported, true)).toMatchObject({ set: 0, removed: 0, unchanged: 1, rejected: 0 });
  });

  it("is refused to another store's admin (403) and answers 404 for an unknown store", async () => {
    const other = await as(ctx.app, otherCookie).get(`${prices(storeA)}/export`);
    expect(other.statusCode).toBe(403);
    expect((await as(ctx.app, ownCookie).get(`${prices(storeA)}/export`)).statusCode).toBe(200);
    expect((await platform.get(`${prices("00000000-0000-4000-8000-000000000000")}/export`)).statusCode).toBe(404);
  });
});

describe("the import", () => {
  it("reports each row on a dry run and writes nothing", async () => {
    await platform.put(`${prices(storeA)}/${bread}`, { price: 25 });
    const report = await reported("sku,price\nCSV-MILK,11.50\ncsv-bread,\nCSV-OST,119\n", true);
    expect(report).toEqual({
      dry_run: true,
      set: 2,
      removed: 1,
      unchanged: 0,
      rejected: 0,
      rows: [
        { line: 2, sku: "CSV-MILK", action: "set", errors: [] },
        { line: 3, sku: "csv-bread", action: "remove", errors: [] },
        { line: 4, sku: "CSV-OST", action: "set", errors: [] },
      ],
    });
    expect(await table()).toEqual({ "CSV-BREAD": 2500 });
  });

  it("applies every row, an empty price removing the store's, in one audit entry", async () => {
    await platform.put(`${prices(storeA)}/${bread}`, { price: 25 });
    const before = (await importEntries()).length;
    const report = await reported("sku;price\nCSV-MILK;11,5\nCSV-BREAD;\nCSV-OST;0\n", false);
    expect(report).toMatchObject({ dry_run: false, set: 2, removed: 1, unchanged: 0, rejected: 0 });
    expect(await table()).toEqual({ "CSV-MILK": 1150, "CSV-OST": 0 });
    const entries = (await importEntries()).slice(before);
    expect(entries).toEqual([
      {
        store_id: storeA,
        summary: 'Prices of store "Butik A" imported from CSV: 2 set, 1 removed, 0 unchanged',
        after: { store_id: storeA, set: 2, removed: 1, unchanged: 0, rows: 3 },
      },
    ]);
  });

  it("imports nothing while one row is bad (422 naming it), and reports each bad row on the dry run", async () => {
    await platform.put(`${prices(storeA)}/${bread}`, { price: 25 });
    const csv = [
      "sku,price",
      "CSV-MILK,11.50",
      "NO-SUCH,5",
      "CSV-OST,-1",
      "CSV-BREAD,1.005",
      "CSV-MILK,10",
      ",5",
      "CSV-BREAD,",
    ].join("\n");
    const before = (await importEntries()).length;
    const applied = await importCsv(csv, false);
    expect(applied.statusCode).toBe(422);
    expect(applied.json()).toMatchObject({
      code: "import_rejected",
      detail:
        "Nothing was imported: 6 rows are rejected (first: line 3: sku: No product has SKU NO-SUCH). Fix them and import again.",
    });
    expect(await table()).toEqual({ "CSV-BREAD": 2500 });
    expect(await importEntries()).toHaveLength(before);

    const report = await reported(csv, true);
    expect(report.rows.map((r) => [r.line, r.action, r.errors])).toEqual([
      [2, "set", []],
      [3, "reject", ["sku: No product has SKU NO-SUCH"]],
      [4, "reject", ["price: Price cannot be negative"]],
      [5, "reject", ["price: Price allows at most two decimals"]],
      [6, "reject", ["sku: CSV-MILK is also on line 2"]],
      [7, "reject", ["sku: Missing. Give the row the SKU of a product"]],
      [8, "reject", ["sku: CSV-BREAD is also on line 5"]],
    ]);
    expect(report).toMatchObject({ set: 1, rejected: 6 });
  });

  it("keeps what is already so, and a text price is a bad row", async () => {
    await platform.put(`${prices(storeA)}/${milk}`, { price: 11.5 });
    const report = await reported("sku,name,price\nCSV-MILK,whatever,11.50\nCSV-OST,Ost,\nCSV-BREAD,Bröd,tio\n", true);
    expect(report.rows.map((r) => [r.action, r.errors])).toEqual([
      ["keep", []],
      ["keep", []],
      ["reject", ["price: Price must be a number"]],
    ]);
  });

  it("refuses a file without sku or price columns, with unknown columns, or without rows (422)", async () => {
    for (const [csv, detail] of [
      ["sku\nCSV-MILK\n", "file: the header needs a price column"],
      ["price\n5\n", "file: the header needs a sku column"],
      ["sku,price,vat\nCSV-MILK,5,25\n", "file: unknown column vat"],
      ["sku,price\n", "file: no rows under the header"],
      ['sku,price\n"CSV-MILK,5\n', "file: not valid CSV"],
    ]) {
      const res = await importCsv(csv!, false);
      expect(res.statusCode, csv).toBe(422);
      expect(res.json().detail).toContain(detail);
    }
  });

  it("lets a store admin import into their own store only", async () => {
    expect((await importCsv("sku,price\nCSV-MILK,10\n", false, ownCookie)).statusCode).toBe(200);
    expect(await table()).toEqual({ "CSV-MILK": 1000 });
    const other = await importCsv("sku,price\nCSV-MILK,1\n", false, otherCookie);
    expect(other.statusCode).toBe(403);
    expect(await table()).toEqual({ "CSV-MILK": 1000 });
  });
});
