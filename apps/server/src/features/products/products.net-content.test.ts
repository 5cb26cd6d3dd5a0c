import { productLookupSchema, productSchema } from "@glide/contracts";
import { parse } from "csv-parse/sync";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { admin, create, csvPost, ctx, ean, sku, useProductsApp } from "./products.fixtures.ts";

/** A product's net content and the jämförpris computed from it, through the API, lookups and CSV. */
useProductsApp();

const read = async (id: string) => productSchema.parse((await admin.get(`/api/v1/products/${id}`)).json());

describe("net content and jämförpris", () => {
  it("computes the jämförpris from price and net content, per kg, litre or piece, and answers it everywhere", async () => {
    const butter = await create({ name: "Smör", price: 24.95, net_content: 500, net_content_unit: "g" });
    expect(butter).toMatchObject({
      net_content: 500,
      net_content_unit: "g",
      comparison_price: { price: 49.9, unit: "kg" },
    });
    expect((await read(butter.id)).comparison_price).toEqual({ price: 49.9, unit: "kg" });
    const cola = await create({ price: 12.9, net_content: 330, net_content_unit: "ml", barcode: ean("731900000001") });
    expect(cola.comparison_price).toEqual({ price: 39.09, unit: "l" });
    expect((await create({ price: 21.9, net_content: 1.5, net_content_unit: "l" })).comparison_price).toEqual({
      price: 14.6,
      unit: "l",
    });
    expect((await create({ price: 89.9, net_content: 0.75, net_content_unit: "l" })).comparison_price).toEqual({
      price: 119.87,
      unit: "l",
    });
    expect((await create({ price: 35, net_content: 6, net_content_unit: "st" })).comparison_price).toEqual({
      price: 5.83,
      unit: "st",
    });
    expect((await create({ price: 42.9, net_content: 1.5, net_content_unit: "kg" })).comparison_price).toEqual({
      price: 28.6,
      unit: "kg",
    });
    // Without a net content there is none.
    expect(await create({})).toMatchObject({ net_content: null, net_content_unit: null, comparison_price: null });
    // The list and a scan's lookup answer the same.
    const listed = (await admin.get(`/api/v1/products/?search=${cola.sku}`)).json();
    expect(listed.map((p: { comparison_price: unknown }) => p.comparison_price)).toEqual([{ price: 39.09, unit: "l" }]);
    const looked = productLookupSchema.parse((await admin.get(`/api/v1/products/lookup/${cola.barcode}`)).json());
    expect(looked.product.comparison_price).toEqual({ price: 39.09, unit: "l" });
  });

  it("follows an edit of the price or the content, and is gone when both fields are cleared", async () => {
    const p = await create({ price: 24.95, net_content: 500, net_content_unit: "g" });
    const cheaper = await admin.put(`/api/v1/products/${p.id}`, { price: 19.95 });
    expect(cheaper.json().comparison_price).toEqual({ price: 39.9, unit: "kg" });
    // The content alone: the unit the product has stays.
    const bigger = await admin.put(`/api/v1/products/${p.id}`, { net_content: 1000 });
    expect(bigger.json()).toMatchObject({ net_content: 1000, net_content_unit: "g" });
    expect(bigger.json().comparison_price).toEqual({ price: 19.95, unit: "kg" });
    const kilo = await admin.put(`/api/v1/products/${p.id}`, { net_content: 1, net_content_unit: "kg" });
    expect(kilo.json().comparison_price).toEqual({ price: 19.95, unit: "kg" });
    const cleared = await admin.put(`/api/v1/products/${p.id}`, { net_content: null, net_content_unit: null });
    expect(cleared.json()).toMatchObject({ net_content: null, net_content_unit: null, comparison_price: null });
  });

  it("needs both fields or neither, naming the one missing, and writes nothing otherwise", async () => {
    const contentOnly = await admin.post("/api/v1/products/", { sku: sku(), name: "X", price: 1, net_content: 500 });
    expect([contentOnly.statusCode, contentOnly.json()]).toEqual([
      422,
      {
        detail: "net_content_unit is needed with net_content",
        code: "validation_error",
        errors: [{ path: "net_content_unit", message: "net_content_unit is needed with net_content" }],
      },
    ]);
    const code = sku();
    const unitOnly = await admin.post("/api/v1/products/", { sku: code, name: "X", price: 1, net_content_unit: "g" });
    expect([unitOnly.statusCode, unitOnly.json().errors]).toEqual([
      422,
      [{ path: "net_content", message: "net_content is needed with net_content_unit" }],
    ]);
    expect((await admin.get(`/api/v1/products/?search=${code}`)).json()).toEqual([]);
    // An edit counts what the product has: clearing one of the two is refused, and the product stays.
    const p = await create({ price: 10, net_content: 500, net_content_unit: "g" });
    const half = await admin.put(`/api/v1/products/${p.id}`, { name: "Ändrad", net_content_unit: null });
    expect([half.statusCode, half.json().errors[0].path]).toEqual([422, "net_content_unit"]);
    const plain = await create({});
    const unitAlone = await admin.put(`/api/v1/products/${plain.id}`, { net_content_unit: "l" });
    expect([unitAlone.statusCode, unitAlone.json().errors[0].path]).toEqual([422, "net_content"]);
    expect(await read(p.id)).toMatchObject({ name: p.name, net_content: 500, net_content_unit: "g" });
    expect((await read(plain.id)).net_content_unit).toBeNull();
  });

  it("takes 0.001 to 1,000,000 with three decimals, and refuses 0, negative, a fourth decimal and an unknown unit", async () => {
    expect((await create({ net_content: 0.001, net_content_unit: "kg" })).net_content).toBe(0.001);
    expect((await create({ net_content: 1_000_000, net_content_unit: "g" })).net_content).toBe(1_000_000);
    const refused = async (body: Record<string, unknown>) => {
      const res = await admin.post("/api/v1/products/", { sku: sku(), name: "X", price: 1, ...body });
      return [res.statusCode, res.json().detail];
    };
    expect(await refused({ net_content: 0, net_content_unit: "g" })).toEqual([
      422,
      "net_content: Net content must be more than 0",
    ]);
    expect(await refused({ net_content: -5, net_content_unit: "g" })).toEqual([
      422,
      "net_content: Net content must be more than 0",
    ]);
    expect(await refused({ net_content: 1.0005, net_content_unit: "kg" })).toEqual([
      422,
      "net_content: Net content allows at most 3 decimals",
    ]);
    expect(await refused({ net_content: 1_000_000.5, net_content_unit: "g" })).toEqual([
      422,
      "net_content: Net content must be at most 1,000,000",
    ]);
    expect(await refused({ net_content: 33, net_content_unit: "cl" })).toEqual([
      422,
      "net_content_unit: net_content_unit must be one of g, kg, ml, l, st",
    ]);
  });

  it("gives a weight label's lookup the price per kilogram, and a price label's none", async () => {
    const candy = await create({ name: "Lösgodis", price: 79.9, barcode: ean("230919100000") });
    expect(candy.comparison_price).toBeNull();
    const weighed = productLookupSchema.parse(
      (await admin.get(`/api/v1/products/lookup/${ean("230919100350")}`)).json(),
    );
    expect(weighed).toMatchObject({ line_price: 27.97, product: { comparison_price: { price: 79.9, unit: "kg" } } });
    await create({ price: 159, net_content: 1, net_content_unit: "kg", barcode: ean("200919200000") });
    const priced = productLookupSchema.parse(
      (await admin.get(`/api/v1/products/lookup/${ean("200919202495")}`)).json(),
    );
    expect(priced).toMatchObject({ line_price: 24.95, product: { comparison_price: null } });
  });

  it("goes out and comes back through CSV, and a row with one of the two is rejected", async () => {
    const p = await create({ sku: "JMF-RUND-1", price: 21.9, net_content: 1.5, net_content_unit: "l" });
    const exported = await admin.get("/api/v1/products/export?search=JMF-RUND-1");
    const [row] = parse(exported.body, { bom: true, columns: true }) as Record<string, string>[];
    expect([row!.net_content, row!.net_content_unit]).toEqual(["1.5", "l"]);
    await admin.put(`/api/v1/products/${p.id}`, { net_content: 2, net_content_unit: "kg" });
    expect((await csvPost(exported.body, "?dry_run=false")).json()).toMatchObject({ updated: 1, rejected: 0 });
    expect(await read(p.id)).toMatchObject({ net_content: 1.5, comparison_price: { price: 14.6, unit: "l" } });

    const csv = [
      "sku;name;price;net_content;net_content_unit",
      "JMF-CSV-1;Vin;89,90;0,75;l",
      "JMF-CSV-2;Utan enhet;10;500;",
      "JMF-CSV-3;Utan mängd;10;;g",
      "JMF-CSV-4;Fel enhet;10;33;cl",
      "JMF-RUND-1;Bara mängd;21,90;2;",
      "JMF-CSV-5;Ingen;10;;",
    ].join("\n");
    const report = (await csvPost(csv)).json();
    expect(report.rows.map((r: { action: string; errors: string[] }) => [r.action, r.errors])).toEqual([
      ["create", []],
      ["reject", ["net_content_unit: net_content_unit is needed with net_content"]],
      ["reject", ["net_content: net_content is needed with net_content_unit"]],
      ["reject", ["net_content_unit: net_content_unit must be one of g, kg, ml, l, st"]],
      // Its empty unit cell clears the unit the product has.
      ["reject", ["net_content_unit: net_content_unit is needed with net_content"]],
      ["create", []],
    ]);
    const applied = await csvPost(csv, "?dry_run=false&skip_rejected=true");
    expect(applied.json()).toMatchObject({ created: 2, rejected: 4 });
    const wine = (await admin.get("/api/v1/products/?search=JMF-CSV-1")).json()[0];
    expect(wine).toMatchObject({ net_content: 0.75, net_content_unit: "l", comparison_price: { price: 119.87 } });
  });

  it("is kept by the database only as both fields, a content above 0 and a known unit", async () => {
    const insert = (milli: number | null, unit: string | null) =>
      ctx.app.db.execute(
        sql`insert into products (sku, name, price_ore, net_content_milli, net_content_unit)
            values (${sku()}, 'Direkt', 100, ${milli}, ${unit})`,
      );
    await expect(insert(500_000, "g")).resolves.toBeDefined();
    await expect(insert(null, null)).resolves.toBeDefined();
    for (const [milli, unit] of [
      [500_000, null],
      [null, "g"],
      [0, "g"],
      [-1, "st"],
      [330_000, "cl"],
    ] as const)
      await expect(insert(milli, unit), `${milli} ${unit}`).rejects.toThrow();
  });
});
