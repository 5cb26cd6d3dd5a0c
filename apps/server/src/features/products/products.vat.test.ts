import { type ImportReport, type Product, productSchema } from "@glide/contracts";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { admin, create, csvPost, ean, percentToday, sku, useProductsApp } from "./products.fixtures.ts";

/**
 * A product's VAT category through the API and the CSV: the category as
 * sent, a percentage from an older client mapped to one, the two checked
 * against each other, and the answer's rate of today beside the category.
 */
useProductsApp();

const post = (body: Record<string, unknown>) =>
  admin.post("/api/v1/products/", { sku: sku(), name: "Vara", price: 10, ...body });
const get = async (id: string) => productSchema.parse((await admin.get(`/api/v1/products/${id}`)).json());
const setDefault = async (category: string) => {
  const res = await admin.put("/api/v1/settings/product/default_vat_category", { value: category });
  expect(res.statusCode, res.body).toBe(200);
};
const NOT_SWEDISH = (rate: number) =>
  `vat_rate ${rate} is not a Swedish VAT rate (25, 12, 6 or 0); send vat_category instead`;
/** Food's rate today (6 % from 2026-04-01 to 2027-12-31, 12 % before and after), and its other one. */
const FOOD = percentToday("food");
const OTHER_FOOD = FOOD === 6 ? 12 : 6;
const NOT_FOOD_TODAY = (rate: number) => `vat_rate ${rate} does not match vat_category food (${FOOD} % today)`;

describe("a product's VAT category", () => {
  it("is kept as sent, and the answer gives its rate of today beside it", async () => {
    const folkol = await create({ name: "Folköl 3,5 %", vat_category: "food", barcode: ean("731700000001") });
    // Food is 6 % from 2026-04-01 to 2027-12-31.
    expect(folkol).toMatchObject({ vat_category: "food", vat_rate: FOOD });
    expect(await get(folkol.id)).toMatchObject({ vat_category: "food", vat_rate: FOOD });
    const looked = (await admin.get(`/api/v1/products/lookup/${ean("731700000001")}`)).json();
    expect(looked.product).toMatchObject({ vat_category: "food", vat_rate: FOOD });
    const listed: Product[] = (await admin.get(`/api/v1/products/?search=${folkol.sku}`)).json();
    expect(listed.map((p) => [p.vat_category, p.vat_rate])).toEqual([["food", FOOD]]);
    expect(await create({ vat_category: "alcoholic_drink" })).toMatchObject({ vat_rate: 25 });
    expect(await create({ vat_category: "books_newspapers" })).toMatchObject({ vat_rate: 6 });
    expect(await create({ vat_category: "exempt" })).toMatchObject({ vat_rate: 0 });
  });

  it("maps a percentage from an older client: 25 standard, 12 and 6 food, 0 exempt", async () => {
    expect(await create({ vat_rate: 25 })).toMatchObject({ vat_category: "standard", vat_rate: 25 });
    expect(await create({ vat_rate: 12 })).toMatchObject({ vat_category: "food", vat_rate: FOOD });
    expect(await create({ vat_rate: 6 })).toMatchObject({ vat_category: "food" });
    expect(await create({ vat_rate: 0 })).toMatchObject({ vat_category: "exempt", vat_rate: 0 });
  });

  it("refuses any other percentage, naming the fix, and makes nothing", async () => {
    for (const rate of [10, 24.99, 100]) {
      const res = await post({ sku: `VAT-NO-${rate}`, vat_rate: rate });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toMatchObject({ detail: NOT_SWEDISH(rate), errors: [{ path: "vat_rate" }] });
    }
    expect((await admin.get("/api/v1/products/?search=VAT-NO-")).json()).toEqual([]);
  });

  it("takes both only when the rate is the category's rate today, naming both when it is not", async () => {
    const wrong = await post({ vat_category: "food", vat_rate: 25 });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().detail).toBe(NOT_FOOD_TODAY(25));
    // Food's rate of another time is not today's.
    expect((await post({ vat_category: "food", vat_rate: OTHER_FOOD })).json().detail).toBe(NOT_FOOD_TODAY(OTHER_FOOD));
    expect(await create({ vat_category: "food", vat_rate: FOOD })).toMatchObject({ vat_category: "food" });
    expect(await create({ vat_category: "alcoholic_drink", vat_rate: 25 })).toMatchObject({
      vat_category: "alcoholic_drink",
    });
  });

  it("is the default category's (product/default_vat_category) when the request names none", async () => {
    expect(await create({})).toMatchObject({ vat_category: "standard", vat_rate: 25 });
    await setDefault("books_newspapers");
    try {
      expect(await create({})).toMatchObject({ vat_category: "books_newspapers", vat_rate: 6 });
      expect(await create({ vat_rate: 25 })).toMatchObject({ vat_category: "standard" });
    } finally {
      await setDefault("standard");
    }
  });

  it("changes on an edit only as asked: a percentage that is its rate today keeps it", async () => {
    const beer = await create({ name: "Starköl", vat_category: "alcoholic_drink" });
    const put = (body: Record<string, unknown>) => admin.put(`/api/v1/products/${beer.id}`, body);
    expect((await put({ name: "Starköl 5,2 %" })).json().vat_category).toBe("alcoholic_drink");
    // An older client sends back the rate it was shown.
    expect((await put({ vat_rate: 25 })).json().vat_category).toBe("alcoholic_drink");
    const bad = await put({ vat_rate: 10 });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail).toBe(NOT_SWEDISH(10));
    expect((await put({ vat_category: "food", vat_rate: 25 })).statusCode).toBe(422);
    expect((await get(beer.id)).vat_category).toBe("alcoholic_drink");
    expect((await put({ vat_rate: 12 })).json()).toMatchObject({ vat_category: "food", vat_rate: FOOD });
    expect((await put({ vat_category: "standard" })).json()).toMatchObject({ vat_category: "standard", vat_rate: 25 });
  });
});

describe("the VAT category in the CSV", () => {
  it("is exported beside the rate of today", async () => {
    const p = await create({ sku: "VAT-EXPORT-1", vat_category: "food" });
    const exported = await admin.get("/api/v1/products/export?search=VAT-EXPORT-1");
    const rows = parse(exported.body, { bom: true, columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ sku: p.sku, vat_category: "food", vat_rate: String(FOOD) });
  });

  it("is imported as named, else from the rate, else the default; a wrong one rejects its row", async () => {
    await create({ sku: "CSV-VAT-OL", vat_category: "alcoholic_drink" });
    const csv = [
      "sku,name,price,vat_category,vat_rate",
      "CSV-VAT-1,Folköl,17.9,food,",
      "CSV-VAT-2,Bröd,30,,12",
      "CSV-VAT-3,Tvål,25,,",
      "CSV-VAT-4,Lyx,99,luxury,",
      "CSV-VAT-5,Tio,10,,10",
      "CSV-VAT-6,Fel,10,food,25",
      "CSV-VAT-7,Tidning,40,books_newspapers,6",
      "CSV-VAT-OL,Starköl,25,,25",
    ].join("\n");
    const dry: ImportReport = (await csvPost(csv)).json();
    expect(dry.rows.map((r) => [r.sku, r.action, r.errors])).toEqual([
      ["CSV-VAT-1", "create", []],
      ["CSV-VAT-2", "create", []],
      ["CSV-VAT-3", "create", []],
      [
        "CSV-VAT-4",
        "reject",
        ["vat_category: A VAT category is one of standard, food, alcoholic_drink, books_newspapers, exempt"],
      ],
      ["CSV-VAT-5", "reject", [`vat_rate: ${NOT_SWEDISH(10)}`]],
      ["CSV-VAT-6", "reject", [`vat_rate: ${NOT_FOOD_TODAY(25)}`]],
      ["CSV-VAT-7", "create", []],
      ["CSV-VAT-OL", "update", []],
    ]);

    await setDefault("exempt");
    try {
      const applied = await csvPost(csv, "?dry_run=false&skip_rejected=true");
      expect(applied.json()).toMatchObject({ created: 4, updated: 1, rejected: 3 });
    } finally {
      await setDefault("standard");
    }
    const listed: Product[] = (await admin.get("/api/v1/products/?search=CSV-VAT-&limit=100&sort=sku")).json();
    expect(Object.fromEntries(listed.map((p) => [p.sku, [p.vat_category, p.vat_rate]]))).toEqual({
      "CSV-VAT-1": ["food", FOOD],
      "CSV-VAT-2": ["food", FOOD],
      "CSV-VAT-3": ["exempt", 0],
      "CSV-VAT-7": ["books_newspapers", 6],
      // 25 % is its own rate today: it stays a strong beer.
      "CSV-VAT-OL": ["alcoholic_drink", 25],
    });
  });
});
