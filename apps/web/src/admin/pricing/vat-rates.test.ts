import type { VatRate } from "@glide/contracts";
import { describe, expect, it } from "vitest";
import { formatRate, groupByCategory, periodStatus } from "./vat-rates.ts";

const period = (category: VatRate["category"], valid_from: string, valid_to: string | null, rate = 6): VatRate => ({
  id: `${category}-${valid_from}`,
  country: "SE",
  category,
  rate,
  valid_from,
  valid_to,
  updated_at: "2026-11-01T10:00:00Z",
});

describe("a period's standing on the server's today", () => {
  const food = period("food", "2026-04-01", "2027-12-31");

  it("is current from its first day to its last, both included", () => {
    expect(periodStatus(food, "2026-04-01")).toBe("current");
    expect(periodStatus(food, "2026-11-27")).toBe("current");
    expect(periodStatus(food, "2027-12-31")).toBe("current");
  });

  it("is upcoming the day before it starts and ended the day after it ends", () => {
    expect(periodStatus(food, "2026-03-31")).toBe("upcoming");
    expect(periodStatus(food, "2028-01-01")).toBe("ended");
  });

  it("never ends while no end is known", () => {
    const open = period("standard", "1990-07-01", null);
    expect(periodStatus(open, "2999-12-31")).toBe("current");
    expect(periodStatus(open, "1990-06-30")).toBe("upcoming");
  });
});

describe("the periods of each category", () => {
  it("lists every category in the contract's order, each oldest first, empty where none is set", () => {
    const groups = groupByCategory([
      period("food", "2028-01-01", null, 12),
      period("standard", "1990-07-01", null, 25),
      period("food", "1996-01-01", "2026-03-31", 12),
      period("food", "2026-04-01", "2027-12-31", 6),
    ]);
    expect(groups.map((group) => group.category)).toEqual([
      "standard",
      "food",
      "alcoholic_drink",
      "books_newspapers",
      "exempt",
    ]);
    expect(groups[1]?.periods.map((p) => p.valid_from)).toEqual(["1996-01-01", "2026-04-01", "2028-01-01"]);
    expect(groups[0]?.periods).toHaveLength(1);
    expect(groups[2]?.periods).toEqual([]);
  });
});

describe("a rate as shown", () => {
  it.each([
    [6, "6 %"],
    [0, "0 %"],
    [12.5, "12.5 %"],
    [7.25, "7.25 %"],
  ])("%s → %s", (rate, text) => {
    expect(formatRate(rate)).toBe(text);
  });
});
