import type { CartItem } from "@glide/contracts";
import clsx from "clsx";
import { formatKr } from "../lib/money.ts";
import { sv } from "../sv.ts";

/**
 * A line's pant as a line of its own under the product: "Pant 2 × 2,00 kr"
 * and the pant of the whole line on the right, in the muted small text of the
 * unit price, so the product's own amount stays the one that stands out.
 */
export function PantLine({ item, className }: { item: CartItem; className?: string }) {
  if (!item.pant) return null;
  return (
    <p className={clsx("flex items-baseline justify-between gap-3 text-sm text-muted-foreground", className)}>
      <span className="min-w-0">{sv.cart.pant(item.quantity, formatKr(item.pant.unit))}</span>
      <span data-amount className="shrink-0 whitespace-nowrap tabular-nums">
        {formatKr(item.pant.total)}
      </span>
    </p>
  );
}
