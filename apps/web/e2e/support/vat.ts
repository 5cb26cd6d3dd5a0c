import { calendarDay, SWEDISH_VAT_RATES, type VatCategory, vatRateOn } from "@glide/contracts";

/**
 * What the product form's hint says of a category: its rate today in
 * Stockholm by the table the migration seeds from Swedish law ("6 % today"
 * for food from 2026-04-01 to 2027-12-31), worked out apart from the console.
 */
export function todayText(category: VatCategory): string {
  const rate = vatRateOn(SWEDISH_VAT_RATES, "SE", category, calendarDay(new Date(), "Europe/Stockholm"));
  if (rate === null) throw new Error(`No Swedish rate for ${category} today`);
  return `${rate / 100} % today`;
}
