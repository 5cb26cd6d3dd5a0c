import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { adminUsers } from "./admin.ts";
import { orderLines, orders } from "./orders.ts";
import { customers, shoppingSessions } from "./shoppers.ts";

/**
 * What happened in a visit, in order, and who or what did it: the Sessions
 * screen's timeline. Kept with the visit (deleted with it).
 */
export const sessionEvents = pgTable(
  "session_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    sessionId: uuid("session_id")
      .notNull()
      .references(() => shoppingSessions.id, { onDelete: "cascade" }),
    storeId: uuid("store_id"),
    /**
     * entry_issued, entry_revoked, door_opened, item_added, quantity_changed,
     * item_removed, exit_qr, face_check, checkout, charge_failed, charged,
     * abandoned, spot_check_flagged, spot_check_outcome, refund, dispute…
     */
    kind: text("kind").notNull(),
    /** phone, camera_worker, staff, door, exit_gate, system */
    source: text("source").notNull(),
    /** The admin when staff did it. */
    adminId: uuid("admin_id").references(() => adminUsers.id, { onDelete: "set null" }),
    detail: jsonb("detail"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("session_events_session_idx").on(t.sessionId, t.id)],
);

/** Money given back through the payment provider: one row per request, never more than was captured. */
export const refunds = pgTable(
  "refunds",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    storeId: uuid("store_id"),
    amountOre: bigint("amount_ore", { mode: "number" }).notNull(),
    reason: text("reason").notNull(),
    /** staff (a refund in the console), spot_check (items removed at a check), dispute */
    source: text("source").notNull().default("staff"),
    /** pending: the provider has been asked; succeeded; failed (the amount is free again). */
    state: text("state", { enum: ["pending", "succeeded", "failed"] })
      .notNull()
      .default("pending"),
    /** The client's key: the same key again answers with this refund, never a second one. */
    idempotencyKey: text("idempotency_key").notNull(),
    providerRefundId: text("provider_refund_id"),
    failureCode: text("failure_code"),
    requestedBy: uuid("requested_by").references(() => adminUsers.id, { onDelete: "set null" }),
    disputeId: uuid("dispute_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("refunds_idempotency_idx").on(t.idempotencyKey),
    index("refunds_order_idx").on(t.orderId),
    index("refunds_store_created_idx").on(t.storeId, t.createdAt),
    check("refunds_amount_check", sql`${t.amountOre} > 0`),
  ],
);

/** Which lines (and how many of each) a refund gave back; a whole-order refund names every line. */
export const refundLines = pgTable(
  "refund_lines",
  {
    refundId: uuid("refund_id")
      .notNull()
      .references(() => refunds.id, { onDelete: "cascade" }),
    orderLineId: uuid("order_line_id")
      .notNull()
      .references(() => orderLines.id, { onDelete: "cascade" }),
    quantity: integer("quantity").notNull(),
    amountOre: bigint("amount_ore", { mode: "number" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.refundId, t.orderLineId] }),
    check("refund_lines_quantity_check", sql`${t.quantity} >= 0`),
    check("refund_lines_amount_check", sql`${t.amountOre} >= 0`),
  ],
);

/** A shopper's objection to a receipt, from the receipt page; staff resolve it (often with a refund). */
export const disputes = pgTable(
  "disputes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    customerId: uuid("customer_id").references(() => customers.id, { onDelete: "set null" }),
    storeId: uuid("store_id"),
    message: text("message").notNull(),
    state: text("state", { enum: ["open", "resolved", "rejected"] })
      .notNull()
      .default("open"),
    /** What staff answered; shown to the shopper. */
    resolution: text("resolution"),
    resolvedBy: uuid("resolved_by").references(() => adminUsers.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
  },
  (t) => [
    index("disputes_order_idx").on(t.orderId),
    index("disputes_store_state_idx").on(t.storeId, t.state, t.createdAt),
    uniqueIndex("disputes_one_open_idx").on(t.orderId).where(sql`${t.state} = 'open'`),
  ],
);

/** An exit picked for a staff check (the store's share, never a first visit) and what staff found. */
export const spotChecks = pgTable(
  "spot_checks",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    sessionId: uuid("session_id").references(() => shoppingSessions.id, { onDelete: "set null" }),
    orderId: uuid("order_id").references(() => orders.id, { onDelete: "set null" }),
    storeId: uuid("store_id"),
    customerId: uuid("customer_id").references(() => customers.id, { onDelete: "set null" }),
    flaggedAt: timestamp("flagged_at", { withTimezone: true }).notNull().defaultNow(),
    /** null while waiting for staff; ok, items_added, items_removed */
    outcome: text("outcome", { enum: ["ok", "items_added", "items_removed"] }),
    note: text("note"),
    /** What was added or removed: [{product_id|order_line_id, name, quantity, amount_ore}] */
    adjustments: jsonb("adjustments"),
    /** The extra charge for items added (öre) and the provider's id for it. */
    chargeOre: bigint("charge_ore", { mode: "number" }),
    chargeIntentId: text("charge_intent_id"),
    refundId: uuid("refund_id").references(() => refunds.id, { onDelete: "set null" }),
    decidedBy: uuid("decided_by").references(() => adminUsers.id, { onDelete: "set null" }),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("spot_checks_session_idx").on(t.sessionId),
    index("spot_checks_store_idx").on(t.storeId, t.flaggedAt),
  ],
);

/**
 * Every change made in the console (and by the admin CLI): who, when, what,
 * and the record before and after. Kept when the actor or the store goes.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull().defaultNow(),
    actorId: uuid("actor_id").references(() => adminUsers.id, { onDelete: "set null" }),
    /** The actor's e-mail at the time (kept when the admin is deleted); "cli" or "system" otherwise. */
    actorEmail: text("actor_email").notNull(),
    /** entity.verb: store.create, product.update, setting.update, camera.delete, refund.create… */
    action: text("action").notNull(),
    entityType: text("entity_type").notNull(),
    entityId: text("entity_id"),
    storeId: uuid("store_id"),
    /** A line a person reads: "Store Glide Demo renamed to …". */
    summary: text("summary").notNull(),
    before: jsonb("before"),
    after: jsonb("after"),
  },
  (t) => [
    index("audit_log_occurred_idx").on(t.occurredAt),
    index("audit_log_entity_idx").on(t.entityType, t.entityId),
    index("audit_log_actor_idx").on(t.actorId, t.occurredAt),
  ],
);
