import { z } from "zod";
import { cartDiscountSchema, cartVoucherSchema } from "./cart.ts";
import { linePantSchema } from "./pant.ts";

/**
 * The console's Sessions screen (issue 12): visits that went through the
 * door, their timeline and what they came to. Money is kronor with two
 * decimals; a shopper appears by name only, never by personal number.
 * Definitions: docs/sessions.md.
 */

/**
 * A visit's own state, as the server's state machine keeps it
 * (docs/sessions.md, "A visit's states"): entering (an entry code, not
 * through the door yet), in_store, charging (the cart is frozen while its
 * payment is under way), paid, ended_empty, left_unpaid (gone with goods and
 * no payment: staff charge the card on file or write it off), written_off,
 * cancelled (the entry code was dropped before the door).
 */
export const VISIT_STATES = [
  "entering",
  "in_store",
  "charging",
  "paid",
  "ended_empty",
  "left_unpaid",
  "written_off",
  "cancelled",
] as const;
export type VisitState = (typeof VISIT_STATES)[number];

/**
 * entered: inside, nothing in the cart yet; shopping: inside with cart
 * activity; checked_out: paid, or ended with an empty cart; abandoned: the
 * sweep closed it with an empty cart; left_unpaid: gone with goods and no
 * payment; written_off: staff wrote its goods off; disputed: its order has
 * an open dispute.
 */
export const SESSION_STATUSES = [
  "entered",
  "shopping",
  "checked_out",
  "abandoned",
  "left_unpaid",
  "written_off",
  "disputed",
] as const;
export const sessionStatusSchema = z.enum(SESSION_STATUSES);
export type SessionStatus = z.infer<typeof sessionStatusSchema>;

/** none: no order yet; the rest follow the order and its refunds. */
export const SESSION_PAYMENT_STATES = [
  "none",
  "charging",
  "unsettled",
  "declined",
  "paid",
  "partly_refunded",
  "refunded",
] as const;
export const sessionPaymentStateSchema = z.enum(SESSION_PAYMENT_STATES);
export type SessionPaymentState = z.infer<typeof sessionPaymentStateSchema>;

/** Who or what made a timeline event. */
export const SESSION_EVENT_SOURCES = ["phone", "camera_worker", "staff", "door", "exit_gate", "system"] as const;
export const sessionEventSourceSchema = z.enum(SESSION_EVENT_SOURCES);
export type SessionEventSource = z.infer<typeof sessionEventSourceSchema>;

export const SESSIONS_PAGE_SIZE = { default: 25, max: 100 } as const;
/**
 * The list counts matches up to this many (a year of a busy chain has over a
 * million visits): past it, X-Total-Count says this and X-Total-Count-Capped
 * "true", and pages go no further; filters narrow the rest.
 */
export const SESSIONS_COUNT_LIMIT = 10_000;

/** YYYY-MM-DD (a whole day) or a full ISO date-time. */
const dateOrTime = (field: string) =>
  z
    .string()
    .trim()
    .refine((v) => {
      if (/^\d{4}-\d{2}-\d{2}$/.test(v)) {
        const t = Date.parse(`${v}T00:00:00Z`);
        return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === v;
      }
      return /^\d{4}-\d{2}-\d{2}T/.test(v) && Number.isFinite(Date.parse(v));
    }, `${field} must be a date (YYYY-MM-DD) or a date-time (ISO 8601)`);

/** GET /api/v1/admin/sessions */
export const sessionListQuerySchema = z.object({
  store_id: z.uuid("store_id must be a UUID").optional(),
  status: z.enum(SESSION_STATUSES, { error: `status must be one of ${SESSION_STATUSES.join(", ")}` }).optional(),
  /** Entered on or after (a date: from the start of that day in the store's own time zone; or an exact ISO time). */
  from: dateOrTime("from").optional(),
  /** Entered on or before (a date: to the end of that day in the store's own time zone; or an exact ISO time). */
  to: dateOrTime("to").optional(),
  /** Shopper name, session id or receipt number; % and _ are matched literally. */
  search: z.string().max(200, "search must be at most 200 characters").optional(),
  limit: z.coerce
    .number({ error: "limit must be a whole number" })
    .int("limit must be a whole number")
    .min(1, "limit must be at least 1")
    .max(SESSIONS_PAGE_SIZE.max, `limit must be at most ${SESSIONS_PAGE_SIZE.max}`)
    .default(SESSIONS_PAGE_SIZE.default),
  offset: z.coerce
    .number({ error: "offset must be a whole number" })
    .int("offset must be a whole number")
    .min(0, "offset must be 0 or more")
    .max(SESSIONS_COUNT_LIMIT, `offset must be at most ${SESSIONS_COUNT_LIMIT}; narrow the filters to see older visits`)
    .default(0),
});
export type SessionListQuery = z.input<typeof sessionListQuerySchema>;

export const sessionIdParamsSchema = z.object({ id: z.uuid("id must be a UUID") });

export const sessionRowSchema = z.object({
  id: z.string(),
  store: z.object({ id: z.string(), name: z.string() }),
  status: sessionStatusSchema,
  /** The shopper's name as BankID gave it; null once the shopper is deleted. */
  shopper_name: z.string().nullable(),
  entered_at: z.string(),
  /** When the visit was paid or closed empty; null while inside or abandoned. */
  exited_at: z.string().nullable(),
  last_activity_at: z.string(),
  abandoned_at: z.string().nullable(),
  /** Lines and units: the cart while open, the order once there is one. */
  lines: z.number().int(),
  items: z.number().int(),
  /** Kronor: the cart total while open, the order total after. */
  total: z.number(),
  payment_state: sessionPaymentStateSchema,
  refunded: z.number(),
  receipt_number: z.number().int().nullable(),
  order_id: z.string().nullable(),
  /** pending (flagged, not decided yet), ok, items_added, items_removed; null when not flagged. */
  spot_check: z.string().nullable(),
  /** The latest dispute's state (open, resolved, rejected); null when none. */
  dispute: z.string().nullable(),
});
export type SessionRow = z.infer<typeof sessionRowSchema>;

export const sessionEventSchema = z.object({
  id: z.number().int(),
  kind: z.string(),
  source: sessionEventSourceSchema,
  /** The admin's e-mail when staff did it. */
  staff_email: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()).nullable(),
  at: z.string(),
});
export type SessionEvent = z.infer<typeof sessionEventSchema>;

export const sessionCartLineSchema = z.object({
  id: z.string(),
  product_id: z.string(),
  name: z.string(),
  quantity: z.number().int(),
  unit_price: z.number(),
  /** Kronor for one at the store's ordinary price, when a campaign price (Kampanj) is what the line costs; null otherwise. */
  ordinary_unit_price: z.number().nullable(),
  /** Kronor for the goods, the pant not included. */
  total: z.number(),
  weight_grams: z.number().int().nullable(),
  pant: linePantSchema,
});

export const sessionOrderLineSchema = z.object({
  id: z.string(),
  name: z.string(),
  quantity: z.number().int(),
  unit_price: z.number(),
  /** Kronor for one at the store's ordinary price, when a campaign price (Kampanj) is what the line costs; null otherwise. */
  ordinary_unit_price: z.number().nullable(),
  /** Kronor for the goods, the pant not included. */
  total: z.number(),
  pant: linePantSchema,
  /** Kronor of the order's multi-buy discounts taken from this line; what was paid for it is total + pant − this. */
  discount: z.number(),
  refunded_quantity: z.number().int(),
  refunded: z.number(),
  /** cart, or spot_check (added at a staff check). */
  origin: z.string(),
});

export const sessionOrderSchema = z.object({
  id: z.string(),
  state: z.string(),
  receipt_number: z.number().int().nullable(),
  total: z.number(),
  vat: z.number(),
  refunded: z.number(),
  paid_at: z.string().nullable(),
  failure_code: z.string().nullable(),
  card: z.object({ brand: z.string(), last4: z.string() }).nullable(),
  lines: z.array(sessionOrderLineSchema),
  /** Multi-buy discounts, as the kvitto shows them under the lines; `total` is after them. */
  discounts: z.array(cartDiscountSchema),
  /** Pant machine vouchers that paid part of `total`; the card paid the rest, and only that can be refunded. */
  vouchers: z.array(cartVoucherSchema),
});

export const sessionRefundSchema = z.object({
  id: z.string(),
  amount: z.number(),
  reason: z.string(),
  state: z.string(),
  source: z.string(),
  staff_email: z.string().nullable(),
  created_at: z.string(),
});

export const sessionDisputeSchema = z.object({
  id: z.string(),
  state: z.string(),
  message: z.string(),
  resolution: z.string().nullable(),
  created_at: z.string(),
  resolved_at: z.string().nullable(),
});

export const sessionSpotCheckSchema = z.object({
  id: z.string(),
  outcome: z.string().nullable(),
  note: z.string().nullable(),
  flagged_at: z.string(),
  decided_at: z.string().nullable(),
  staff_email: z.string().nullable(),
});

/** GET /api/v1/admin/sessions/:id */
export const sessionDetailSchema = sessionRowSchema.extend({
  timeline: z.array(sessionEventSchema),
  cart: z.array(sessionCartLineSchema),
  /** An open cart's multi-buy discounts now, as its shopper sees them; the row's `total` is after them. Empty once charged. */
  cart_discounts: z.array(cartDiscountSchema),
  /** An open cart's pant machine vouchers; the card would pay `total` less them. Empty once charged. */
  cart_vouchers: z.array(cartVoucherSchema),
  order: sessionOrderSchema.nullable(),
  refunds: z.array(sessionRefundSchema),
  disputes: z.array(sessionDisputeSchema),
  spot_check_detail: sessionSpotCheckSchema.nullable(),
});
export type SessionDetail = z.infer<typeof sessionDetailSchema>;

/** One message of GET /api/v1/admin/sessions/live (server-sent events). */
export const sessionLiveEventSchema = z.object({
  store_id: z.string().nullable(),
  session_id: z.string(),
  kind: z.string(),
});
export type SessionLiveEvent = z.infer<typeof sessionLiveEventSchema>;

/** A visit left unpaid (status left_unpaid), as staff settle it. */
export const UNPAID_WRITE_OFF_REASON_MAX = 500;

/** POST /api/v1/admin/sessions/:id/write-off: the goods are written off, with the reason staff give. */
export const sessionWriteOffSchema = z.object({
  reason: z
    .string({ error: "A reason is required" })
    .trim()
    .min(1, "A reason is required")
    .max(UNPAID_WRITE_OFF_REASON_MAX, `The reason must be at most ${UNPAID_WRITE_OFF_REASON_MAX} characters`),
});
export type SessionWriteOff = z.infer<typeof sessionWriteOffSchema>;
