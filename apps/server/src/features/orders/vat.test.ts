import { describe, expect, it } from "vitest";
import { vatPerRate } from "./vat.ts";

describe("VAT per rate on prices that include it", () => {
  it("sums each rate's lines first and rounds once per rate, highest rate first", () => {
    // 3 × 0.01 kr at 25 %: per line 0.2 öre rounds to 0 each time; on the sum, 3 × 20 / 125 = 0.6 → 1 öre.
    const rates = vatPerRate([
      { totalOre: 1, vatRateBp: 2500 },
      { totalOre: 1, vatRateBp: 2500 },
      { totalOre: 1, vatRateBp: 2500 },
      { totalOre: 10_600, vatRateBp: 600 },
      { totalOre: 11_200, vatRateBp: 1200 },
    ]);
    expect(rates).toEqual([
      { vatRateBp: 2500, grossOre: 3, vatOre: 1, netOre: 2 },
      { vatRateBp: 1200, grossOre: 11_200, vatOre: 1200, netOre: 10_000 },
      { vatRateBp: 600, grossOre: 10_600, vatOre: 600, netOre: 10_000 },
    ]);
  });

  it("rounds half an öre up and just under half down", () => {
    // 250 öre at 25 % is 50 exactly; 2 öre at 25 % is 0.4 → 0; 3 öre at 20 % is 0.5 → 1; 179.90 kr at 12 % is 1927.5 → 1928.
    expect(vatPerRate([{ totalOre: 250, vatRateBp: 2500 }])[0]?.vatOre).toBe(50);
    expect(vatPerRate([{ totalOre: 2, vatRateBp: 2500 }])[0]?.vatOre).toBe(0);
    expect(vatPerRate([{ totalOre: 3, vatRateBp: 2000 }])[0]?.vatOre).toBe(1);
    expect(vatPerRate([{ totalOre: 17_990, vatRateBp: 1200 }])[0]).toEqual({
      vatRateBp: 1200,
      grossOre: 17_990,
      vatOre: 1928,
      netOre: 16_062,
    });
  });

  it("has no VAT at 0 % and nothing for no lines", () => {
    expect(vatPerRate([{ totalOre: 5000, vatRateBp: 0 }])).toEqual([
      { vatRateBp: 0, grossOre: 5000, vatOre: 0, netOre: 5000 },
    ]);
    expect(vatPerRate([])).toEqual([]);
  });
});
