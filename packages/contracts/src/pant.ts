import { z } from "zod";

/**
 * Pant (deposit) on drink packages. A product carries the code of the pant
 * mark on its package; each country gives each code the amount the shopper
 * pays and gets back (table pant_amounts). In Sweden Returpack marks cans
 * and PET bottles: 2 kr for a can or a PET bottle up to 1 l, 3 kr above 1 l
 * since 1 September 2025, and packages still marked 1 kr or 2 kr pay what
 * the mark says. The pant is a line of its own under its product, counted
 * per unit, taxed at the rate of the drink it comes with and refunded with it.
 */
export const PANT_CODES = ["can", "pet_small", "pet_large", "can_1kr", "pet_small_1kr", "pet_large_2kr"] as const;
export type PantCode = (typeof PANT_CODES)[number];
export const pantCodeSchema = z.enum(PANT_CODES, { error: `A pant code is one of ${PANT_CODES.join(", ")}` });
export const isPantCode = (value: unknown): value is PantCode => (PANT_CODES as readonly unknown[]).includes(value);

/** The console's names for the marks. */
export const PANT_CODE_LABELS: Record<PantCode, string> = {
  can: "Can",
  pet_small: "PET bottle up to 1 l",
  pet_large: "PET bottle over 1 l",
  can_1kr: "Can marked 1 kr",
  pet_small_1kr: "PET bottle up to 1 l marked 1 kr",
  pet_large_2kr: "PET bottle over 1 l marked 2 kr",
};

/** Returpack's amounts to the consumer in öre, as seeded for Sweden. */
export const SWEDISH_PANT_ORE: Record<PantCode, number> = {
  can: 200,
  pet_small: 200,
  pet_large: 300,
  can_1kr: 100,
  pet_small_1kr: 100,
  pet_large_2kr: 200,
};

/** The pant of a cart line or a receipt line: kronor for one unit and for the line's units. */
export const linePantSchema = z
  .object({
    /** Kronor for one. */
    unit: z.number(),
    /** Kronor for the line's quantity. */
    total: z.number(),
  })
  .nullable();
export type LinePant = z.infer<typeof linePantSchema>;

/** POST /api/v1/pant/vouchers: a pant machine (its pant_machine device key) reports a voucher it printed. */
export const pantVoucherIssueSchema = z.object({
  barcode: z.string().trim().min(1, "barcode is required").max(64, "barcode must be at most 64 characters"),
});
/** A printed voucher as the register keeps it: the only vouchers a cart takes, at this value. */
export const issuedPantVoucherSchema = z.object({
  code: z.string(),
  /** Kronor, two decimals. */
  amount: z.number(),
  store_id: z.string(),
  issued_at: z.string(),
});
export type IssuedPantVoucher = z.infer<typeof issuedPantVoucherSchema>;
