import { z } from "zod";
import { cartDiscountSchema, cartVoucherSchema } from "./cart.ts";
import { linePantSchema } from "./pant.ts";
import { receiptDisputeSchema } from "./refunds.ts";

/** POST /api/v1/checkout: the spec's body; it must name the signed-in shopper. */
export const checkoutSchema = z.object({
  user_id: z.uuid("user_id must be a UUID"),
});

export const receiptLineSchema = z.object({
  name: z.string(),
  quantity: z.number().int(),
  /** Kronor for one, VAT included. */
  unit_price: z.number(),
  /** Kronor for one at the store's ordinary price, when a campaign price (Kampanj) is what the line costs; null otherwise. */
  ordinary_unit_price: z.number().nullable(),
  /** Kronor for the goods of the line, VAT included, its pant not included. */
  total: z.number(),
  /** Fraction: 0.12 is 12 %; the pant is taxed at its product's rate. */
  vat_rate: z.number(),
  weight_grams: z.number().int().nullable(),
  /** The pant under the line; null for a product without a pant mark. */
  pant: linePantSchema,
});

export const receiptVatSchema = z.object({
  /** Fraction: 0.25 is 25 %. */
  rate: z.number(),
  /** Kronor of VAT at this rate. */
  amount: z.number(),
  /** Kronor before VAT at this rate. */
  net: z.number(),
  /** Kronor paid at this rate, VAT included. */
  gross: z.number(),
});

/** A refund as the receipt shows it: "Återbetalt". */
export const receiptRefundSchema = z.object({
  id: z.string(),
  amount: z.number(),
  /** pending: asked of the card's bank, not yet confirmed. */
  state: z.enum(["pending", "succeeded"]),
  created_at: z.string(),
  lines: z.array(z.object({ name: z.string(), quantity: z.number().int(), amount: z.number() })),
});

/** A kvitto: what the shop, the number, the time, each line, VAT per rate, the total and the card. */
export const receiptSchema = z.object({
  id: z.string(),
  number: z.number().int(),
  store: z.object({
    name: z.string(),
    legal_name: z.string().nullable(),
    organization_number: z.string().nullable(),
    address: z.string().nullable(),
  }),
  paid_at: z.string(),
  items: z.array(receiptLineSchema),
  /** Multi-buy discounts, each its own line under the goods; `total` and `vat` are after them. */
  discounts: z.array(cartDiscountSchema),
  total: z.number(),
  /** Pant machine vouchers it was paid with, under the total; they change neither the total nor the VAT. */
  vouchers: z.array(cartVoucherSchema),
  /** Kronor the card paid: the total less the vouchers (what can be refunded to it). */
  paid_by_card: z.number(),
  vat: z.array(receiptVatSchema),
  currency: z.string(),
  payment: z.object({ brand: z.string(), last4: z.string() }).nullable(),
  /** Money given back (succeeded or under way), newest last. */
  refunds: z.array(receiptRefundSchema),
  /** Kronor given back in all; what the shopper paid in the end is total − refunded. */
  refunded: z.number(),
  /**
   * What was given back per VAT rate (gross, its VAT and net), rounded once
   * per refund and rate as each refund's own note would be; `vat` minus this
   * is the VAT of what the shopper paid in the end. Empty without refunds.
   */
  refunded_vat: z.array(receiptVatSchema),
  /**
   * A receipt e-mail was queued for this purchase (a mail server is set up and
   * the shopper had given an address) and has not been given up; the phone
   * says "Kvitto skickat till din e-post" only then. The outbox forgets a
   * mail a month after it was queued: an older receipt no longer says so.
   */
  emailed: z.boolean(),
  /** The shopper's latest dispute of this receipt, with staff's answer once there is one. */
  dispute: receiptDisputeSchema.nullable(),
});
export type Receipt = z.infer<typeof receiptSchema>;

/**
 * The checkout's answer: the receipt once paid; null when the cart was empty
 * (the visit ends, nothing is charged).
 */
export const checkoutResponseSchema = z.object({
  status: z.enum(["paid", "empty"]),
  receipt: receiptSchema.nullable(),
});
export type CheckoutResponse = z.infer<typeof checkoutResponseSchema>;

/** PUT /api/v1/payment-method: the PaymentMethod id the card page gave (or a test id such as pm_card_visa). */
export const paymentMethodSchema = z.object({
  payment_method: z
    .string()
    .trim()
    .regex(/^pm_[A-Za-z0-9_]{1,100}$/, "payment_method must be a PaymentMethod id (pm_…)"),
});

export const savedCardSchema = z.object({ brand: z.string(), last4: z.string() });
export const paymentMethodResponseSchema = z.object({ card: savedCardSchema.nullable() });

export const receiptSummarySchema = z.object({
  id: z.string(),
  number: z.number().int(),
  store_name: z.string(),
  paid_at: z.string(),
  total: z.number(),
  refunded: z.number(),
  refunds: z.array(receiptRefundSchema),
  dispute: receiptDisputeSchema.pick({ state: true, resolution: true }).nullable(),
});
export const receiptIdParams = z.object({ id: z.uuid("id must be a UUID") });
