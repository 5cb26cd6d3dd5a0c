import type { CartDiscount } from "@glide/contracts";
import clsx from "clsx";
import { formatKr } from "../lib/money.ts";
import { sv } from "../sv.ts";

/**
 * The multi-buy discounts under the goods, each a line of its own as on the
 * kvitto: "3 för 2 Bregott" and "−49,90 kr" (a true minus sign), in the
 * campaign's colour. A screen reader hears "rabatt 49,90 kr": a minus sign
 * alone is read as nothing, or as "streck". Nothing without discounts, nor
 * for a cart or kvitto kept offline from before offers (it lacks the field).
 */
export function DiscountLines({
  discounts,
  className,
}: {
  discounts: readonly CartDiscount[] | undefined;
  className?: string;
}) {
  if (!discounts?.length) return null;
  return (
    <ul aria-label={sv.cart.discounts} className={clsx("flex flex-col gap-1", className)}>
      {discounts.map((discount, index) => {
        const amount = formatKr(discount.amount);
        return (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: lines without state of their own; offer_id is null once the offer is deleted.
            key={index}
            className="flex items-baseline justify-between gap-3 font-semibold text-destructive"
          >
            <span className="line-clamp-2 min-w-0 break-words">{discount.label}</span>
            <span data-amount className="shrink-0 whitespace-nowrap tabular-nums">
              <span aria-hidden="true">−{amount}</span>
              <span className="sr-only">{sv.cart.discountSpoken(amount)}</span>
            </span>
          </li>
        );
      })}
    </ul>
  );
}
