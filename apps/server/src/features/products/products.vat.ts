import {
  isVatCategory,
  type productUpdateSchema,
  productVatCategory,
  type VatCategory,
  vatRateOn,
} from "@glide/contracts";
import type { z } from "zod";
import type { Db, Tx } from "../../db/client.ts";
import type { products } from "../../db/schema/index.ts";
import { fieldError } from "../../platform/errors.ts";
import { HOME_COUNTRY, homeToday, loadVatRates } from "../vat-rates/vat-rate-table.ts";

/**
 * A product's VAT category: which one an API or CSV input asks for, and the
 * home rate of today that the answer shows beside it.
 */

type ProductRow = typeof products.$inferSelect;

/** A category's home rate today, hundredths of a percent; null when the rate table has none. */
export type RateToday = (category: VatCategory) => number | null;

/** Today's home rates (the table is a handful of rows): what a product's answer shows as its vat_rate. */
export async function homeRatesToday(db: Db | Tx): Promise<RateToday> {
  const periods = await loadVatRates(db, HOME_COUNTRY);
  const day = homeToday();
  return (category) => vatRateOn(periods, HOME_COUNTRY, category, day);
}

/** The row's category; the column's check keeps it one of them. */
export const categoryOf = (row: ProductRow): VatCategory =>
  isVatCategory(row.vatCategory) ? row.vatCategory : "standard";

/**
 * The category the input asks for (productVatCategory), or a 422 on vat_rate
 * naming what is wrong; undefined when it names none.
 */
export function inputVatCategory(
  input: z.output<typeof productUpdateSchema>,
  rateToday: RateToday,
  current?: ProductRow,
): VatCategory | undefined {
  const vat = productVatCategory(input, rateToday, current && categoryOf(current));
  if (vat.error !== undefined) throw fieldError("vat_rate", vat.error);
  return vat.category;
}
