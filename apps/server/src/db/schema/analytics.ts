import { bigint, date, integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { stores } from "./stores.ts";

/**
 * Rollups for the Analytics screen, kept by triggers (migration
 * 0012_analytics) in the same transaction as the rows they count, so they
 * are never behind and never counted twice. Buckets are store-local: a
 * store's hour and day as its time zone shows them at the time of the event.
 * Figures are in öre; bigint because a year of a busy chain passes 2^31 öre.
 */
export const analyticsStoreHours = pgTable(
  "analytics_store_hours",
  {
    storeId: uuid("store_id")
      .notNull()
      .references(() => stores.id, { onDelete: "cascade" }),
    /** The store-local hour (wall-clock time in the store's time zone, minutes zero). */
    hour: timestamp("hour", { withTimezone: false }).notNull(),
    /** Doors opened for a visit in this hour. */
    entries: integer("entries").notNull().default(0),
    /** Orders paid in this hour, with their totals incl. VAT, their VAT and their items. */
    purchases: integer("purchases").notNull().default(0),
    revenueOre: bigint("revenue_ore", { mode: "number" }).notNull().default(0),
    vatOre: bigint("vat_ore", { mode: "number" }).notNull().default(0),
    items: integer("items").notNull().default(0),
    /** Refunds made in this hour (pending or succeeded; a failed one is taken back out). */
    refunds: integer("refunds").notNull().default(0),
    refundsOre: bigint("refunds_ore", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.storeId, t.hour] })],
);

/** What each product sold per store and store-local day (paid orders, spot-check additions included). */
export const analyticsProductDays = pgTable(
  "analytics_product_days",
  {
    storeId: uuid("store_id")
      .notNull()
      .references(() => stores.id, { onDelete: "cascade" }),
    day: date("day").notNull(),
    /** The product's id as text, or the line's name when the line has no product any more. */
    productKey: text("product_key").notNull(),
    productId: uuid("product_id"),
    /** Name and category as last sold that day. */
    name: text("name").notNull(),
    category: text("category"),
    quantity: integer("quantity").notNull().default(0),
    revenueOre: bigint("revenue_ore", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.storeId, t.day, t.productKey] })],
);

/**
 * The same per calendar month (month: its first day), so a year reads twelve
 * rows per product and store instead of 365; a range's partial months at its
 * ends are read from the days.
 */
export const analyticsProductMonths = pgTable(
  "analytics_product_months",
  {
    storeId: uuid("store_id")
      .notNull()
      .references(() => stores.id, { onDelete: "cascade" }),
    month: date("month").notNull(),
    productKey: text("product_key").notNull(),
    productId: uuid("product_id"),
    name: text("name").notNull(),
    category: text("category"),
    quantity: integer("quantity").notNull().default(0),
    revenueOre: bigint("revenue_ore", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.storeId, t.month, t.productKey] })],
);
