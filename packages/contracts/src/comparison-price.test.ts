import { describe, expect, it } from "vitest";
import { comparisonPrice, NET_CONTENT_UNITS } from "./comparison-price.ts";
import * as shopper from "./shopper-constants.ts";

describe("comparisonPrice (jämförpris)", () => {
  it("gives grams and kilograms per kilogram", () => {
    // 500 g at 24,95 kr: 49,90 kr/kg.
    expect(comparisonPrice(2495, 500, "g")).toEqual({ priceOre: 4990, unit: "kg" });
    // Bregott 600 g at 79,90 kr: 133,166… → 133,17 kr/kg.
    expect(comparisonPrice(7990, 600, "g")).toEqual({ priceOre: 13317, unit: "kg" });
    // 1,5 kg at 42,90 kr: 28,60 kr/kg.
    expect(comparisonPrice(4290, 1.5, "kg")).toEqual({ priceOre: 2860, unit: "kg" });
    // 1 kg: the price itself.
    expect(comparisonPrice(12900, 1, "kg")).toEqual({ priceOre: 12900, unit: "kg" });
  });

  it("gives millilitres and litres per litre", () => {
    // 1,5 l at 21,90 kr: 14,60 kr/l.
    expect(comparisonPrice(2190, 1.5, "l")).toEqual({ priceOre: 1460, unit: "l" });
    // 33 cl = 330 ml at 12,90 kr: 39,0909… → 39,09 kr/l.
    expect(comparisonPrice(1290, 330, "ml")).toEqual({ priceOre: 3909, unit: "l" });
    // 0,75 l at 89,90 kr: 119,866… → 119,87 kr/l.
    expect(comparisonPrice(8990, 0.75, "l")).toEqual({ priceOre: 11987, unit: "l" });
    // 750 ml is the same as 0,75 l.
    expect(comparisonPrice(8990, 750, "ml")).toEqual(comparisonPrice(8990, 0.75, "l"));
  });

  it("gives pieces per piece", () => {
    // 6 st at 35,00 kr: 5,833… → 5,83 kr/st.
    expect(comparisonPrice(3500, 6, "st")).toEqual({ priceOre: 583, unit: "st" });
    // 12 eggs at 49,90 kr: 4,158… → 4,16 kr/st.
    expect(comparisonPrice(4990, 12, "st")).toEqual({ priceOre: 416, unit: "st" });
  });

  it("rounds half an öre up, and just under half down", () => {
    // 8 st at 0,20 kr: 2,5 öre each → 3 öre.
    expect(comparisonPrice(20, 8, "st")).toEqual({ priceOre: 3, unit: "st" });
    // 400 g at 0,01 kr: 2,5 öre/kg → 3 öre; 401 g: 2,49… → 2 öre.
    expect(comparisonPrice(1, 400, "g")).toEqual({ priceOre: 3, unit: "kg" });
    expect(comparisonPrice(1, 401, "g")).toEqual({ priceOre: 2, unit: "kg" });
    // 0,3 l at 0,03 kr: 10 öre/l exactly, where 3 / 0.3 in floating point is 9.999….
    expect(comparisonPrice(3, 0.3, "l")).toEqual({ priceOre: 10, unit: "l" });
    // 3 decimals of a kilogram: 0,001 kg at 0,01 kr is 10 kr/kg.
    expect(comparisonPrice(1, 0.001, "kg")).toEqual({ priceOre: 1000, unit: "kg" });
  });

  it("costs nothing for a free product and is unknown without a content", () => {
    expect(comparisonPrice(0, 500, "g")).toEqual({ priceOre: 0, unit: "kg" });
    expect(comparisonPrice(2495, null, "g")).toBeNull();
    expect(comparisonPrice(2495, 500, null)).toBeNull();
    expect(comparisonPrice(2495, 0, "g")).toBeNull();
    expect(comparisonPrice(2495, 0.0004, "kg")).toBeNull();
    expect(comparisonPrice(2495, -1, "g")).toBeNull();
  });

  it("takes the largest price over the smallest content without losing an öre", () => {
    // 10 000 000 kr (the largest price) for 0,001 g: 10^15 öre/kg, still counted exactly.
    expect(comparisonPrice(1_000_000_000, 0.001, "g")).toEqual({ priceOre: 1e15, unit: "kg" });
    // 9 999 999,99 kr for 7 ml: 142 857 142 714,29 öre/l → …714.
    expect(comparisonPrice(999_999_999, 7, "ml")).toEqual({ priceOre: 142_857_142_714, unit: "l" });
  });

  it("is on the phone's zod-free subpath with the unit list", () => {
    expect(shopper.comparisonPrice).toBe(comparisonPrice);
    expect(shopper.NET_CONTENT_UNITS).toEqual(NET_CONTENT_UNITS);
    expect(NET_CONTENT_UNITS).toEqual(["g", "kg", "ml", "l", "st"]);
  });
});
