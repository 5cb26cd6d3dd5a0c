import { z } from "zod";

/**
 * The Analytics screen's figures. Days are store-local calendar days (each
 * store's own time zone); money is kronor incl. VAT unless a field says
 * otherwise. Definitions: docs/analytics.md.
 */

/** The longest range one call may ask for, in days (both ends counted). */
export const ANALYTICS_MAX_DAYS = 400;
export const ANALYTICS_TOP_LIMIT = { default: 10, max: 100 } as const;

/** Days between two YYYY-MM-DD dates, both counted: 2025-01-01 to 2025-01-01 is 1. */
export function daysInRange(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** A real calendar day: 2025-02-30 parses as a date in JavaScript, so the round trip must match. */
const day = (field: string) =>
  z
    .string({ error: `${field} is required (YYYY-MM-DD)` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${field} must be a date (YYYY-MM-DD)`)
    .refine((v) => {
      const t = Date.parse(`${v}T00:00:00Z`);
      return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === v;
    }, `${field} must be a real calendar date`);

export const analyticsQuerySchema = z
  .object({
    /** First day, inclusive, store-local. */
    from: day("from"),
    /** Last day, inclusive, store-local. */
    to: day("to"),
    /** One store; without it, every store the admin may see. */
    store_id: z.uuid("store_id must be a UUID").optional(),
    /** csv: the same table as a CSV download. */
    format: z.enum(["json", "csv"], { error: "format must be json or csv" }).default("json"),
  })
  .superRefine((q, ctx) => {
    if (q.to < q.from) {
      ctx.addIssue({ code: "custom", path: ["to"], message: "to must be on or after from" });
    } else if (daysInRange(q.from, q.to) > ANALYTICS_MAX_DAYS) {
      ctx.addIssue({
        code: "custom",
        path: ["to"],
        message: `The range may cover at most ${ANALYTICS_MAX_DAYS} days`,
      });
    }
  });
export type AnalyticsQuery = z.input<typeof analyticsQuerySchema>;

export const analyticsTopQuerySchema = analyticsQuerySchema.safeExtend({
  limit: z.coerce
    .number({ error: "limit must be a whole number" })
    .int("limit must be a whole number")
    .min(1, "limit must be at least 1")
    .max(ANALYTICS_TOP_LIMIT.max, `limit must be at most ${ANALYTICS_TOP_LIMIT.max}`)
    .default(ANALYTICS_TOP_LIMIT.default),
});
export type AnalyticsTopQuery = z.input<typeof analyticsTopQuerySchema>;

export const analyticsSummarySchema = z.object({
  /** Paid orders' totals incl. VAT, by the day they were paid (spot-check additions included). */
  revenue: z.number(),
  vat: z.number(),
  revenue_excl_vat: z.number(),
  /** Paid orders. */
  orders: z.number().int(),
  items: z.number().int(),
  /** Doors opened for a visit. */
  entries: z.number().int(),
  /** Paid orders ÷ entries (0–1, four decimals); null with no entries. */
  conversion: z.number().nullable(),
  /** Revenue per paid order; null with no orders. */
  average_basket: z.number().nullable(),
  /** Items per paid order (two decimals); null with no orders. */
  average_items: z.number().nullable(),
  /** Refunds asked for in the range (pending or succeeded), by the day they were made. */
  refunds: z.number().int(),
  refunded: z.number(),
  /** revenue − refunded. */
  net_revenue: z.number(),
});
export type AnalyticsSummary = z.infer<typeof analyticsSummarySchema>;

/** Revenue incl. VAT, its VAT, and the paid orders it came from. */
const revenueFigures = {
  revenue: z.number(),
  vat: z.number(),
  orders: z.number().int(),
};

/** One store-local day, every store in view summed. */
export const analyticsRevenueDaySchema = z.object({ day: z.string(), ...revenueFigures });
export type AnalyticsRevenueDay = z.infer<typeof analyticsRevenueDaySchema>;

/** One store over the whole range. */
export const analyticsRevenueStoreSchema = z.object({
  store_id: z.string(),
  store_name: z.string(),
  ...revenueFigures,
});
export type AnalyticsRevenueStore = z.infer<typeof analyticsRevenueStoreSchema>;

/**
 * The revenue chart's figures: per day (stores summed) and per store (days
 * summed), days and stores without sales left out. A line per store and day
 * (20 stores × 365 days is 7,300 points, more than a chart can show) is in
 * the CSV only.
 */
export const analyticsRevenueSchema = z.object({
  days: z.array(analyticsRevenueDaySchema),
  /** Most revenue first. */
  stores: z.array(analyticsRevenueStoreSchema),
});
export type AnalyticsRevenue = z.infer<typeof analyticsRevenueSchema>;

/** A row of the revenue CSV: one store's one day. */
export const analyticsRevenueRowSchema = z.object({
  day: z.string(),
  store_id: z.string(),
  store_name: z.string(),
  ...revenueFigures,
});
export type AnalyticsRevenueRow = z.infer<typeof analyticsRevenueRowSchema>;

export const analyticsHourSchema = z.object({
  /** 0–23, the store-local hour of day. */
  hour: z.number().int(),
  entries: z.number().int(),
  purchases: z.number().int(),
});
export type AnalyticsHour = z.infer<typeof analyticsHourSchema>;

export const analyticsTopProductSchema = z.object({
  /** Null when the product has since been deleted (the name is then the line's). */
  product_id: z.string().nullable(),
  name: z.string(),
  category: z.string().nullable(),
  quantity: z.number().int(),
  revenue: z.number(),
});
export type AnalyticsTopProduct = z.infer<typeof analyticsTopProductSchema>;

export const analyticsTopCategorySchema = z.object({
  /** Null for products without a category. */
  category: z.string().nullable(),
  quantity: z.number().int(),
  revenue: z.number(),
});
export type AnalyticsTopCategory = z.infer<typeof analyticsTopCategorySchema>;

export const analyticsRefundDaySchema = z.object({
  day: z.string(),
  refunds: z.number().int(),
  amount: z.number(),
});
export type AnalyticsRefundDay = z.infer<typeof analyticsRefundDaySchema>;

/** The tables that have a CSV export, as named in their paths. */
export const ANALYTICS_TABLES = [
  "summary",
  "revenue",
  "sessions-by-hour",
  "top-products",
  "top-categories",
  "refunds",
] as const;
export type AnalyticsTable = (typeof ANALYTICS_TABLES)[number];
