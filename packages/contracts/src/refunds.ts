import { z } from "zod";

/**
 * Refunds, disputes and spot checks (issue 12). Money is kronor with two
 * decimals in the API and öre in the database; the server computes every
 * refund amount itself from the lines and quantities asked for.
 */

/**
 * What refunding `units` more of a line gives back, in öre. A line's units
 * share its total exactly: each unit is worth the total divided by the
 * quantity, rounded down, and the last unit takes the remainder, so refunding
 * every unit gives back exactly the line's total, however it was split.
 */
export function lineRefundOre(line: { total_ore: number; quantity: number; refunded_quantity: number }, units: number) {
  const upTo = (count: number) =>
    count >= line.quantity ? line.total_ore : count * Math.floor(line.total_ore / line.quantity);
  return upTo(line.refunded_quantity + units) - upTo(line.refunded_quantity);
}

export const REFUND_REASON_MAX = 500;
export const DISPUTE_MESSAGE_MAX = 1000;
export const RESOLUTION_MAX = 1000;

const reason = z
  .string("reason is required")
  .trim()
  .min(1, "reason is required")
  .max(REFUND_REASON_MAX, `reason must be at most ${REFUND_REASON_MAX} characters`);
const idempotencyKey = z.uuid("idempotency_key must be a UUID");

/** POST /api/v1/admin/orders/:id/refunds: some units of some lines, or everything not yet refunded. */
export const refundCreateSchema = z
  .object({
    idempotency_key: idempotencyKey,
    reason,
    lines: z
      .array(
        z.object({
          line_id: z.uuid("line_id must be a UUID"),
          quantity: z.number().int("quantity must be a whole number").min(1, "quantity must be at least 1").max(10_000),
        }),
      )
      .min(1, "lines must name at least one line")
      .max(500)
      .optional(),
    whole: z.literal(true, "whole must be true").optional(),
  })
  .refine((body) => (body.lines === undefined) !== (body.whole === undefined), {
    message: "give either lines or whole: true",
    path: ["lines"],
  })
  .refine((body) => new Set(body.lines?.map((line) => line.line_id)).size === (body.lines?.length ?? 0), {
    message: "each line may be named once",
    path: ["lines"],
  });
export type RefundCreate = z.infer<typeof refundCreateSchema>;

export const orderIdParams = z.object({ id: z.uuid("id must be a UUID") });

export const refundStateSchema = z.enum(["pending", "succeeded", "failed"]);

export const refundSchema = z.object({
  id: z.string(),
  order_id: z.string(),
  state: refundStateSchema,
  /** Kronor given back (or being given back). */
  amount: z.number(),
  reason: z.string(),
  /** staff, spot_check, dispute */
  source: z.string(),
  failure_code: z.string().nullable(),
  created_at: z.string(),
  completed_at: z.string().nullable(),
  lines: z.array(z.object({ line_id: z.string(), name: z.string(), quantity: z.number().int(), amount: z.number() })),
});
export type Refund = z.infer<typeof refundSchema>;

/**
 * The answer to POST /api/v1/admin/orders/:id/refunds. Lines added at a spot
 * check were paid by a charge of their own, so one request makes one refund
 * per payment it touches (the checkout's first): the answer is the first
 * refund's fields, as before, plus every refund the request made.
 */
export const refundResultSchema = refundSchema.extend({
  refunds: z.array(refundSchema).min(1),
});
export type RefundResult = z.infer<typeof refundResultSchema>;

/** A line as the refund dialog needs it: what was bought and what is left to give back. */
export const refundableLineSchema = z.object({
  id: z.string(),
  name: z.string(),
  quantity: z.number().int(),
  /**
   * Öre paid for the line (goods and pant, less the multi-buy discounts taken
   * from it), so the dialog computes exactly what the server will (lineRefundOre).
   */
  total_ore: z.number().int(),
  refunded_quantity: z.number().int(),
  refunded_ore: z.number().int(),
  weight_grams: z.number().int().nullable(),
  /** cart, or spot_check (added and charged at a check). */
  origin: z.string(),
});
export type RefundableLine = z.infer<typeof refundableLineSchema>;

/** GET /api/v1/admin/orders/:id/refunds: the order's lines, what is left of each, and its refunds. */
export const orderRefundsSchema = z.object({
  order_id: z.string(),
  store_id: z.string().nullable(),
  receipt_number: z.number().int().nullable(),
  state: z.string(),
  total: z.number(),
  refunded: z.number(),
  /**
   * Kronor of `total` paid with pant machine vouchers, which are never paid
   * out: refunds give the card back at most what it paid. Optional: an older
   * server leaves it out.
   */
  voucher: z.number().optional(),
  lines: z.array(refundableLineSchema),
  refunds: z.array(refundSchema),
});
export type OrderRefunds = z.infer<typeof orderRefundsSchema>;

// --- disputes ---

export const disputeStateSchema = z.enum(["open", "resolved", "rejected"]);

/** POST /api/v1/receipts/:id/dispute: the shopper's own words (Swedish messages: the shopper app shows them). */
export const disputeCreateSchema = z.object({
  message: z
    .string("Beskriv vad som är fel.")
    .trim()
    .min(1, "Beskriv vad som är fel.")
    .max(DISPUTE_MESSAGE_MAX, `Högst ${DISPUTE_MESSAGE_MAX} tecken.`),
});

/** A dispute as the shopper sees it on the receipt. */
export const receiptDisputeSchema = z.object({
  id: z.string(),
  state: disputeStateSchema,
  message: z.string(),
  /** Staff's answer once resolved or rejected. */
  resolution: z.string().nullable(),
  created_at: z.string(),
  resolved_at: z.string().nullable(),
});
export type ReceiptDispute = z.infer<typeof receiptDisputeSchema>;

export const disputeSchema = receiptDisputeSchema.extend({
  order_id: z.string(),
  session_id: z.string().nullable(),
  store_id: z.string().nullable(),
  store_name: z.string(),
  receipt_number: z.number().int().nullable(),
  customer_name: z.string().nullable(),
  total: z.number(),
  refunded: z.number(),
});
export type Dispute = z.infer<typeof disputeSchema>;

export const DISPUTE_PAGE_SIZE = { default: 50, max: 200 } as const;
const paging = {
  limit: z.coerce.number().int().min(1).max(DISPUTE_PAGE_SIZE.max).default(DISPUTE_PAGE_SIZE.default),
  offset: z.coerce.number().int().min(0).default(0),
};

export const disputeListQuerySchema = z.object({
  store_id: z.uuid("store_id must be a UUID").optional(),
  state: disputeStateSchema.optional(),
  ...paging,
});

export const disputeResolveSchema = z.object({
  state: z.enum(["resolved", "rejected"], "state must be resolved or rejected"),
  resolution: z
    .string("resolution is required")
    .trim()
    .min(1, "resolution is required")
    .max(RESOLUTION_MAX, `resolution must be at most ${RESOLUTION_MAX} characters`),
});
export const disputeIdParams = z.object({ id: z.uuid("id must be a UUID") });

// --- spot checks ---

export const spotCheckOutcomeSchema = z.enum(["ok", "items_added", "items_removed"]);

export const spotCheckListQuerySchema = z.object({
  store_id: z.uuid("store_id must be a UUID").optional(),
  state: z.enum(["pending", "decided"], "state must be pending or decided").optional(),
  ...paging,
});

export const spotCheckDecisionSchema = z
  .object({
    idempotency_key: idempotencyKey,
    outcome: spotCheckOutcomeSchema,
    note: z.string().trim().max(1000, "note must be at most 1000 characters").optional(),
    items_added: z
      .array(
        z.object({
          product_id: z.uuid("product_id must be a UUID"),
          quantity: z.number().int().min(1, "quantity must be at least 1").max(100),
        }),
      )
      .max(50)
      .optional(),
    items_removed: z
      .array(
        z.object({
          line_id: z.uuid("line_id must be a UUID"),
          quantity: z.number().int().min(1, "quantity must be at least 1").max(10_000),
        }),
      )
      .max(200)
      .optional(),
  })
  .refine((body) => body.outcome !== "items_added" || (body.items_added?.length ?? 0) > 0, {
    message: "items_added must name at least one product",
    path: ["items_added"],
  })
  .refine((body) => body.outcome !== "items_removed" || (body.items_removed?.length ?? 0) > 0, {
    message: "items_removed must name at least one line",
    path: ["items_removed"],
  });
export type SpotCheckDecision = z.infer<typeof spotCheckDecisionSchema>;

export const spotCheckSchema = z.object({
  id: z.string(),
  session_id: z.string().nullable(),
  order_id: z.string().nullable(),
  store_id: z.string().nullable(),
  store_name: z.string().nullable(),
  receipt_number: z.number().int().nullable(),
  customer_name: z.string().nullable(),
  flagged_at: z.string(),
  outcome: spotCheckOutcomeSchema.nullable(),
  note: z.string().nullable(),
  decided_at: z.string().nullable(),
  /** Items added at the check: their extra charge and how it went. */
  charge: z
    .object({ amount: z.number(), state: z.enum(["pending", "paid", "declined"]), failure_code: z.string().nullable() })
    .nullable(),
  refund_id: z.string().nullable(),
  lines: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      quantity: z.number().int(),
      total: z.number(),
      refunded_quantity: z.number().int(),
      origin: z.string(),
    }),
  ),
});
export type SpotCheck = z.infer<typeof spotCheckSchema>;
export const spotCheckIdParams = z.object({ id: z.uuid("id must be a UUID") });
