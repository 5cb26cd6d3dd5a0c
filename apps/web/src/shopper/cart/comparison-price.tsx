import type { CartItem } from "@glide/contracts";
import { formatAmount } from "../lib/money.ts";
import { sv } from "../sv.ts";

/**
 * A line's comparison price under its price, as Prisinformationslagen asks:
 * "Jfr-pris 49,90 kr/kg" (a weighed line's per-kg price). Plain text in the
 * line, so a screen reader reads it with the rest; nothing when the product
 * has none.
 */
export function ComparisonPrice({ price }: { price: CartItem["product"]["comparison_price"] }) {
  if (!price) return null;
  return (
    <p className="text-sm text-muted-foreground tabular-nums">
      {sv.cart.comparison(formatAmount(price.price), price.unit)}
    </p>
  );
}
