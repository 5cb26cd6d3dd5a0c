import { z } from "zod";
import { pantCodeSchema } from "./pant.ts";
import { vatRateCountrySchema } from "./vat.ts";

/**
 * What each pant mark is worth in each country, as platform admins keep it
 * (every console admin reads it). A mark a country has no amount for carries
 * no pant there. A new amount counts for scans from then on: a cart line
 * keeps the amount it got.
 */

/** The highest amount a mark may carry, in kronor (the table allows 0 to 100 000 öre). */
export const PANT_AMOUNT_MAX = 1000;

/** One mark in one country. */
export const pantAmountSchema = z.object({
  country: z.string(),
  code: pantCodeSchema,
  /** Kronor for one package; null: the mark carries no pant in this country. */
  amount: z.number().nullable(),
  /** When the amount was last set; null while there is none. */
  updated_at: z.string().nullable(),
});
export type PantAmount = z.infer<typeof pantAmountSchema>;

/** Every mark of PANT_CODES, in that order, for one country. */
export const pantAmountListSchema = z.object({
  country: z.string(),
  items: z.array(pantAmountSchema),
});
export type PantAmountList = z.infer<typeof pantAmountListSchema>;

const kronor = z
  .number({ error: `The amount is a number of kronor from 0 to ${PANT_AMOUNT_MAX}` })
  .min(0, `The amount must be from 0 to ${PANT_AMOUNT_MAX} kr`)
  .max(PANT_AMOUNT_MAX, `The amount must be from 0 to ${PANT_AMOUNT_MAX} kr`)
  .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, "The amount allows at most two decimals");

/** The body of PUT /api/v1/pant-amounts/:country/:code. */
export const pantAmountUpdateSchema = z.strictObject({
  /** Kronor, e.g. 2 or 2.5. */
  amount: kronor,
});
export type PantAmountUpdate = z.input<typeof pantAmountUpdateSchema>;

/**
 * The country of the list, and the country and mark in a path: any text is
 * taken here and judged by the server, which answers one it does not know
 * with 422 and the words of `pantCountrySchema` or `pantCodeSchema`.
 */
export const pantAmountListQuerySchema = z.object({
  country: z.string().max(200, "country is too long").optional(),
});
export const pantAmountParams = z.object({
  country: z.string().max(200, "country is too long"),
  code: z.string().max(200, "code is too long"),
});

/** A country the pant table may hold: one of COUNTRY_CODES, as the VAT rate table takes them. */
export const pantCountrySchema = vatRateCountrySchema;
