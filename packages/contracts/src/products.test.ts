import { describe, expect, it } from "vitest";
import {
  importReportSchema,
  PRODUCT_IMAGE_MAX_BYTES,
  productIdParams,
  productInputSchema,
  productListQuerySchema,
  productLookupSchema,
  productSchema,
  productUpdateSchema,
} from "./products.ts";

const valid = { sku: "A-1", name: "Lingonsylt", price: 10 };

/** The first message at `path`, as a form would show it beside the field. */
function messageAt(input: Record<string, unknown>, path: string): string | undefined {
  const result = productInputSchema.safeParse({ ...valid, ...input });
  return result.error?.issues.find((issue) => issue.path.join(".") === path)?.message;
}

const parsed = (input: Record<string, unknown>) => productInputSchema.parse({ ...valid, ...input });

describe("product input", () => {
  it("takes the least a product needs and trims its text", () => {
    expect(productInputSchema.parse({ sku: " A-1 ", name: " Sylt ", price: 0 })).toEqual({
      sku: "A-1",
      name: "Sylt",
      price: 0,
    });
  });

  it("says what is wrong with the SKU", () => {
    expect(messageAt({ sku: "" }, "sku")).toBe("SKU is required");
    expect(messageAt({ sku: 5 }, "sku")).toBe("SKU must be text");
    expect(messageAt({ sku: null }, "sku")).toBe("SKU is required");
    for (const sku of ["A 1", "A,1", "A;1", " A-1 x", "x\ty"]) {
      expect(messageAt({ sku }, "sku")).toBe("SKU may not contain spaces, commas or semicolons");
    }
  });

  it("says whether the price is missing, not a number, negative, too big or too precise", () => {
    expect(productInputSchema.safeParse({ sku: "A", name: "n" }).error?.issues[0]?.message).toBe("Price is required");
    expect(messageAt({ price: "10" }, "price")).toBe("Price must be a number");
    expect(messageAt({ price: -0.01 }, "price")).toBe("Price cannot be negative");
    expect(messageAt({ price: 10_000_000.01 }, "price")).toBe("Price must be at most 10,000,000 kr");
    expect(parsed({ price: 10_000_000 }).price).toBe(10_000_000);
    expect(messageAt({ price: 1.005 }, "price")).toBe("Price allows at most two decimals");
    // Two decimals pass even where floating point is inexact, and large prices too.
    expect(parsed({ price: 0.29 }).price).toBe(0.29);
    expect(parsed({ price: 9_999_999.99 }).price).toBe(9_999_999.99);
    // 1234567.89 × 100 is not a whole number in floating point: the tolerance grows with the price.
    expect(parsed({ price: 1_234_567.89 }).price).toBe(1_234_567.89);
  });

  it("turns empty optional text into null and refuses text over its limit", () => {
    const out = parsed({ description: "  ", category: " Sylt ", brand: "" });
    expect(out.description).toBeNull();
    expect(out.category).toBe("Sylt");
    expect(out.brand).toBeNull();
    expect(parsed({ category: `${"x".repeat(100)} ` }).category).toHaveLength(100);
    expect(productInputSchema.safeParse({ ...valid, category: "x".repeat(101) }).success).toBe(false);
    expect(productInputSchema.safeParse({ ...valid, brand: 7 }).success).toBe(false);
    expect(parsed({ description: "x".repeat(4000) }).description).toHaveLength(4000);
  });

  it("takes a VAT rate from 0 to 100 with two decimals", () => {
    expect(parsed({ vat_rate: 0 }).vat_rate).toBe(0);
    expect(parsed({ vat_rate: 100 }).vat_rate).toBe(100);
    expect(parsed({ vat_rate: 12.75 }).vat_rate).toBe(12.75);
    expect(messageAt({ vat_rate: -1 }, "vat_rate")).toBe("VAT rate must be between 0 and 100");
    expect(messageAt({ vat_rate: 100.5 }, "vat_rate")).toBe("VAT rate must be between 0 and 100");
    expect(messageAt({ vat_rate: 12.755 }, "vat_rate")).toBe("VAT rate allows at most two decimals");
  });

  it("checks barcodes by their check digit, and an empty primary barcode is none", () => {
    expect(parsed({ barcode: " 4006381333931 " }).barcode).toBe("4006381333931");
    expect(parsed({ barcode: "" }).barcode).toBeNull();
    expect(parsed({ barcode: null }).barcode).toBeNull();
    expect(messageAt({ barcode: "4006381333932" }, "barcode")).toBe(
      "not a valid EAN-13, EAN-8, UPC-A, UPC-E or GTIN-14 (check digit)",
    );
    expect(messageAt({ barcodes: ["96385074", "123"] }, "barcodes.1")).toMatch(/check digit/);
    expect(parsed({ barcodes: Array(20).fill("96385074") }).barcodes).toHaveLength(20);
    expect(messageAt({ barcodes: Array(21).fill("96385074") }, "barcodes")).toBe("At most 20 barcodes per product");
    expect(parsed({ barcodes: [] }).barcodes).toEqual([]);
  });

  it("takes an http(s) image address or an uploaded image, and nothing else", () => {
    for (const url of ["https://cdn.example.se/a.jpg", "http://x.se/b", "/api/v1/products/images/ab-1.c_d.webp"]) {
      expect(parsed({ image_url: url }).image_url).toBe(url);
    }
    expect(parsed({ image_url: "" }).image_url).toBeNull();
    const refused = [
      "ftp://x.se/a.jpg",
      "https://",
      "https://x.se/a b",
      " https://x.se/a",
      "xhttps://x.se/a",
      "/api/v1/products/images/",
      "/api/v1/products/images/a/b",
      "x/api/v1/products/images/a",
      "/api/v1/products/images/a?",
    ];
    for (const url of refused) {
      expect(messageAt({ image_url: url }, "image_url")).toBe(
        "image_url must be an http(s) address or an uploaded image",
      );
    }
    expect(productInputSchema.safeParse({ ...valid, image_url: `https://x.se/${"a".repeat(1000)}` }).success).toBe(
      false,
    );
  });

  it("names the measure that is wrong", () => {
    expect(messageAt({ weight: -1 }, "weight")).toBe("Weight cannot be negative");
    expect(messageAt({ length: 1_000_001 }, "length")).toBe("Length must be at most 1,000,000");
    expect(messageAt({ width: 1.25 }, "width")).toBe("Width allows at most 1 decimals");
    expect(messageAt({ height: -0.5 }, "height")).toBe("Height cannot be negative");
    expect(messageAt({ weight: 1.0005 }, "weight")).toBe("Weight allows at most 3 decimals");
    const out = parsed({ weight: 1.125, length: 0, width: 1_000_000, height: null });
    expect(out).toMatchObject({ weight: 1.125, length: 0, width: 1_000_000, height: null });
  });

  it("takes the three age limits or none", () => {
    for (const age_limit of [15, 18, 20, null]) expect(parsed({ age_limit }).age_limit).toBe(age_limit);
    expect(messageAt({ age_limit: 16 }, "age_limit")).toBe("age_limit must be 15, 18, 20 or null");
  });

  it("lets an edit send any subset", () => {
    expect(productUpdateSchema.parse({ price: 5 })).toEqual({ price: 5 });
    expect(productUpdateSchema.safeParse({ sku: "" }).success).toBe(false);
  });
});

describe("product list query", () => {
  it("has defaults", () => {
    expect(productListQuerySchema.parse({})).toEqual({ sort: "name", order: "asc", limit: 50, offset: 0 });
  });

  it("reads numbers from the query string and keeps them in range", () => {
    const query = { search: "x".repeat(200), category: "c".repeat(100), sort: "price", order: "desc" };
    expect(productListQuerySchema.parse({ ...query, limit: "1000", offset: "0" })).toEqual({
      ...query,
      limit: 1000,
      offset: 0,
    });
    expect(productListQuerySchema.parse({ limit: "1", offset: "7", order: "asc" })).toMatchObject({
      limit: 1,
      offset: 7,
      order: "asc",
    });
    for (const bad of [
      { limit: "0" },
      { limit: "1001" },
      { offset: "-1" },
      { search: "x".repeat(201) },
      { category: "c".repeat(101) },
      { order: "up" },
      { sort: "id" },
    ]) {
      expect(productListQuerySchema.safeParse(bad).success).toBe(false);
    }
  });
});

describe("product answers", () => {
  const product = {
    id: "p1",
    sku: "A-1",
    name: "Sylt",
    description: null,
    category: "Mat",
    brand: null,
    price: 10,
    vat_category: "food",
    vat_rate: 6,
    barcode: "96385074",
    barcodes: ["96385074"],
    image_url: null,
    is_active: true,
    weight: 450,
    length: null,
    width: null,
    height: null,
    net_content: 450,
    net_content_unit: "g",
    pant_code: "can",
    comparison_price: { price: 22.22, unit: "kg" },
    age_limit: null,
    created_at: "2026-01-01T00:00:00Z",
    updated_at: "2026-01-02T00:00:00Z",
  };

  it("keep every field", () => {
    expect(productSchema.parse(product)).toEqual(product);
    // A category the rate table has no rate for today.
    expect(productSchema.parse({ ...product, vat_rate: null }).vat_rate).toBeNull();
    expect(productSchema.safeParse({ ...product, vat_category: "luxury" }).success).toBe(false);
    const price = { product, code: "2001234012345", measure: { kind: "price", price: 12.34 }, line_price: 12.34 };
    expect(productLookupSchema.parse(price)).toEqual(price);
    const weight = { ...price, measure: { kind: "weight", weight_grams: 500 }, line_price: 5 };
    expect(productLookupSchema.parse(weight)).toEqual(weight);
    expect(productLookupSchema.parse({ ...price, measure: null }).measure).toBeNull();
    expect(productLookupSchema.safeParse({ ...price, measure: { kind: "count", price: 1 } }).success).toBe(false);
    const report = {
      dry_run: true,
      created: 1,
      updated: 1,
      rejected: 1,
      rows: (["create", "update", "reject"] as const).map((action, i) => ({
        line: i + 2,
        sku: "A",
        action,
        errors: [],
      })),
    };
    expect(importReportSchema.parse(report)).toEqual(report);
  });

  it("an id in the path is a UUID", () => {
    const id = "0b7e3c1e-8f4a-4c55-9d3e-2f1a6b7c8d9e";
    expect(productIdParams.parse({ id })).toEqual({ id });
    expect(productIdParams.safeParse({ id: "1" }).error?.issues[0]?.message).toBe("Product id must be a UUID");
  });

  it("images may be up to 5 MiB", () => {
    expect(PRODUCT_IMAGE_MAX_BYTES).toBe(5_242_880);
  });
});
