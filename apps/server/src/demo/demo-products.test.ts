import { parseBarcode } from "@glide/contracts";
import { describe, expect, it } from "vitest";
import { demoProducts } from "./demo-products.ts";

describe("the demo's products", () => {
  it("are sold in variants that make sense for them, each with its own valid barcode", () => {
    const products = demoProducts();
    expect(products.length).toBeGreaterThan(100);
    expect(new Set(products.map((p) => p.name)).size).toBe(products.length);
    expect(new Set(products.map((p) => p.barcode)).size).toBe(products.length);
    for (const p of products) expect(parseBarcode(p.barcode), p.name).not.toBeNull();
    // Lactose-free only in the dairy; organic only in food; nothing like "Batterier AA Laktosfri 8-pack".
    const lactoseFree = products.filter((p) => p.name.includes("Laktosfri"));
    expect(new Set(lactoseFree.map((p) => p.category))).toEqual(new Set(["Mejeri"]));
    const food = new Set(["Mejeri", "Ägg", "Kaffe", "Skafferi", "Kött", "Fryst", "Frukt & grönt"]);
    for (const p of products.filter((q) => / Eko\b/.test(q.name))) expect(food, p.name).toContain(p.category);
    for (const name of [
      "Batterier AA 8-pack",
      "Ahlgrens bilar 125 g",
      "Dagens Nyheter",
      "Snus General Original Portion",
    ])
      expect(products.map((p) => p.name)).toContain(name);
    expect(
      products.filter((p) => /^(Batterier|Ahlgrens|Snus|Dagens)/.test(p.name) && /Eko|Laktosfri|Storpack/.test(p.name)),
    ).toEqual([]);
  });
});
