import { describe, expect, it } from "vitest";
import {
  ANALYTICS_MAX_DAYS,
  ANALYTICS_TABLES,
  ANALYTICS_TOP_LIMIT,
  analyticsHourSchema,
  analyticsQuerySchema,
  analyticsRefundDaySchema,
  analyticsRevenueDaySchema,
  analyticsRevenueRowSchema,
  analyticsRevenueSchema,
  analyticsRevenueStoreSchema,
  analyticsSummarySchema,
  analyticsTopCategorySchema,
  analyticsTopProductSchema,
  analyticsTopQuerySchema,
  daysInRange,
} from "./analytics.ts";
import { keeps, messageAt } from "./testing.ts";

const uuid = "0b7e3c1e-8f4a-4c55-9d3e-2f1a6b7c8d9e";
const range = { from: "2025-01-01", to: "2025-01-31" };

const query = (input: Record<string, unknown>) => analyticsQuerySchema.safeParse({ ...range, ...input });
const queryMessage = (input: Record<string, unknown>, path: string) =>
  messageAt(analyticsQuerySchema, { ...range, ...input }, path);

describe("days in a range", () => {
  it("counts both ends", () => {
    expect(daysInRange("2025-01-01", "2025-01-01")).toBe(1);
    expect(daysInRange("2025-01-01", "2025-01-02")).toBe(2);
    expect(daysInRange("2025-01-01", "2025-01-31")).toBe(31);
  });

  it("counts calendar days across months, leap days and years", () => {
    expect(daysInRange("2025-02-27", "2025-03-02")).toBe(4);
    expect(daysInRange("2024-02-28", "2024-03-01")).toBe(3);
    expect(daysInRange("2025-01-01", "2025-12-31")).toBe(365);
    expect(daysInRange("2024-01-01", "2024-12-31")).toBe(366);
    expect(daysInRange("2025-12-31", "2026-01-01")).toBe(2);
  });

  it("counts whole days where summer time starts and ends", () => {
    expect(daysInRange("2025-03-29", "2025-03-31")).toBe(3);
    expect(daysInRange("2025-10-25", "2025-10-27")).toBe(3);
  });
});

describe("the analytics query", () => {
  it("answers in JSON unless asked for CSV", () => {
    expect(analyticsQuerySchema.parse(range)).toEqual({ ...range, format: "json" });
    keeps(analyticsQuerySchema, { ...range, store_id: uuid, format: "csv" });
    keeps(analyticsQuerySchema, { ...range, format: "json" });
    expect(queryMessage({ format: "xlsx" }, "format")).toBe("format must be json or csv");
  });

  it("needs both days", () => {
    expect(messageAt(analyticsQuerySchema, { to: range.to }, "from")).toBe("from is required (YYYY-MM-DD)");
    expect(messageAt(analyticsQuerySchema, { from: range.from }, "to")).toBe("to is required (YYYY-MM-DD)");
    expect(queryMessage({ from: 20250101 }, "from")).toBe("from is required (YYYY-MM-DD)");
  });

  it("takes days only as YYYY-MM-DD", () => {
    for (const from of ["2025-1-01", "2025-01-01T00:00:00Z", " 2025-01-01", "x2025-01-01", "25-01-01", ""]) {
      expect(queryMessage({ from }, "from")).toBe("from must be a date (YYYY-MM-DD)");
    }
    expect(queryMessage({ to: "2025-01-31x" }, "to")).toBe("to must be a date (YYYY-MM-DD)");
  });

  it("takes only real calendar days", () => {
    expect(query({ from: "2024-02-29", to: "2024-03-01" }).success).toBe(true);
    expect(queryMessage({ from: "2025-02-29", to: "2025-03-01" }, "from")).toBe("from must be a real calendar date");
    expect(queryMessage({ to: "2025-02-30" }, "to")).toBe("to must be a real calendar date");
    expect(queryMessage({ to: "2025-13-01" }, "to")).toBe("to must be a real calendar date");
    expect(queryMessage({ from: "2025-00-10" }, "from")).toBe("from must be a real calendar date");
  });

  it("ends on or after the day it starts", () => {
    expect(query({ from: "2025-01-31", to: "2025-01-31" }).success).toBe(true);
    expect(queryMessage({ from: "2025-02-01", to: "2025-01-31" }, "to")).toBe("to must be on or after from");
    expect(queryMessage({ from: "2026-01-01", to: "2025-01-01" }, "to")).toBe("to must be on or after from");
  });

  it("covers at most 400 days, both ends counted", () => {
    expect(ANALYTICS_MAX_DAYS).toBe(400);
    expect(daysInRange("2025-01-01", "2026-02-04")).toBe(400);
    expect(query({ from: "2025-01-01", to: "2026-02-04" }).success).toBe(true);
    expect(queryMessage({ from: "2025-01-01", to: "2026-02-05" }, "to")).toBe("The range may cover at most 400 days");
    expect(queryMessage({ from: "2020-01-01", to: "2025-01-01" }, "to")).toBe("The range may cover at most 400 days");
  });

  it("says one thing at a time about the range", () => {
    const backwards = analyticsQuerySchema.safeParse({ from: "2026-02-05", to: "2025-01-01" });
    expect(backwards.error?.issues.map((issue) => issue.message)).toEqual(["to must be on or after from"]);
  });

  it("filters by a store's UUID", () => {
    expect(queryMessage({ store_id: "st1" }, "store_id")).toBe("store_id must be a UUID");
  });
});

describe("the top products and categories query", () => {
  const top = (input: Record<string, unknown>) => analyticsTopQuerySchema.safeParse({ ...range, ...input });
  const topMessage = (input: Record<string, unknown>) =>
    messageAt(analyticsTopQuerySchema, { ...range, ...input }, "limit");

  it("lists the top 10 by default", () => {
    expect(ANALYTICS_TOP_LIMIT).toEqual({ default: 10, max: 100 });
    expect(analyticsTopQuerySchema.parse(range)).toEqual({ ...range, format: "json", limit: 10 });
  });

  it("reads from 1 to 100 from the query string", () => {
    expect(top({ limit: "1" }).data).toMatchObject({ limit: 1 });
    expect(top({ limit: "100" }).data).toMatchObject({ limit: 100 });
    expect(topMessage({ limit: "0" })).toBe("limit must be at least 1");
    expect(topMessage({ limit: "101" })).toBe("limit must be at most 100");
    expect(topMessage({ limit: "2.5" })).toBe("limit must be a whole number");
    expect(topMessage({ limit: "many" })).toBe("limit must be a whole number");
  });

  it("keeps the range rules of every analytics query", () => {
    keeps(analyticsTopQuerySchema, { ...range, store_id: uuid, format: "csv", limit: 5 });
    expect(messageAt(analyticsTopQuerySchema, { from: "2025-02-01", to: "2025-01-31" }, "to")).toBe(
      "to must be on or after from",
    );
  });
});

describe("analytics answers", () => {
  it("keeps every field of the summary, money to the öre", () => {
    const summary = {
      revenue: 1234.5,
      vat: 132.27,
      revenue_excl_vat: 1102.23,
      orders: 3,
      items: 7,
      entries: 4,
      conversion: 0.75,
      average_basket: 411.5,
      average_items: 2.33,
      refunds: 1,
      refunded: 9.95,
      net_revenue: 1224.55,
    };
    keeps(analyticsSummarySchema, summary);
    keeps(analyticsSummarySchema, {
      ...summary,
      entries: 0,
      orders: 0,
      conversion: null,
      average_basket: null,
      average_items: null,
    });
  });

  it("keeps every field of revenue per day, per store and per store and day", () => {
    const day = { day: "2025-01-02", revenue: 59.8, vat: 6.41, orders: 2 };
    const store = { store_id: "st1", store_name: "Butik", revenue: 59.8, vat: 6.41, orders: 2 };
    keeps(analyticsRevenueDaySchema, day);
    keeps(analyticsRevenueStoreSchema, store);
    keeps(analyticsRevenueSchema, { days: [day], stores: [store] });
    keeps(analyticsRevenueSchema, { days: [], stores: [] });
    keeps(analyticsRevenueRowSchema, { ...store, day: "2025-01-02" });
  });

  it("keeps every field of the hours, top products, top categories and refunds", () => {
    keeps(analyticsHourSchema, { hour: 17, entries: 12, purchases: 9 });
    const product = { product_id: "p1", name: "Ost", category: "Mejeri", quantity: 4, revenue: 199.6 };
    keeps(analyticsTopProductSchema, product);
    keeps(analyticsTopProductSchema, { ...product, product_id: null, category: null });
    keeps(analyticsTopCategorySchema, { category: "Mejeri", quantity: 4, revenue: 199.6 });
    keeps(analyticsTopCategorySchema, { category: null, quantity: 1, revenue: 0.05 });
    keeps(analyticsRefundDaySchema, { day: "2025-01-03", refunds: 2, amount: 14.9 });
  });

  it("names the six tables with a CSV export as their paths do", () => {
    expect(ANALYTICS_TABLES).toEqual([
      "summary",
      "revenue",
      "sessions-by-hour",
      "top-products",
      "top-categories",
      "refunds",
    ]);
  });
});
