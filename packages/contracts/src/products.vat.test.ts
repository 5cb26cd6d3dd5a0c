import { describe, expect, it } from "vitest";
import { PRODUCT_CSV_COLUMNS, PRODUCT_DEFAULTS, productInputSchema, productVatCategory } from "./products.ts";
import { SWEDISH_VAT_RATES, type VatCategory, vatRateOn } from "./vat.ts";

/** A product's VAT category: what the input takes, and what a percentage from an older client means. */

const valid = { sku: "A-1", name: "Folköl", price: 10 };

/** Sweden's rates on a day inside the reduced food rate (6 %), and on one before it (12 %). */
const ratesOn = (day: string) => (category: VatCategory) => vatRateOn(SWEDISH_VAT_RATES, "SE", category, day);
const in2026 = ratesOn("2026-11-27");
const in2025 = ratesOn("2025-11-27");

describe("product input's VAT category", () => {
  it("takes each category and refuses any other word", () => {
    for (const vat_category of ["standard", "food", "alcoholic_drink", "books_newspapers", "exempt"]) {
      expect(productInputSchema.parse({ ...valid, vat_category }).vat_category).toBe(vat_category);
    }
    const refused = productInputSchema.safeParse({ ...valid, vat_category: "Food" });
    expect(refused.error?.issues[0]).toMatchObject({
      path: ["vat_category"],
      message: "A VAT category is one of standard, food, alcoholic_drink, books_newspapers, exempt",
    });
    expect(productInputSchema.parse(valid).vat_category).toBeUndefined();
  });

  it("is a column of the CSV, beside the rate, and the form's default is standard at 25 %", () => {
    expect(PRODUCT_CSV_COLUMNS.indexOf("vat_category") + 1).toBe(PRODUCT_CSV_COLUMNS.indexOf("vat_rate"));
    expect(PRODUCT_DEFAULTS).toMatchObject({ vat_category: "standard", vat_rate: 25 });
  });
});

describe("productVatCategory", () => {
  it("takes a category alone as it is, and neither as no choice", () => {
    expect(productVatCategory({ vat_category: "alcoholic_drink" }, in2026)).toEqual({ category: "alcoholic_drink" });
    expect(productVatCategory({}, in2026)).toEqual({ category: undefined });
    expect(productVatCategory({}, in2026, "food")).toEqual({ category: undefined });
  });

  it("maps an older client's percentage: 25 standard, 12 and 6 food, 0 exempt", () => {
    expect(productVatCategory({ vat_rate: 25 }, in2026)).toEqual({ category: "standard" });
    expect(productVatCategory({ vat_rate: 12 }, in2026)).toEqual({ category: "food" });
    expect(productVatCategory({ vat_rate: 6 }, in2026)).toEqual({ category: "food" });
    expect(productVatCategory({ vat_rate: 0 }, in2026)).toEqual({ category: "exempt" });
  });

  it("refuses any other percentage, and says to send the category", () => {
    for (const rate of [10, 12.5, 24.99, 100]) {
      expect(productVatCategory({ vat_rate: rate }, in2026)).toEqual({
        error: `vat_rate ${rate} is not a Swedish VAT rate (25, 12, 6 or 0); send vat_category instead`,
      });
    }
  });

  it("takes both when the rate is the category's rate today, and names both when it is not", () => {
    expect(productVatCategory({ vat_category: "food", vat_rate: 6 }, in2026)).toEqual({ category: "food" });
    expect(productVatCategory({ vat_category: "food", vat_rate: 12 }, in2025)).toEqual({ category: "food" });
    expect(productVatCategory({ vat_category: "food", vat_rate: 12 }, in2026)).toEqual({
      error: "vat_rate 12 does not match vat_category food (6 % today)",
    });
    expect(productVatCategory({ vat_category: "food", vat_rate: 25 }, in2026)).toEqual({
      error: "vat_rate 25 does not match vat_category food (6 % today)",
    });
    expect(productVatCategory({ vat_category: "books_newspapers", vat_rate: 6 }, in2026)).toEqual({
      category: "books_newspapers",
    });
    expect(productVatCategory({ vat_category: "food", vat_rate: 6 }, () => null)).toEqual({
      error: "vat_rate 6 does not match vat_category food (no rate today)",
    });
  });

  it("keeps an edited product's category when the percentage sent is its rate today", () => {
    expect(productVatCategory({ vat_rate: 25 }, in2026, "alcoholic_drink")).toEqual({ category: "alcoholic_drink" });
    expect(productVatCategory({ vat_rate: 6 }, in2026, "books_newspapers")).toEqual({ category: "books_newspapers" });
    // Another rate than its own names a category anew.
    expect(productVatCategory({ vat_rate: 25 }, in2026, "books_newspapers")).toEqual({ category: "standard" });
    expect(productVatCategory({ vat_rate: 12 }, in2026, "books_newspapers")).toEqual({ category: "food" });
  });
});
