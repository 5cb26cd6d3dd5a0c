import { z } from "zod";
import { comparisonPriceSchema } from "./net-content.ts";
import { linePantSchema } from "./pant.ts";

/** The phone makes one per scan, so a scan sent twice (a retry after a lost answer) adds once. */
export const cartScanSchema = z.object({
  session_id: z.uuid("session_id must be a UUID"),
  barcode: z.string().trim().min(1, "barcode is required").max(64, "barcode must be at most 64 characters"),
  scan_id: z.uuid("scan_id must be a UUID").optional(),
});

export const cartProductSchema = z.object({
  id: z.string(),
  name: z.string(),
  image_url: z.string().nullable(),
  /**
   * The product's jämförpris (comparisonPrice), null when unknown; for a line
   * from a weight label the product's price per kilogram.
   */
  comparison_price: comparisonPriceSchema,
});

export const cartItemSchema = z.object({
  id: z.string(),
  quantity: z.number().int(),
  /** Kronor for one: the product's price, a price label's price, or weight × price per kilogram. */
  unit_price: z.number(),
  /** Kronor for the goods of the line, its pant not included. */
  total_price: z.number(),
  /** Kronor for one at the store's ordinary price, when a campaign price (Kampanj) is what the line costs; null otherwise. */
  ordinary_unit_price: z.number().nullable(),
  /**
   * For a shopper who is no member of the chain: kronor for one at the
   * members' price ("Medlemspris"), when a members-only campaign valid at the
   * scan is below what the line costs; null otherwise. Never charged.
   */
  member_unit_price: z.number().nullable(),
  /** Grams, for a line from a weight label; null otherwise. */
  weight_grams: z.number().int().nullable(),
  /** The pant under the line ("Pant 2,00"); null for a product without a pant mark. */
  pant: linePantSchema,
  product: cartProductSchema,
});
export type CartItem = z.infer<typeof cartItemSchema>;

/**
 * A multi-buy discount on the cart or the kvitto, its own line under the
 * goods: "3 för 2 Bregott −49,90". Evaluated anew on every change, so a
 * removal takes it away.
 */
export const cartDiscountSchema = z.object({
  offer_id: z.string().nullable(),
  /** The offer's label, as the shelf says it. */
  label: z.string(),
  /** How many groups it took ("3 för 2" twice over six). */
  times: z.number().int(),
  /** Kronor off, a positive number. */
  amount: z.number(),
});
export type CartDiscount = z.infer<typeof cartDiscountSchema>;

/** A pant machine voucher (pantkvitto) on the cart: paid with, under the goods ("Pantkvitto −24,00"). */
export const cartVoucherSchema = z.object({
  /** The voucher's EAN-13, as printed (980…). */
  code: z.string(),
  /** Kronor it pays, a positive number. */
  amount: z.number(),
});
export type CartVoucher = z.infer<typeof cartVoucherSchema>;

export const cartSchema = z.object({
  session_id: z.string(),
  items: z.array(cartItemSchema),
  /** The day's multi-buy offers the cart gets, the best combination for the shopper. */
  discounts: z.array(cartDiscountSchema),
  /** Pant machine vouchers scanned into the cart: they pay part of the total. */
  vouchers: z.array(cartVoucherSchema),
  /**
   * Kronor the card will pay at the exit: the total less the vouchers, never
   * below 0 (vouchers worth the whole cart or more cannot be paid out; the
   * exit then asks for more goods or a voucher taken out).
   */
  to_pay: z.number(),
  /** Kronor, exact to the öre: every line's goods and pant, less the discounts; what the exit charges. */
  total: z.number(),
  /**
   * For a shopper who is no member: what the cart would cost a member
   * (members' prices and members-only offers), when that is less; null otherwise.
   */
  member_total: z.number().nullable(),
});
export type Cart = z.infer<typeof cartSchema>;

export const cartScanResponseSchema = z.object({
  product: cartProductSchema,
  item: cartItemSchema,
  /** The cart's discounts and total after this scan: an offer may now apply (or, on a repeat, still does). */
  discounts: z.array(cartDiscountSchema),
  total: z.number(),
  member_total: z.number().nullable(),
});

export const cartItemParams = z.object({ item_id: z.uuid("item_id must be a UUID") });
export const cartSessionParams = z.object({ session_id: z.uuid("session_id must be a UUID") });
export const cartQuantitySchema = z.object({
  quantity: z.number().int("quantity must be a whole number").min(0, "quantity cannot be negative").max(999),
});

/** The in-store recognition worker adds or removes one product in a visit's cart. */
export const cartWorkerSchema = z.object({
  session_id: z.uuid("session_id must be a UUID"),
  action: z.enum(["add", "remove"]),
  product_id: z.uuid("product_id must be a UUID"),
  /** Makes an add idempotent, as scan_id does for the phone. */
  event_id: z.uuid("event_id must be a UUID").optional(),
});

/** POST /api/v1/cart/vouchers: a pant machine voucher scanned (or typed) into the visit's cart. */
export const cartVoucherAddSchema = z.object({
  session_id: z.uuid("session_id must be a UUID"),
  barcode: z.string().trim().min(1, "barcode is required").max(64, "barcode must be at most 64 characters"),
  /** As a scan's: the same scan sent twice (a retry after a lost answer) adds once. */
  scan_id: z.uuid("scan_id must be a UUID").optional(),
});

/** DELETE /api/v1/cart/:session_id/vouchers/:code */
export const cartVoucherParams = z.object({
  session_id: z.uuid("session_id must be a UUID"),
  code: z.string().max(64, "code is too long"),
});
