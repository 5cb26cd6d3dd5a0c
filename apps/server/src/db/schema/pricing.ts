import { sql } from "drizzle-orm";
import { boolean, check, date, index, integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
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
    /** For members of the chain only; others see it as "Medlemspris". */
    membersOnly: boolean("members_only").notNull().default(false),
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

/**
 * A multi-buy offer (contracts' pricing-rules Offer): `buy` units of its
 * products (one product, or a set to mix and match) for the price of the
 * `buy - 1` dearest ("3 för 2", "köp 2, få 1 på köpet": kind one_free), or for
 * an amount ("2 för 35 kr": kind amount, amount_ore), in one store or every
 * store (store_id null), from one day to another in each store's calendar,
 * at most limit_per_visit times a visit (null: no limit).
 */
export const offers = pgTable(
  "offers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    label: text("label").notNull(),
    kind: text("kind").notNull(),
    buy: integer("buy").notNull(),
    amountOre: integer("amount_ore"),
    storeId: uuid("store_id").references(() => stores.id, { onDelete: "cascade" }),
    startsOn: date("starts_on").notNull(),
    endsOn: date("ends_on").notNull(),
    limitPerVisit: integer("limit_per_visit"),
    /** For members of the chain only. */
    membersOnly: boolean("members_only").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("offers_store_idx").on(t.storeId),
    index("offers_days_idx").on(t.endsOn),
    check("offers_kind_check", sql`${t.kind} in ('one_free', 'amount')`),
    check("offers_buy_check", sql`${t.buy} between 2 and 20`),
    check(
      "offers_amount_check",
      sql`(${t.kind} = 'amount') = (${t.amountOre} is not null) and (${t.amountOre} is null or ${t.amountOre} >= 0)`,
    ),
    check("offers_days_check", sql`${t.endsOn} >= ${t.startsOn}`),
    check("offers_limit_check", sql`${t.limitPerVisit} is null or ${t.limitPerVisit} > 0`),
  ],
);

/** The products an offer takes: one, or a set whose units mix and match. */
export const offerProducts = pgTable(
  "offer_products",
  {
    offerId: uuid("offer_id")
      .notNull()
      .references(() => offers.id, { onDelete: "cascade" }),
    productId: uuid("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.offerId, t.productId] }), index("offer_products_product_idx").on(t.productId)],
);
