import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { products } from "./products.ts";

/**
 * A price group: stores that share prices (stores.price_group_id). A scan in
 * a store of the group takes the group's price of a product where the store
 * has none of its own, before the catalogue's. Names are unique, case aside.
 */
export const priceGroups = pgTable(
  "price_groups",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("price_groups_name_idx").on(sql`lower(${t.name})`)],
);

/** A price group's price for a product (per kilogram for weighed goods, like the catalogue's). */
export const priceGroupPrices = pgTable(
  "price_group_prices",
  {
    groupId: uuid("group_id")
      .notNull()
      .references(() => priceGroups.id, { onDelete: "cascade" }),
    productId: uuid("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    priceOre: integer("price_ore").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.productId] }),
    index("price_group_prices_product_idx").on(t.productId),
    check("price_group_prices_price_check", sql`${t.priceOre} >= 0`),
  ],
);
