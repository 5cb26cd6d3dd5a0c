import { describe, expect, it } from "vitest";
import {
  firstStorePriceField,
  priceProblem,
  storePriceFieldOf,
  toFormValues,
  toStorePriceUpdate,
} from "./store-price-form.ts";

describe("the store price form", () => {
  it("opens with the override's product and price, or empty for a new one", () => {
    expect(toFormValues({ product_id: "p1", price: 11.5 })).toEqual({ product_id: "p1", price: "11.5" });
    expect(toFormValues({ product_id: "p1", price: 0 })).toEqual({ product_id: "p1", price: "0" });
    expect(toFormValues(undefined)).toEqual({ product_id: "", price: "" });
  });

  it.each(["12", "0", "12.50", "12,5", " 3 ", "1.005"])("sends %j (the server judges decimals and range)", (text) => {
    expect(priceProblem(text)).toBeUndefined();
  });

  it.each([
    ["", "Enter the store's price in kronor"],
    ["  ", "Enter the store's price in kronor"],
    ["tolv", "The price is a number of kronor, e.g. 12 or 12.50"],
    ["-1", "The price is a number of kronor, e.g. 12 or 12.50"],
    ["12 kr", "The price is a number of kronor, e.g. 12 or 12.50"],
    ["1.2.3", "The price is a number of kronor, e.g. 12 or 12.50"],
  ])("does not send %j: %s", (text, problem) => {
    expect(priceProblem(text)).toBe(problem);
  });

  it("sends a decimal comma as a point, and shows the server's problems beside their fields, the product first", () => {
    expect(toStorePriceUpdate({ product_id: "p1", price: " 12,50 " })).toEqual({ price: 12.5 });
    expect(storePriceFieldOf("price")).toBe("price");
    expect(storePriceFieldOf("product_id")).toBe("product_id");
    expect(storePriceFieldOf("store_id")).toBeUndefined();
    expect(firstStorePriceField(["price", "product_id"])).toBe("product_id");
  });
});
