import { sql } from "drizzle-orm";
import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { refunds } from "./operations.ts";
import { orders } from "./orders.ts";

/**
 * The receipt e-mail outbox: one row per paid order whose shopper gave an
 * e-mail, written in the transaction that marks the order paid, so a mail is
 * never lost and never slows the checkout. A sender works through the due
 * rows and marks each sent once the SMTP server has accepted it.
 */
export const receiptMails = pgTable(
  "receipt_mails",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    /** receipt: the kvitto, once per order; refund: a notice of money given back, once per refund. */
    kind: text("kind", { enum: ["receipt", "refund"] })
      .notNull()
      .default("receipt"),
    refundId: uuid("refund_id").references(() => refunds.id, { onDelete: "cascade" }),
    /** The shopper's address when they paid. */
    toAddress: text("to_address").notNull(),
    /** pending: not yet accepted by the SMTP server; sent: accepted; failed: refused for good, or given up. */
    state: text("state", { enum: ["pending", "sent", "failed"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    /** When a sender may next take it; while one is sending, the end of its lease. */
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    /** The last refusal: an error code and SMTP reply code only, never the address. */
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("receipt_mails_order_idx").on(t.orderId).where(sql`${t.kind} = 'receipt'`),
    uniqueIndex("receipt_mails_refund_idx").on(t.refundId),
    index("receipt_mails_due_idx").on(t.nextAttemptAt).where(sql`${t.state} = 'pending'`),
  ],
);
