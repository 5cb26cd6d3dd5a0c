import { describe, expect, it } from "vitest";
import type { OfferLine } from "../pricing/cart-offers.ts";
import { KEPT_CART_LINES, keptCarts, linesOre } from "./kept-carts.ts";

const line = (n: number, quantity = 1, unit = 100, pant = 0): OfferLine => ({
  id: `line-${n}`,
  product_id: `product-${n}`,
  quantity,
  unit_price_ore: unit,
  pant_ore: pant,
  member_unit_ore: null,
  labelled: false,
  vat_category: "standard",
});
const lines = (count: number) => Array.from({ length: count }, (_, i) => line(i));

describe("the carts an instance keeps", () => {
  it("answers a cart under the version it was kept at, and forgets a dropped one", () => {
    const kept = keptCarts(10);
    kept.set("a", { version: "7", lines: lines(2) });
    expect(kept.get("a")).toMatchObject({ version: "7" });
    expect(kept.get("b")).toBeUndefined();
    kept.set("a", { version: "8", lines: lines(3) });
    expect(kept.get("a")?.version).toBe("8");
    expect(kept.lines).toBe(3);
    kept.drop("a");
    kept.drop("never kept");
    expect([kept.get("a"), kept.size, kept.lines]).toEqual([undefined, 0, 0]);
  });

  it("keeps at most its budget of lines, forgetting the least recently used cart first", () => {
    const kept = keptCarts(10);
    kept.set("a", { version: "1", lines: lines(4) });
    kept.set("b", { version: "1", lines: lines(4) });
    kept.get("a");
    // 4 + 4 + 2 = 10 lines: exactly the budget, nothing is forgotten.
    kept.set("c", { version: "1", lines: lines(2) });
    expect([kept.size, kept.lines]).toEqual([3, 10]);
    // One line more: b, used least recently, goes.
    kept.set("d", { version: "1", lines: lines(1) });
    expect([kept.get("a"), kept.get("b"), kept.get("c"), kept.get("d")].map((c) => c !== undefined)).toEqual([
      true,
      false,
      true,
      true,
    ]);
    expect(kept.lines).toBe(7);
  });

  it("keeps a cart exactly as long as the budget, and not one line longer", () => {
    const kept = keptCarts(10);
    kept.set("small", { version: "1", lines: lines(1) });
    kept.set("long", { version: "1", lines: lines(11) });
    expect([kept.get("long"), kept.get("small")?.version]).toEqual([undefined, "1"]);
    kept.set("small", { version: "2", lines: lines(11) });
    expect([kept.get("small"), kept.lines]).toEqual([undefined, 0]);
    kept.set("full", { version: "1", lines: lines(10) });
    expect([kept.size, kept.lines]).toEqual([1, 10]);
    expect(KEPT_CART_LINES).toBe(100_000);
  });

  it("sums the lines' goods and pant as the database does", () => {
    expect(linesOre([])).toBe(0);
    expect(linesOre([line(1, 3, 1790, 100), line(2, 1, 3250, 0)])).toBe(3 * 1890 + 3250);
  });
});
