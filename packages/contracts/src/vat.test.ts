import { describe, expect, it } from "vitest";
import {
  calendarDay,
  SWEDISH_VAT_RATES,
  type VatRatePeriod,
  vatCategoryForPercent,
  vatRateInputSchema,
  vatRateOn,
} from "./vat.ts";

const se = (category: Parameters<typeof vatRateOn>[2], day: string) =>
  vatRateOn(SWEDISH_VAT_RATES, "SE", category, day);

describe("Swedish VAT by category and day", () => {
  it("food is 12 % up to 2026-03-31, 6 % from 2026-04-01 to 2027-12-31, 12 % again from 2028-01-01", () => {
    expect(se("food", "2026-03-31")).toBe(1200);
    expect(se("food", "2026-04-01")).toBe(600);
    expect(se("food", "2027-12-31")).toBe(600);
    expect(se("food", "2028-01-01")).toBe(1200);
    expect(se("food", "1996-01-01")).toBe(1200);
  });

  it("the other categories do not move at those edges", () => {
    for (const day of ["2026-03-31", "2026-04-01", "2027-12-31", "2028-01-01"]) {
      expect([se("standard", day), se("alcoholic_drink", day), se("books_newspapers", day), se("exempt", day)]).toEqual(
        [2500, 2500, 600, 0],
      );
    }
  });

  it("no rate before the table starts, nor for a country or category it does not hold", () => {
    expect(se("food", "1995-12-31")).toBeNull();
    expect(se("books_newspapers", "2001-12-31")).toBeNull();
    expect(vatRateOn(SWEDISH_VAT_RATES, "NO", "food", "2026-06-01")).toBeNull();
  });

  it("the table's periods of one category never share a day", () => {
    const byCategory = Map.groupBy(SWEDISH_VAT_RATES, (p) => p.category);
    for (const periods of byCategory.values()) {
      const sorted = [...periods].sort((a, b) => a.valid_from.localeCompare(b.valid_from));
      for (let i = 1; i < sorted.length; i++) expect(sorted[i - 1]!.valid_to! < sorted[i]!.valid_from).toBe(true);
    }
  });

  it("should two periods ever overlap, the one that started last counts", () => {
    const periods: VatRatePeriod[] = [
      { country: "DK", category: "food", rate_bp: 2500, valid_from: "2020-01-01", valid_to: null },
      { country: "DK", category: "food", rate_bp: 1000, valid_from: "2026-01-01", valid_to: "2026-12-31" },
    ];
    expect(vatRateOn(periods, "DK", "food", "2026-06-01")).toBe(1000);
    expect(vatRateOn([...periods].reverse(), "DK", "food", "2026-06-01")).toBe(1000);
    expect(vatRateOn(periods, "DK", "food", "2027-01-01")).toBe(2500);
  });
});

describe("calendarDay", () => {
  it("is the day in the time zone, not in UTC", () => {
    expect(calendarDay(new Date("2026-03-31T21:59:59Z"), "Europe/Stockholm")).toBe("2026-03-31");
    expect(calendarDay(new Date("2026-03-31T22:00:00Z"), "Europe/Stockholm")).toBe("2026-04-01");
    expect(calendarDay(new Date("2027-12-31T22:59:59Z"), "Europe/Stockholm")).toBe("2027-12-31");
    expect(calendarDay(new Date("2027-12-31T23:00:00Z"), "Europe/Stockholm")).toBe("2028-01-01");
    expect(calendarDay(new Date("2026-04-01T03:59:59Z"), "America/New_York")).toBe("2026-03-31");
    expect(calendarDay(new Date("2026-04-01T04:00:00Z"), "America/New_York")).toBe("2026-04-01");
  });
});

describe("a percentage from an older client", () => {
  it("25 standard, 12 and 6 food, 0 exempt, anything else none", () => {
    expect([25, 12, 6, 0].map(vatCategoryForPercent)).toEqual(["standard", "food", "food", "exempt"]);
    for (const other of [24.99, 25.01, 11, 13, 5, 7, 0.01, 100]) expect(vatCategoryForPercent(other)).toBeNull();
  });
});

describe("a rate period as the console sends it", () => {
  const ok = { country: "SE", category: "food", rate: 6, valid_from: "2026-04-01", valid_to: "2027-12-31" };
  const problems = (input: unknown) => {
    const parsed = vatRateInputSchema.safeParse(input);
    return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
  };

  it("takes a period, an open end, and a one-day period", () => {
    expect(problems(ok)).toEqual([]);
    expect(problems({ ...ok, valid_to: null })).toEqual([]);
    expect(problems({ ...ok, valid_to: undefined })).toEqual([]);
    expect(problems({ ...ok, valid_to: ok.valid_from })).toEqual([]);
    expect(problems({ ...ok, rate: 0 })).toEqual([]);
    expect(problems({ ...ok, rate: 100 })).toEqual([]);
    expect(problems({ ...ok, rate: 12.55 })).toEqual([]);
  });

  it("refuses an end before the start, a day not on the calendar, a rate out of range or too precise", () => {
    expect(problems({ ...ok, valid_to: "2026-03-31" })).toEqual(["valid_to: valid_to cannot be before valid_from"]);
    expect(problems({ ...ok, valid_from: "2026-02-30" })).toEqual([
      "valid_from: valid_from is not a day of the calendar",
    ]);
    expect(problems({ ...ok, valid_from: "2026-4-1" })).toEqual(["valid_from: valid_from is a date as YYYY-MM-DD"]);
    expect(problems({ ...ok, rate: -0.01 })).toEqual(["rate: The rate must be from 0 to 100 %"]);
    expect(problems({ ...ok, rate: 100.01 })).toEqual(["rate: The rate must be from 0 to 100 %"]);
    expect(problems({ ...ok, rate: 6.125 })).toEqual(["rate: The rate allows at most two decimals"]);
    expect(problems({ ...ok, rate: "6" })).toEqual(["rate: The rate is a number of percent from 0 to 100"]);
  });

  it("names an unknown category or country, and an unknown field", () => {
    expect(problems({ ...ok, category: "luxury" })).toEqual([
      "category: A VAT category is one of standard, food, alcoholic_drink, books_newspapers, exempt",
    ]);
    expect(problems({ ...ok, country: "XX" })[0]).toMatch(/^country: Unknown country code; use one of SE/);
    expect(problems({ ...ok, extra: 1 })).toHaveLength(1);
  });
});
