import { sql } from "drizzle-orm";
import { check, date, index, integer, pgTable, primaryKey, timestamp, uuid } from "drizzle-orm/pg-core";
import { products } from "./products.ts";
import { stores } from "./stores.ts";

/**
 * A store's own price for a product, over the catalogue's (per kilogram for
 * weighed goods, like the catalogue's). A scan in the store fixes this price
 * on the cart line.
 */
export const storePrices = pgTable(
  "store_prices",
  {
    storeId: uuid("store_id")
      .notNull()
      .references(() => stores.id, { onDelete: "cascade" }),
    productId: uuid("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    priceOre: integer("price_ore").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.storeId, t.productId] }),
    index("store_prices_product_idx").on(t.productId),
    check("store_prices_price_check", sql`${t.priceOre} >= 0`),
  ],
);

/**
 * A time-bound price ("Kampanj") for a product in one store, or in every store
 * when store_id is null, from one day to another (both inclusive, in each
 * store's own calendar). A scan takes it when it is below the store's
 * ordinary price; the line keeps the ordinary price beside it.
 */
export const campaigns = pgTable(
  "campaigns",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    productId: uuid("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    storeId: uuid("store_id").references(() => stores.id, { onDelete: "cascade" }),
    priceOre: integer("price_ore").notNull(),
    startsOn: date("starts_on").notNull(),
    endsOn: date("ends_on").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("campaigns_product_idx").on(t.productId, t.endsOn),
    index("campaigns_store_idx").on(t.storeId),
    check("campaigns_price_check", sql`${t.priceOre} >= 0`),
    check("campaigns_days_check", sql`${t.endsOn} >= ${t.startsOn}`),
  ],
);
