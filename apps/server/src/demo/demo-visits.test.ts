import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { vatPerRate } from "../features/orders/vat.ts";
import { demoProducts } from "./demo-products.ts";
import { type PlannedVisit, planVisits } from "./demo-visits.ts";

/**
 * The VAT of the demo's planned past: each line at its category's rate on
 * the Swedish day its order was paid, so a past that spans 2026-04-01 has
 * food at 12 % before it and at 6 % from it.
 */

const shelf = demoProducts().map((p) => ({ ...p, id: randomUUID() }));
const DAY_MS = 86_400_000;
/** Round the clock, so some visits pay after midnight, on the next day. */
const store = { id: randomUUID(), visitsPerDay: [20, 30] as [number, number], hours: Array(24).fill(1) };

/** The Stockholm day a visit's order was paid: `day` days before 2026-04-10, and the minute and ms into it. */
function paidDay(v: PlannedVisit): string {
  const into = Math.floor((v.minute * 60_000 + v.order!.paidMs) / DAY_MS);
  return new Date(Date.parse("2026-04-10T00:00:00Z") + (into - v.day) * DAY_MS).toISOString().slice(0, 10);
}

describe("the demo's planned orders", () => {
  // Noon in Stockholm on 2026-04-10: twenty days back reaches into March.
  const visits = planVisits({ stores: [store], shoppers: 10, shelf, days: 20, now: new Date("2026-04-10T10:00:00Z") });
  const paid = visits.filter((v) => v.order);

  it("charges each line its category's rate on the day it was paid: food 12 % to March's end, then 6 %", () => {
    const sold = new Set<string>();
    for (const v of paid) {
      const day = paidDay(v);
      const side = day < "2026-04-01" ? "before" : "after";
      for (const line of v.lines) {
        const category = line.product.vatCategory;
        const expected = { food: side === "before" ? 1200 : 600, books_newspapers: 600, standard: 2500 }[
          category as "food"
        ];
        expect(line.vatRateBp, `${line.product.name} on ${day}`).toBe(expected);
        sold.add(`${category} ${side}`);
      }
    }
    // Both sides of the change were sold, and the other categories on both sides too.
    expect([...sold].sort()).toEqual([
      "books_newspapers after",
      "books_newspapers before",
      "food after",
      "food before",
      "standard after",
      "standard before",
    ]);
  });

  it("has the last day of March at 12 % and the first of April at 6 %, also for a visit paid after midnight", () => {
    const food = (day: string) =>
      paid.filter((v) => paidDay(v) === day).flatMap((v) => v.lines.filter((l) => l.product.vatCategory === "food"));
    expect(new Set(food("2026-03-31").map((l) => l.vatRateBp))).toEqual(new Set([1200]));
    expect(new Set(food("2026-04-01").map((l) => l.vatRateBp))).toEqual(new Set([600]));
    // Some visits begin before midnight and pay after it: their day is the payment's.
    expect(paid.filter((v) => v.minute * 60_000 + v.order!.paidMs >= DAY_MS).length).toBeGreaterThan(0);
  });

  it("sums each order's VAT from its lines' rates", () => {
    for (const v of paid) {
      const totals = v.lines.map((l) => ({ totalOre: l.unitOre * l.quantity, vatRateBp: l.vatRateBp! }));
      expect(v.order!.vatOre).toBe(vatPerRate(totals).reduce((sum, r) => sum + r.vatOre, 0));
    }
  });
});
