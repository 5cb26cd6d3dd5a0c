import { PANT_CODES, SWEDISH_VAT_RATES, type VatRateList } from "@glide/contracts";
import { describe, expect, it } from "vitest";
import { pantListText, pantOptionLabel } from "./pant.ts";
import { product } from "./product-form.fixtures.ts";
import {
  PRODUCT_FIELDS,
  productFieldOf,
  toFormValues,
  toProductInput,
  vatPercentToday,
  vatTodayText,
} from "./product-form.ts";

/** The Swedish rates as GET /api/v1/vat-rates answers them, with the server's today, plus a Norwegian one. */
function table(today: string): VatRateList {
  const swedish = SWEDISH_VAT_RATES.map((period, i) => ({
    id: String(i),
    country: period.country,
    category: period.category,
    rate: period.rate_bp / 100,
    valid_from: period.valid_from,
    valid_to: period.valid_to,
    updated_at: "2026-01-01T00:00:00.000Z",
  }));
  const norwegian = { ...swedish[0]!, id: "no", country: "NO", category: "food" as const, rate: 15 };
  return { items: [...swedish, norwegian], today };
}

describe("the VAT category of the product form", () => {
  it("starts a new product at the default category, standard unless the setting says another", () => {
    expect(toFormValues().vat_category).toBe("standard");
    expect(toFormValues(undefined, "food").vat_category).toBe("food");
  });

  it("shows an existing product's own category, whatever the default", () => {
    expect(toFormValues(product({ vat_category: "exempt", vat_rate: 0 }), "food").vat_category).toBe("exempt");
  });

  it("sends the category and no rate", () => {
    const input = toProductInput({
      ...toFormValues(undefined, "books_newspapers"),
      sku: "B-1",
      name: "Bok",
      price: "99",
    });
    expect(input.vat_category).toBe("books_newspapers");
    expect(input).not.toHaveProperty("vat_rate");
    expect(input.price).toBe(99);
  });

  it("shows the server's problems with the category or the rate on the category", () => {
    expect(productFieldOf("vat_category")).toBe("vat_category");
    expect(productFieldOf("vat_rate")).toBe("vat_category");
  });
});

describe("the rate a category has today", () => {
  it("is the product's own answer while its category is unchanged", () => {
    // The table would say 12 on this day; the product's answer wins for its own category.
    expect(vatPercentToday("food", product({}), table("2026-03-31"))).toBe(6);
    expect(vatPercentToday("food", product({}), undefined)).toBe(6);
  });

  it("comes from the table on the server's today once the category is changed, or for a new product", () => {
    expect(vatPercentToday("standard", product({}), table("2026-11-27"))).toBe(25);
    expect(vatPercentToday("food", undefined, table("2026-11-27"))).toBe(6);
    expect(vatPercentToday("books_newspapers", undefined, table("2026-11-27"))).toBe(6);
    expect(vatPercentToday("exempt", undefined, table("2026-11-27"))).toBe(0);
  });

  it("follows the day a period starts and ends", () => {
    expect(vatPercentToday("food", undefined, table("2026-03-31"))).toBe(12);
    expect(vatPercentToday("food", undefined, table("2026-04-01"))).toBe(6);
    expect(vatPercentToday("food", undefined, table("2027-12-31"))).toBe(6);
    expect(vatPercentToday("food", undefined, table("2028-01-01"))).toBe(12);
  });

  it("reads only Swedish rates", () => {
    const onlyNorway = table("2026-11-27");
    onlyNorway.items = onlyNorway.items.filter((item) => item.country === "NO");
    expect(vatPercentToday("food", undefined, onlyNorway)).toBeNull();
  });

  it("keeps two decimals of a rate", () => {
    const odd = table("2026-11-27");
    odd.items = [{ ...odd.items[0]!, category: "standard", rate: 12.55 }];
    expect(vatPercentToday("standard", undefined, odd)).toBe(12.55);
  });

  it("is unknown without the table, for a product whose rate the server did not know, or for no category", () => {
    expect(vatPercentToday("food", undefined, undefined)).toBeNull();
    expect(vatPercentToday("standard", product({}), undefined)).toBeNull();
    expect(vatPercentToday("food", product({ vat_rate: null }), undefined)).toBeNull();
    expect(vatPercentToday("food", product({ vat_rate: null }), table("2026-11-27"))).toBe(6);
    expect(vatPercentToday("reduced", undefined, table("2026-11-27"))).toBeNull();
  });

  it("reads as a hint, or says nothing when unknown", () => {
    expect(vatTodayText(6)).toBe("6 % today");
    expect(vatTodayText(12.5)).toBe("12.5 % today");
    expect(vatTodayText(0)).toBe("0 % today");
    expect(vatTodayText(null)).toBeUndefined();
  });
});

describe("the pant of the product form", () => {
  const filled = { sku: "L-1", name: "Läsk", price: "12" };

  it("starts at none for a new product and shows an existing product's mark", () => {
    expect(toFormValues().pant_code).toBe("");
    expect(toFormValues(product({ pant_code: "pet_large" })).pant_code).toBe("pet_large");
  });

  it("sends the mark chosen, and none as null so that choosing None on edit clears it", () => {
    expect(toProductInput({ ...toFormValues(), ...filled, pant_code: "can" }).pant_code).toBe("can");
    const cleared = toFormValues(product({ pant_code: "can" }));
    expect(toProductInput({ ...cleared, pant_code: "" }).pant_code).toBeNull();
  });

  it("names each mark with what it pays in Sweden", () => {
    expect(PANT_CODES.map(pantOptionLabel)).toEqual([
      "Can (2 kr)",
      "PET bottle up to 1 l (2 kr)",
      "PET bottle over 1 l (3 kr)",
      "Can marked 1 kr (1 kr)",
      "PET bottle up to 1 l marked 1 kr (1 kr)",
      "PET bottle over 1 l marked 2 kr (2 kr)",
    ]);
    expect(pantListText("pet_large")).toBe("+ 3 kr pant");
  });

  it("shows the server's problem with the mark on the Pant select, after the unit", () => {
    expect(productFieldOf("pant_code")).toBe("pant_code");
    expect(PRODUCT_FIELDS.indexOf("pant_code")).toBe(PRODUCT_FIELDS.indexOf("net_content_unit") + 1);
  });
});
