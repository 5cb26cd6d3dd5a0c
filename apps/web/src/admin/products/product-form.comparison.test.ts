import { describe, expect, it } from "vitest";
import { comparisonHint, comparisonText } from "./comparison-price.ts";
import { product } from "./product-form.fixtures.ts";
import { PRODUCT_FIELDS, productFieldOf, toFormValues, toProductInput } from "./product-form.ts";

const filled = { sku: "K-1", name: "Kaffe", price: "24.95" };

describe("the product form's net content", () => {
  it("starts empty for a new product and shows an existing product's content and unit", () => {
    expect(toFormValues()).toMatchObject({ net_content: "", net_content_unit: "" });
    const coffee = product({ net_content: 0.5, net_content_unit: "kg" });
    expect(toFormValues(coffee)).toMatchObject({ net_content: "0.5", net_content_unit: "kg" });
    expect(toFormValues(product({ net_content: 1.125, net_content_unit: "l" })).net_content).toBe("1.125");
  });

  it("sends the content as a number and the unit chosen", () => {
    const input = toProductInput({ ...toFormValues(), ...filled, net_content: " 500 ", net_content_unit: "g" });
    expect(input).toMatchObject({ net_content: 500, net_content_unit: "g" });
  });

  it("sends an empty content and no unit as null, so that clearing them on edit clears them", () => {
    const cleared = toFormValues(product({ net_content: 500, net_content_unit: "g" }));
    const input = toProductInput({ ...cleared, net_content: "", net_content_unit: "" });
    expect(input.net_content).toBeNull();
    expect(input.net_content_unit).toBeNull();
  });

  it("sends a content without a unit, or a unit without content, for the server to name what is missing", () => {
    expect(toProductInput({ ...toFormValues(), ...filled, net_content: "500" })).toMatchObject({
      net_content: 500,
      net_content_unit: null,
    });
    expect(toProductInput({ ...toFormValues(), ...filled, net_content_unit: "st" })).toMatchObject({
      net_content: null,
      net_content_unit: "st",
    });
  });

  it("shows the server's problems beside Net content and Unit, in the order shown after the price", () => {
    expect(productFieldOf("net_content")).toBe("net_content");
    expect(productFieldOf("net_content_unit")).toBe("net_content_unit");
    const order = PRODUCT_FIELDS.indexOf.bind(PRODUCT_FIELDS);
    expect(order("price")).toBeLessThan(order("net_content"));
    expect(order("net_content")).toBeLessThan(order("net_content_unit"));
    expect(order("net_content_unit")).toBeLessThan(order("barcode"));
  });
});

describe("the comparison price hint", () => {
  const hint = (price: string, net_content: string, net_content_unit: string) =>
    comparisonHint({ price, net_content, net_content_unit });

  it("gives the price per kilogram, litre or piece as the content is typed", () => {
    expect(hint("24.95", "500", "g")).toBe("Comparison price 49.90 kr/kg");
    expect(hint("24.95", "0.5", "kg")).toBe("Comparison price 49.90 kr/kg");
    expect(hint("15", "330", "ml")).toBe("Comparison price 45.45 kr/l");
    expect(hint("19.90", "1.5", "l")).toBe("Comparison price 13.27 kr/l");
    expect(hint("30", "6", "st")).toBe("Comparison price 5.00 kr/st");
    expect(hint("30", "1", "st")).toBe("Comparison price 30.00 kr/st");
  });

  it("says nothing until price, content and unit all make sense", () => {
    expect(hint("", "500", "g")).toBeUndefined();
    expect(hint("24.95", "", "g")).toBeUndefined();
    expect(hint("24.95", "500", "")).toBeUndefined();
    expect(hint("24.95", "0", "g")).toBeUndefined();
    expect(hint("24.95", "-1", "g")).toBeUndefined();
    expect(hint("abc", "500", "g")).toBeUndefined();
    expect(hint("24.95", "500", "oz")).toBeUndefined();
  });

  it("is written as the console's lists show it", () => {
    expect(comparisonText({ price: 49.9, unit: "kg" })).toBe("49.90 kr/kg");
    expect(comparisonText({ price: 5, unit: "st" })).toBe("5.00 kr/st");
  });
});
