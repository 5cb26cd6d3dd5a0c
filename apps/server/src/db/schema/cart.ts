import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { products } from "./products.ts";
import { shoppingSessions } from "./shoppers.ts";

/**
 * The lines of a visit's cart: the server's cart is the truth; the phone keeps
 * only a copy. One line per product, except that each variable-measure label
 * (a price or a weight printed in the code) is a line of its own.
 */
export const cartItems = pgTable(
  "cart_items",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    sessionId: uuid("session_id")
      .notNull()
      .references(() => shoppingSessions.id, { onDelete: "cascade" }),
    productId: uuid("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    /** The product id, or the whole label code for a variable-measure label. */
    lineKey: text("line_key").notNull(),
    quantity: integer("quantity").notNull(),
    /** Öre for one, fixed when the line was made. */
    unitPriceOre: integer("unit_price_ore").notNull(),
    weightGrams: integer("weight_grams"),
    /** Öre of pant for one, fixed when the line was made (the product's mark in the store's country); 0 without. */
    pantOre: integer("pant_ore").notNull().default(0),
    /** The store's ordinary price for one when a campaign fixed a lower one at the scan; null otherwise. */
    ordinaryUnitOre: integer("ordinary_unit_ore"),
    /**
     * For a shopper who is no member: the members' price for one, when a
     * members-only campaign valid at the scan is below what the line costs
     * ("Medlemspris"); null otherwise. Never charged.
     */
    memberUnitOre: integer("member_unit_ore"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("cart_items_session_line_idx").on(t.sessionId, t.lineKey),
    check("cart_items_quantity_check", sql`${t.quantity} > 0`),
    check("cart_items_price_check", sql`${t.unitPriceOre} >= 0`),
    check("cart_items_pant_check", sql`${t.pantOre} >= 0`),
  ],
);

/** Scans already counted, by the id the phone (or the camera worker) gave them. */
export const cartScans = pgTable(
  "cart_scans",
  {
    scanId: uuid("scan_id").primaryKey(),
    sessionId: uuid("session_id")
      .notNull()
      .references(() => shoppingSessions.id, { onDelete: "cascade" }),
    itemId: uuid("item_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("cart_scans_session_idx").on(t.sessionId)],
);
