import { VISIT_STATES } from "@glide/contracts";
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  date,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { stores } from "./stores.ts";

/**
 * Shoppers, created at their first BankID sign-in. The personal number is
 * never stored in plain text: sealed with AES-GCM, found by a keyed hash.
 */
export const customers = pgTable("customers", {
  id: uuid("id").primaryKey().defaultRandom(),
  personalNumberHash: text("personal_number_hash").notNull().unique(),
  personalNumberSealed: text("personal_number_sealed").notNull(),
  name: text("name").notNull(),
  givenName: text("given_name"),
  surname: text("surname"),
  /** From the personal number, for age checks at scan and payment. */
  birthDate: date("birth_date").notNull(),
  email: text("email"),
  /** The payment provider's customer, and the card on file (only its brand and last four are known here). */
  paymentCustomerId: text("payment_customer_id"),
  paymentMethodId: text("payment_method_id"),
  cardBrand: text("card_brand"),
  cardLast4: text("card_last4"),
  /** The shopper agreed to the face check at the exit; null when never given or withdrawn. */
  faceConsentAt: timestamp("face_consent_at", { withTimezone: true }),
  /**
   * A member of the chain since then (joined in the app with consent); null
   * when never joined or left. Members-only campaigns and offers apply to
   * members; others see them as "Medlemspris".
   */
  memberSince: timestamp("member_since", { withTimezone: true }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  lastSignInAt: timestamp("last_sign_in_at", { withTimezone: true }).notNull().defaultNow(),
});

/** BankID orders, so any instance can answer a collect or QR poll. */
export const bankidOrders = pgTable("bankid_orders", {
  orderRef: text("order_ref").primaryKey(),
  autoStartToken: text("auto_start_token").notNull(),
  qrStartToken: text("qr_start_token").notNull(),
  /** Never leaves the server: only QR codes made from it do. */
  qrStartSecret: text("qr_start_secret").notNull(),
  /** When BankID answered /auth: the QR code's clock starts here. */
  startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
  /** The browser that started the order (a hash of its device cookie). */
  deviceHash: text("device_hash").notNull(),
  endUserIp: text("end_user_ip").notNull(),
  autostart: boolean("autostart").notNull().default(false),
  mobile: boolean("mobile").notNull().default(false),
  status: text("status", { enum: ["pending", "failed", "complete"] })
    .notNull()
    .default("pending"),
  hintCode: text("hint_code"),
  errorCode: text("error_code"),
  lastCollectAt: timestamp("last_collect_at", { withTimezone: true }),
  customerId: uuid("customer_id").references(() => customers.id, { onDelete: "cascade" }),
  /** Tokens go out once, on the first collect that sees the order complete. */
  tokensIssuedAt: timestamp("tokens_issued_at", { withTimezone: true }),
});

export const shopperRefreshTokens = pgTable(
  "shopper_refresh_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    customerId: uuid("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
    /** All tokens rotated from one sign-in; reuse of a spent one revokes the family. */
    familyId: uuid("family_id").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("shopper_refresh_family_idx").on(t.familyId)],
);

/** A shopper's visit to a store: entry token, door, and later the cart. */
export const shoppingSessions = pgTable(
  "shopping_sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    customerId: uuid("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
    storeId: uuid("store_id")
      .notNull()
      .references(() => stores.id, { onDelete: "cascade" }),
    /** SHA-256 of the entry token in the QR code; usable once, until entryExpiresAt. */
    entryTokenHash: text("entry_token_hash").notNull(),
    entryExpiresAt: timestamp("entry_expires_at", { withTimezone: true }).notNull(),
    doorOpenedAt: timestamp("door_opened_at", { withTimezone: true }),
    /**
     * Where the visit stands: features/visits/visit-state.ts is the one place
     * that moves it (entering, in_store, charging, paid, ended_empty,
     * left_unpaid, written_off, cancelled). The timestamps beside it say when.
     */
    state: text("state", { enum: VISIT_STATES }).notNull().default("entering"),
    /** The current entry code opened the door; a new code for an open visit (re-entry) clears it. */
    entryUsedAt: timestamp("entry_used_at", { withTimezone: true }),
    /** The exit gate opened for the visit: the shopper has gone, whatever the payment says. */
    exitedAt: timestamp("exited_at", { withTimezone: true }),
    /** The shopper cancelled this entry code or asked for a newer one: it no longer opens the door. */
    entryRevokedAt: timestamp("entry_revoked_at", { withTimezone: true }),
    /** The visit ended paid or empty: its cart can no longer change. */
    checkedOutAt: timestamp("checked_out_at", { withTimezone: true }),
    /** The last thing the shopper (or the store) did in this visit; the abandoned-visit sweep reads it. */
    lastActivityAt: timestamp("last_activity_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * Raised once by every transaction that changes the visit's cart lines (a trigger on cart_items, or the scan's
     * own statement): the same number always means the same committed lines, so an instance may keep them under it.
     */
    cartVersion: bigint("cart_version", { mode: "number" }).notNull().default(0),
    /** The transaction (txid_current) that last raised cart_version: it raises it once however many lines it writes. */
    cartChangedBy: bigint("cart_changed_by", { mode: "number" }),
    /** Closed by the sweep after no activity for store/abandon_after_minutes: empty, or left unpaid with its cart kept. */
    abandonedAt: timestamp("abandoned_at", { withTimezone: true }),
    /** The visit's one draw for a staff check was made (at its first exit: the gate, or paying from the phone). */
    spotCheckDrawnAt: timestamp("spot_check_drawn_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("shopping_sessions_customer_idx").on(t.customerId),
    index("shopping_sessions_store_idx").on(t.storeId, t.createdAt),
    // The Sessions list: newest entry first (a backward scan: the list's "desc, nulls first"), over all stores and per store.
    index("shopping_sessions_entered_idx").on(t.doorOpenedAt, t.id).where(sql`${t.doorOpenedAt} IS NOT NULL`),
    index("shopping_sessions_store_entered_idx")
      .on(t.storeId, t.doorOpenedAt, t.id)
      .where(sql`${t.doorOpenedAt} IS NOT NULL`),
    check(
      "shopping_sessions_state_check",
      sql`${t.state} in ('entering', 'in_store', 'charging', 'paid', 'ended_empty', 'left_unpaid', 'written_off', 'cancelled')`,
    ),
    // A shopper has at most one open visit per store: the door never opens a second one.
    uniqueIndex("shopping_sessions_one_open_idx")
      .on(t.customerId, t.storeId)
      .where(sql`${t.state} in ('in_store', 'charging')`),
    // Its rarer statuses: visits inside the store (entered, shopping), those the sweep closed, and those left unpaid.
    index("shopping_sessions_inside_idx").on(t.doorOpenedAt, t.id).where(sql`${t.state} in ('in_store', 'charging')`),
    index("shopping_sessions_abandoned_idx")
      .on(t.doorOpenedAt, t.id)
      .where(
        sql`${t.state} in ('left_unpaid', 'written_off') OR (${t.state} = 'ended_empty' AND ${t.abandonedAt} IS NOT NULL)`,
      ),
    index("shopping_sessions_open_idx").on(t.lastActivityAt).where(sql`${t.state} = 'in_store'`),
    // A shopper's visits that still owe something: checked at every entry.
    index("shopping_sessions_unpaid_idx").on(t.customerId).where(sql`${t.state} = 'left_unpaid'`),
  ],
);

/** Keys of a store's devices (door scanner, exit gate, recognition worker, pant machine); only hashes are kept. */
export const storeDeviceKeys = pgTable(
  "store_device_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    storeId: uuid("store_id")
      .notNull()
      .references(() => stores.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["door_scanner", "exit_gate", "camera_worker", "pant_machine"] }).notNull(),
    keyHash: text("key_hash").notNull().unique(),
    label: text("label"),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("store_device_keys_store_idx").on(t.storeId)],
);

/** Door openings, for the store's audit trail. */
export const doorEvents = pgTable("door_events", {
  id: uuid("id").primaryKey().defaultRandom(),
  storeId: uuid("store_id")
    .notNull()
    .references(() => stores.id, { onDelete: "cascade" }),
  sessionId: uuid("session_id").references(() => shoppingSessions.id, { onDelete: "set null" }),
  via: text("via").notNull(),
  detail: jsonb("detail"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
