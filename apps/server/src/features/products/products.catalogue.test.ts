import { type Product, productSchema } from "@glide/contracts";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { admin, create, csvPost, ean, sku, useProductsApp } from "./products.fixtures.ts";

/** Adding products and searching them, and SKUs with letters that fold differently. */
useProductsApp();

describe("adding products", () => {
  it("keeps every field and applies the defaults", async () => {
    const p = await create({
      name: "Mellanmjölk 1,5 %",
      description: "Färsk",
      category: "Mejeri",
      brand: "Arla",
      price: 17.9,
      barcode: ean("731000000001"),
      weight: 1030.5,
      length: 7.5,
      width: 7.5,
      height: 19.9,
      image_url: "https://images.example/mjolk.jpg",
    });
    expect(p).toMatchObject({
      price: 17.9,
      vat_category: "standard",
      vat_rate: 25,
      is_active: true,
      barcode: ean("731000000001"),
      barcodes: [ean("731000000001")],
      weight: 1030.5,
      length: 7.5,
      age_limit: null,
    });
  });

  it.each([
    [{ sku: undefined }, "sku"],
    [{ name: "" }, "name: Name is required"],
    [{ price: undefined }, "price: Price is required"],
    [{ price: -1 }, "price: Price cannot be negative"],
    [{ price: 1.234 }, "price"],
    [{ vat_rate: 101 }, "vat_rate"],
    [{ vat_rate: -6 }, "vat_rate"],
    [{ vat_category: "luxury" }, "vat_category: A VAT category is one of standard, food"],
    [{ barcode: "4006381333932" }, "barcode: not a valid EAN-13"],
    [{ barcodes: ["12345"] }, "barcodes.0"],
    [{ age_limit: 16 }, "age_limit"],
    [{ weight: -5 }, "weight"],
    [{ image_url: "javascript:alert(1)" }, "image_url"],
    [{ sku: "has space" }, "sku"],
  ])("rejects %j with 422 naming %s", async (override, field) => {
    const res = await admin.post("/api/v1/products/", { sku: sku(), name: "x", price: 1, ...override });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toContain(field);
  });

  it("refuses a SKU in use, whatever its case, naming the product by its name and SKU", async () => {
    const p = await create({ sku: "DUP-SKU-1", name: "Första" });
    const res = await admin.post("/api/v1/products/", { sku: "dup-sku-1", name: "Andra", price: 1 });
    expect(res.statusCode).toBe(409);
    const detail = 'SKU dup-sku-1 is already used by "Första" (SKU DUP-SKU-1); choose another SKU';
    expect(res.json()).toEqual({ detail, code: "duplicate_sku", errors: [{ path: "sku", message: detail }] });
    expect(res.body).not.toContain(p.id);
  });

  it("names the product that won when two requests claim a SKU or barcode at once", async () => {
    const code = ean("731000000099");
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        admin.post("/api/v1/products/", { sku: "RACE-1", name: `Racer ${i}`, price: 1, barcode: code }),
      ),
    );
    const won = results.filter((r) => r.statusCode === 201);
    expect(won).toHaveLength(1);
    const winner = won[0]!.json().name as string;
    for (const lost of results.filter((r) => r.statusCode !== 201)) {
      expect(lost.statusCode).toBe(409);
      expect(lost.json().code).toMatch(/^duplicate_(sku|barcode)$/);
      expect(lost.json().detail).toContain(`"${winner}" (SKU RACE-1)`);
    }
  });

  it("refuses a barcode in use, also in its UPC-A form, naming the product", async () => {
    await create({ name: "Amerikansk", barcode: "0036000291452" });
    const res = await admin.post("/api/v1/products/", { sku: sku(), name: "Kopia", price: 1, barcode: "036000291452" });
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toMatch(
      /^Barcode 0036000291452 already belongs to "Amerikansk" \(SKU T-\d+-\w+\); remove it there first$/,
    );
    expect(res.json().code).toBe("duplicate_barcode");
    expect(res.json().errors).toEqual([{ path: "barcodes", message: res.json().detail }]);
  });
});

describe("searching", () => {
  let kaffe: Product;
  beforeAll(async () => {
    kaffe = await create({
      sku: "ZOEGAS-450",
      name: "Zoégas Skånerost 450 g",
      brand: "Zoégas",
      category: "Kaffe",
      price: 64.95,
      barcodes: [ean("731120000045"), "04252614"],
    });
    await create({ name: "Gevalia Mellanrost", brand: "Gevalia", category: "Kaffe", price: 59.9 });
    await create({ name: "Billig kaffe", category: "Kaffe", price: 39.5 });
  });

  const search = async (q: string) =>
    z.array(productSchema).parse((await admin.get(`/api/v1/products/?search=${encodeURIComponent(q)}`)).json());

  it.each([["skånerost"], ["zoegas-4"], ["zoégas"], [ean("731120000045")], ["04252614"], ["042100005264"]])(
    "finds the product by %s",
    async (q) => {
      expect((await search(q)).map((p) => p.id)).toContain(kaffe.id);
    },
  );

  it("does not match barcodes by fragment", async () => {
    expect(await search("73112000")).toEqual([]);
  });

  it("matches % and _ literally, not as wildcards", async () => {
    const percent = await create({ name: "Juice 100% apelsin" });
    const thousand = await create({ name: "Juice 1000 ml" });
    const underscore = await create({ name: "Etikett snake_case" });
    const dash = await create({ name: "Etikett snake-case" });
    const ids = async (q: string) => (await search(q)).map((p) => p.id);
    expect(await ids("100%")).toContain(percent.id);
    expect(await ids("100%")).not.toContain(thousand.id);
    expect(await ids("e_c")).toEqual([underscore.id]);
    expect(await ids("e_c")).not.toContain(dash.id);
    const anyUnderscore = await search("_");
    expect(anyUnderscore.map((p) => p.id)).toContain(underscore.id);
    for (const p of anyUnderscore) expect(`${p.name} ${p.sku} ${p.brand ?? ""}`).toContain("_");
  });

  it("filters by category, sorts, pages and reports the total", async () => {
    const res = await admin.get("/api/v1/products/?category=Kaffe&sort=price&order=desc&limit=2&offset=0");
    expect(res.headers["x-total-count"]).toBe("3");
    expect(res.json().map((p: Product) => p.price)).toEqual([64.95, 59.9]);
    const next = await admin.get("/api/v1/products/?category=Kaffe&sort=price&order=desc&limit=2&offset=2");
    expect(next.json().map((p: Product) => p.price)).toEqual([39.5]);
    const byName = await admin.get("/api/v1/products/?category=Kaffe&sort=name");
    expect(byName.json().map((p: Product) => p.name)).toEqual([
      "Billig kaffe",
      "Gevalia Mellanrost",
      "Zoégas Skånerost 450 g",
    ]);
  });

  it("pages through a search in either order, with the total on every page and past the end", async () => {
    const page = (q: string) => admin.get(`/api/v1/products/?search=rost&category=Kaffe&${q}`);
    const first = await page("sort=price&order=asc&limit=1&offset=0");
    expect(first.headers["x-total-count"]).toBe("2");
    expect(first.json().map((p: Product) => p.name)).toEqual(["Gevalia Mellanrost"]);
    const second = await page("sort=price&order=asc&limit=1&offset=1");
    expect(second.headers["x-total-count"]).toBe("2");
    expect(second.json().map((p: Product) => p.name)).toEqual(["Zoégas Skånerost 450 g"]);
    const byNameDesc = await page("sort=name&order=desc");
    expect(byNameDesc.json().map((p: Product) => p.name)).toEqual(["Zoégas Skånerost 450 g", "Gevalia Mellanrost"]);
    expect(byNameDesc.json()[0].barcodes).toEqual(kaffe.barcodes);
    expect(kaffe.barcodes).toHaveLength(2);
    const past = await page("sort=name&limit=5&offset=10");
    expect(past.json()).toEqual([]);
    expect(past.headers["x-total-count"]).toBe("2");
    const none = await admin.get("/api/v1/products/?search=finns-inte-alls");
    expect(none.json()).toEqual([]);
    expect(none.headers["x-total-count"]).toBe("0");
  });

  it("lists the distinct categories", async () => {
    const res = await admin.get("/api/v1/products/categories");
    expect(res.json()).toEqual(expect.arrayContaining(["Kaffe", "Mejeri"]));
    expect(new Set(res.json()).size).toBe(res.json().length);
  });

  it("rejects a bad sort field and a huge page", async () => {
    expect((await admin.get("/api/v1/products/?sort=colour")).statusCode).toBe(400);
    expect((await admin.get("/api/v1/products/?limit=100000")).statusCode).toBe(400);
  });
});

describe("SKUs with letters that fold differently", () => {
  it("names the product that has a SKU with Σ or İ, as it does for any SKU, also when a file updates it", async () => {
    for (const taken of ["AΣ", "İ-1"]) {
      const first = await create({ sku: taken, name: `Vara ${taken}` });
      const again = await admin.post("/api/v1/products/", { sku: taken, name: "Kopia", price: 5 });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ code: "duplicate_sku" });
      expect(again.json().detail).toContain(`"Vara ${taken}" (SKU ${taken})`);
      const dry = await csvPost(`sku,name,price\n${taken},Ny titel,7\n`);
      expect(dry.json().rows).toEqual([expect.objectContaining({ action: "update" })]);
      const applied = await csvPost(`sku,name,price\n${taken},Ny titel,7\n`, "?dry_run=false");
      expect(applied.json()).toMatchObject({ created: 0, updated: 1, rejected: 0 });
      expect((await admin.get(`/api/v1/products/${first.id}`)).json().name).toBe("Ny titel");
    }
  });
});
