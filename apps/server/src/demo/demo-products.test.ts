import { randomUUID } from "node:crypto";
import { comparisonPrice, parseBarcode, productSchema } from "@glide/contracts";
import { describe, expect, it } from "vitest";
import { as, createTestContext, signIn } from "../test/harness.ts";
import { demoProducts, pantCodeOf, seedDemoProducts } from "./demo-products.ts";
import { netContentOfSize } from "./demo-sizes.ts";

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

  it("all have a net content, so a jämförpris, except the goods weighed or priced at the counter", () => {
    const products = demoProducts();
    for (const p of products) {
      if (p.measure) expect([p.name, p.netContentMilli, p.netContentUnit]).toEqual([p.name, null, null]);
      else expect(p.netContentMilli, p.name).toBeGreaterThan(0);
    }
    const content = (name: string) => {
      const p = products.find((q) => q.name === name)!;
      return [
        p.netContentMilli! / 1000,
        p.netContentUnit,
        comparisonPrice(p.priceOre, p.netContentMilli! / 1000, p.netContentUnit),
      ];
    };
    expect(content("Mellanmjölk 1 l")).toEqual([1, "l", { priceOre: 1790, unit: "l" }]);
    expect(content("Bregott Normalsaltat 600 g")).toEqual([600, "g", { priceOre: 13317, unit: "kg" }]);
    expect(content("Kaffe Mellanrost 450 g")).toEqual([450, "g", { priceOre: 13311, unit: "kg" }]);
    expect(content("Folköl 3,5 % 50 cl")).toEqual([500, "ml", { priceOre: 3580, unit: "l" }]);
    expect(content("Vispgrädde 36 % 3 dl")).toEqual([300, "ml", { priceOre: 8300, unit: "l" }]);
    expect(content("Ägg 12-pack frigående")).toEqual([12, "st", { priceOre: 416, unit: "st" }]);
    expect(content("Toalettpapper 8-pack")).toEqual([8, "st", { priceOre: 811, unit: "st" }]);
    expect(content("Havregryn 1,5 kg")).toEqual([1.5, "kg", { priceOre: 2860, unit: "kg" }]);
    expect(products.find((p) => p.name === "Bananer (per kg)")?.netContentUnit).toBeNull();
    expect(() => netContentOfSize("en burk")).toThrow(/not a net content/);
  });

  it("carry pant on drinks in cans and PET bottles, by pack and size, and on nothing else", () => {
    const products = demoProducts();
    const pant = (name: string) => products.find((p) => p.name === name)?.pantCode;
    expect(pant("Läsk Cola 33 cl")).toBe("can");
    expect(pant("Läsk Cola 1,5 l")).toBe("pet_large");
    expect(pant("Mineralvatten Citron 50 cl")).toBe("pet_small");
    expect(pant("Julmust 1,4 l")).toBe("pet_large");
    expect(pant("Folköl 3,5 % 50 cl")).toBe("can");
    expect(pant("Apelsinjuice 1 l")).toBeNull();
    expect(pant("Mellanmjölk 1 l")).toBeNull();
    expect(pantCodeOf("pet", { netContentMilli: 1_000_000, netContentUnit: "ml" })).toBe("pet_small");
    expect(pantCodeOf("pet", { netContentMilli: 1001, netContentUnit: "l" })).toBe("pet_large");
    expect(pantCodeOf("pet", { netContentMilli: 499_000, netContentUnit: "ml" })).toBe("can");
    expect(pantCodeOf("can", { netContentMilli: 1500, netContentUnit: "l" })).toBe("can");
    expect(pantCodeOf(undefined, { netContentMilli: 330_000, netContentUnit: "ml" })).toBeNull();
    expect(pantCodeOf("can", null)).toBeNull();
    expect(
      products.filter((p) => p.pantCode !== null).every((p) => p.category === "Dryck" || p.category === "Folköl"),
    ).toBe(true);
  });

  it("are seeded with their net content, and the catalogue answers their jämförpris", async () => {
    const ctx = await createTestContext();
    try {
      const shelf = demoProducts().map((p) => ({ ...p, id: randomUUID() }));
      await ctx.app.db.transaction((tx) => seedDemoProducts(tx, shelf));
      const admin = as(ctx.app, (await signIn(ctx.app)).cookie);
      const res = await admin.get("/api/v1/products/?search=Bregott%20Normalsaltat%20600");
      expect(res.statusCode, res.body).toBe(200);
      const [bregott, ...more] = res.json().map((p: unknown) => productSchema.parse(p));
      expect(more).toEqual([]);
      expect(bregott).toMatchObject({
        net_content: 600,
        net_content_unit: "g",
        comparison_price: { price: 133.17, unit: "kg" },
      });
    } finally {
      await ctx.close();
    }
  });
});
