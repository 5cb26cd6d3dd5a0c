const amount = new Intl.NumberFormat("sv-SE", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const kilograms = new Intl.NumberFormat("sv-SE", { minimumFractionDigits: 3, maximumFractionDigits: 3 });

/** Kronor to two decimals, the Swedish way: "1 234,50". */
export const formatAmount = (kronor: number) => amount.format(kronor);

/** "12,50 kr". */
export const formatKr = (kronor: number) => `${amount.format(kronor)} kr`;

/** A weight label's grams as "0,482 kg". */
export const formatKg = (grams: number) => `${kilograms.format(grams / 1000)} kg`;

/** The sum of line totals, exact to the öre (spec §4: the page recomputes the total from its lines). */
export function sumKronor(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + Math.round(value * 100), 0) / 100;
}
