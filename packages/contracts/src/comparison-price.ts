/**
 * Jämförpris: the price per kilogram, litre or piece that Prisinformationslagen
 * (2004:347) asks a shop to show beside a price, so goods in different
 * sizes can be compared. Computed from the price and the net content, never
 * typed. Pure and zod-free: the shopper's phone imports it
 * ("@glide/contracts/shopper").
 */

/** The units a product's net content is given in. */
export const NET_CONTENT_UNITS = ["g", "kg", "ml", "l", "st"] as const;
export type NetContentUnit = (typeof NET_CONTENT_UNITS)[number];
export const isNetContentUnit = (v: string): v is NetContentUnit =>
  (NET_CONTENT_UNITS as readonly string[]).includes(v);
/** What a comparison price is per: kilogram, litre or piece. */
export type ComparisonUnit = "kg" | "l" | "st";

/** Per which unit each net content unit is compared, and how many of it make one of that (thousandths). */
const PER: Record<NetContentUnit, { unit: ComparisonUnit; milliPerUnit: number }> = {
  g: { unit: "kg", milliPerUnit: 1_000_000 },
  kg: { unit: "kg", milliPerUnit: 1_000 },
  ml: { unit: "l", milliPerUnit: 1_000_000 },
  l: { unit: "l", milliPerUnit: 1_000 },
  st: { unit: "st", milliPerUnit: 1_000 },
};

/**
 * The price (öre) per kilogram (g, kg), litre (ml, l) or piece (st) of a
 * product that costs `priceOre` for `netContent` of `unit`: 500 g at
 * 2495 öre is 4990 öre/kg. Rounded to the öre, half up, in whole numbers
 * (no floating-point drift at the half). Null without a net content or
 * unit, or with a content of 0.
 */
export function comparisonPrice(
  priceOre: number,
  netContent: number | null,
  unit: NetContentUnit | null,
): { priceOre: number; unit: ComparisonUnit } | null {
  if (netContent === null || unit === null) return null;
  const per = PER[unit];
  if (!per) return null;
  // The content in thousandths of its unit: a whole number, as the database keeps it.
  const milli = Math.round(netContent * 1000);
  if (!(milli > 0) || !Number.isFinite(priceOre)) return null;
  // priceOre × milliPerUnit / milli, rounded half up, exactly: quotient and remainder.
  const numerator = Math.round(priceOre) * per.milliPerUnit;
  let quotient = Math.floor(numerator / milli);
  let remainder = numerator - quotient * milli;
  if (remainder < 0) {
    quotient -= 1;
    remainder += milli;
  } else if (remainder >= milli) {
    quotient += 1;
    remainder -= milli;
  }
  return { priceOre: 2 * remainder >= milli ? quotient + 1 : quotient, unit: per.unit };
}
