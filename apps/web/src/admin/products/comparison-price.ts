import { comparisonPrice, NET_CONTENT_UNITS, type NetContentUnit, type Product } from "@glide/contracts";

/** "49.90 kr/kg": the console writes amounts with a point, as its price inputs take them. */
export const comparisonText = (price: NonNullable<Product["comparison_price"]>): string =>
  `${price.price.toFixed(2)} kr/${price.unit}`;

export const isNetContentUnit = (unit: string): unit is NetContentUnit =>
  (NET_CONTENT_UNITS as readonly string[]).includes(unit);

/**
 * The comparison price the form's price and net content give while they are
 * typed ("Comparison price 49.90 kr/kg"), worked out as the server will; nothing
 * until all three make sense.
 */
export function comparisonHint(values: { price: string; net_content: string; net_content_unit: string }) {
  const price = Number(values.price.trim());
  const content = Number(values.net_content.trim());
  if (values.price.trim() === "" || values.net_content.trim() === "") return undefined;
  if (!Number.isFinite(price) || price < 0 || !Number.isFinite(content) || content <= 0) return undefined;
  if (!isNetContentUnit(values.net_content_unit)) return undefined;
  const result = comparisonPrice(Math.round(price * 100), content, values.net_content_unit);
  return result ? `Comparison price ${comparisonText({ price: result.priceOre / 100, unit: result.unit })}` : undefined;
}
