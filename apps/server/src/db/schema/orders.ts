import { sql } from "drizzle-orm";
import { bigint, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { offers } from "./pricing.ts";
import { products } from "./products.ts";
import { customers, shoppingSessions, storeDeviceKeys } from "./shoppers.ts";
import { stores } from "./stores.ts";

/**
 * A visit's purchase: made from the cart at the exit, charged once, and kept
 * as the receipt (bokföringslagen: seven years), so it keeps what the receipt
 * shows even when the shopper, the visit or the store is later deleted.
 */
export const orders = pgTable(
  "orders",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    sessionId: uuid("session_id").references(() => shoppingSessions.id, { onDelete: "set null" }),
    customerId: uuid("customer_id").references(() => customers.id, { onDelete: "set null" }),
    storeId: uuid("store_id").references(() => stores.id, { onDelete: "set null" }),
    /**
     * awaiting_payment: made, not yet charged; charging: the provider has been asked;
     * unsettled: the provider did not answer (settled later with the same key);
     * declined: refused, the cart stays open; paid: charged and captured.
     */
    state: text("state", { enum: ["awaiting_payment", "charging", "unsettled", "declined", "paid"] })
      .notNull()
      .default("awaiting_payment"),
    /** Per store, from 1, given when the order is paid: no gaps. */
    receiptNumber: integer("receipt_number"),
    /** Bumped after a definite decline, so the next try is a new charge with a new idempotency key. */
    attempt: integer("attempt").notNull().default(1),
    totalOre: bigint("total_ore", { mode: "number" }).notNull(),
    vatOre: bigint("vat_ore", { mode: "number" }).notNull(),
    /**
     * Paid with pant machine vouchers (pant_vouchers): a means of payment,
     * not a discount, so the receipt's total and VAT stand; the card pays
     * total_ore − voucher_ore, and only that can be given back to it.
     */
    voucherOre: bigint("voucher_ore", { mode: "number" }).notNull().default(0),
    currency: text("currency").notNull().default("SEK"),
    storeName: text("store_name").notNull(),
    storeLegalName: text("store_legal_name"),
    storeOrganizationNumber: text("store_organization_number"),
    storeAddress: text("store_address"),
    paymentIntentId: text("payment_intent_id"),
    cardBrand: text("card_brand"),
    cardLast4: text("card_last4"),
    failureCode: text("failure_code"),
    /** When a request began asking the provider; others wait for it, and take over only after a lease. */
    chargeStartedAt: timestamp("charge_started_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    /** Given back through the provider (refunds that succeeded or are under way); never above total_ore. */
    refundedOre: bigint("refunded_ore", { mode: "number" }).notNull().default(0),
  },
  (t) => [
    uniqueIndex("orders_session_idx").on(t.sessionId),
    uniqueIndex("orders_store_receipt_idx").on(t.storeId, t.receiptNumber),
    // The Sessions list's search by receipt number, in every store.
    index("orders_receipt_idx").on(t.receiptNumber),
    index("orders_customer_idx").on(t.customerId, t.createdAt),
    check("orders_total_check", sql`${t.totalOre} >= 0`),
    check("orders_refunded_check", sql`${t.refundedOre} >= 0 AND ${t.refundedOre} <= ${t.totalOre} - ${t.voucherOre}`),
    check(
      "orders_voucher_check",
      sql`${t.voucherOre} = 0 OR (${t.voucherOre} > 0 AND ${t.voucherOre} < ${t.totalOre})`,
    ),
    index("orders_store_paid_idx").on(t.storeId, t.paidAt),
  ],
);

export const orderLines = pgTable(
  "order_lines",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    productId: uuid("product_id").references(() => products.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    quantity: integer("quantity").notNull(),
    unitPriceOre: integer("unit_price_ore").notNull(),
    /** Hundredths of a percent: 25 % is 2500. Prices include VAT. */
    vatRateBp: integer("vat_rate_bp").notNull(),
    /** quantity × (unit_price_ore + pant_ore): the pant is charged, taxed and refunded with its product. */
    totalOre: bigint("total_ore", { mode: "number" }).notNull(),
    weightGrams: integer("weight_grams"),
    /** Öre of pant for one unit, 0 without; shown as a line of its own under the product. */
    pantOre: integer("pant_ore").notNull().default(0),
    /** The store's ordinary price for one when the line was sold at a campaign's ("Kampanj"); null otherwise. */
    ordinaryUnitOre: integer("ordinary_unit_ore"),
    /**
     * The part of the order's multi-buy discounts taken from this line's goods
     * (order_discounts): what was paid for the line is total_ore − discount_ore,
     * and a refund of its units gives back no more than that.
     */
    discountOre: bigint("discount_ore", { mode: "number" }).notNull().default(0),
    /** cart: from the visit's cart at the exit; spot_check: added by staff at a check (charged apart). */
    origin: text("origin").notNull().default("cart"),
    /** Given back so far (refunds that succeeded or are under way): never more than the line. */
    refundedQuantity: integer("refunded_quantity").notNull().default(0),
    refundedOre: bigint("refunded_ore", { mode: "number" }).notNull().default(0),
  },
  (t) => [
    index("order_lines_order_idx").on(t.orderId, t.position),
    check(
      "order_lines_refunded_check",
      sql`${t.refundedQuantity} >= 0 AND ${t.refundedQuantity} <= ${t.quantity} AND ${t.refundedOre} >= 0 AND ${t.refundedOre} <= ${t.totalOre} - ${t.discountOre}`,
    ),
    check("order_lines_discount_check", sql`${t.discountOre} >= 0 AND ${t.discountOre} <= ${t.totalOre}`),
  ],
);

/**
 * A multi-buy discount of an order, a line of its own on the kvitto ("3 för 2
 * Bregott −49,90"). Its amount is spread over the order lines it was taken
 * from (order_lines.discount_ore), which is where VAT and refunds count it.
 */
export const orderDiscounts = pgTable(
  "order_discounts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    /** The offer it came from; the label keeps what the kvitto said once the offer is gone. */
    offerId: uuid("offer_id").references(() => offers.id, { onDelete: "set null" }),
    label: text("label").notNull(),
    times: integer("times").notNull(),
    amountOre: bigint("amount_ore", { mode: "number" }).notNull(),
  },
  (t) => [
    index("order_discounts_order_idx").on(t.orderId, t.position),
    check("order_discounts_amount_check", sql`${t.amountOre} > 0 AND ${t.times} > 0`),
  ],
);

/** The last receipt number each store gave; taken under a row lock in the paying transaction. */
export const storeReceiptCounters = pgTable("store_receipt_counters", {
  storeId: uuid("store_id")
    .primaryKey()
    .references(() => stores.id, { onDelete: "cascade" }),
  lastNumber: integer("last_number").notNull().default(0),
});

/** Exit codes already read at a gate: each opens it once. */
export const exitTokenUses = pgTable("exit_token_uses", {
  nonce: text("nonce").primaryKey(),
  sessionId: uuid("session_id").references(() => shoppingSessions.id, { onDelete: "cascade" }),
  usedAt: timestamp("used_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every pant machine voucher (pantkvitto) the chain's machines printed, as
 * each machine reported it (its pant_machine device key): the only vouchers a
 * cart takes, at the value printed. Kept after use, so a code is never
 * printed twice.
 */
export const issuedPantVouchers = pgTable(
  "issued_pant_vouchers",
  {
    code: text("code").primaryKey(),
    amountOre: integer("amount_ore").notNull(),
    storeId: uuid("store_id")
      .notNull()
      .references(() => stores.id, { onDelete: "cascade" }),
    /** The machine that printed it; null once its key is revoked. */
    deviceKeyId: uuid("device_key_id").references(() => storeDeviceKeys.id, { onDelete: "set null" }),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("issued_pant_vouchers_amount_check", sql`${t.amountOre} > 0`)],
);

/**
 * Every pant machine voucher (pantkvitto) a shopper scanned, by its code: a
 * voucher is taken once in the whole chain. It belongs to the visit whose
 * cart holds it (taken out again, it is free for another), then to the order
 * it paid. A visit that ends with nothing to pay gives its vouchers back.
 */
export const pantVouchers = pgTable(
  "pant_vouchers",
  {
    code: text("code").primaryKey(),
    amountOre: integer("amount_ore").notNull(),
    sessionId: uuid("session_id").references(() => shoppingSessions.id, { onDelete: "set null" }),
    storeId: uuid("store_id").references(() => stores.id, { onDelete: "set null" }),
    orderId: uuid("order_id").references(() => orders.id, { onDelete: "set null" }),
    /** The phone's scan id: the same scan sent again answers as the first did. */
    scanId: uuid("scan_id"),
    scannedAt: timestamp("scanned_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("pant_vouchers_session_idx").on(t.sessionId),
    index("pant_vouchers_order_idx").on(t.orderId),
    check("pant_vouchers_amount_check", sql`${t.amountOre} > 0`),
  ],
);
