import type { CartVoucher } from "@glide/contracts";
import clsx from "clsx";
import { Trash2 } from "lucide-react";
import { formatKr } from "../lib/money.ts";
import { sv } from "../sv.ts";

/**
 * The pant machine vouchers (pantkvitton) under the goods and discounts, each
 * a line of its own as on the kvitto: "Pantkvitto" and "−24,00 kr" (a true
 * minus sign). A voucher pays rather than takes off, so a screen reader hears
 * "Pantkvitto betalar 24,00 kr": a minus sign alone is read as nothing, or as
 * "streck". With `onRemove` each line has a button to take its voucher out
 * again (the cart); without it the lines are only read (the kvitto). Nothing
 * without vouchers, nor for a cart or kvitto from before them (no field).
 */
export function VoucherLines({
  vouchers,
  onRemove,
  className,
}: {
  vouchers: readonly CartVoucher[] | undefined;
  onRemove?: (voucher: CartVoucher) => void;
  className?: string;
}) {
  if (!vouchers?.length) return null;
  return (
    <ul aria-label={sv.cart.vouchers} className={clsx("flex flex-col gap-1", className)}>
      {vouchers.map((voucher) => {
        const amount = formatKr(voucher.amount);
        return (
          <li
            key={voucher.code}
            className={clsx("flex items-center justify-between gap-3 font-semibold", onRemove && "min-h-11")}
          >
            <span className="min-w-0 break-words">{sv.cart.voucher}</span>
            <span className="flex shrink-0 items-center gap-1">
              <span data-amount className="whitespace-nowrap tabular-nums">
                <span aria-hidden="true">−{amount}</span>
                <span className="sr-only">{sv.cart.voucherSpoken(amount)}</span>
              </span>
              {onRemove && (
                <button
                  type="button"
                  onClick={() => onRemove(voucher)}
                  aria-label={sv.cart.removeVoucher(amount)}
                  className="flex size-11 items-center justify-center rounded-xl text-destructive hover:bg-destructive-muted"
                >
                  <Trash2 aria-hidden="true" className="size-5" />
                </button>
              )}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
