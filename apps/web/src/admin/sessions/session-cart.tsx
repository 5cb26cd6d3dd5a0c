import type { SessionDetail } from "@glide/contracts";
import type { ReactNode } from "react";
import { formatKronor } from "../../lib/format.ts";
import {
  campaignText,
  discountAmountText,
  discountLineText,
  paidByCard,
  pantLineText,
  voucherLineText,
} from "./session-format.ts";

/** A row of kronor under the cart's lines: words on the left, the amount on the right. */
function Row({ label, amount, className }: { label: ReactNode; amount: string; className?: string }) {
  return (
    <li className={`flex justify-between gap-2 ${className ?? ""}`}>
      <span>{label}</span>
      <span className="tabular-nums">{amount}</span>
    </li>
  );
}

/**
 * An open visit's cart as its shopper sees it now: the lines with their pant,
 * the day's multi-buy discounts, the total the exit would charge, and any
 * pant vouchers with what the card would then pay.
 */
export function SessionCart({ session }: { session: SessionDetail }) {
  if (session.cart.length === 0 && session.cart_vouchers.length === 0)
    return <p className="text-sm text-muted-foreground">The cart is empty.</p>;
  const extras = session.cart_discounts.length > 0 || session.cart_vouchers.length > 0;
  return (
    <ul aria-label="Cart" className="grid gap-1 text-sm">
      {session.cart.map((line) => (
        <li key={line.id} className="grid gap-0.5">
          <div className="flex justify-between gap-2">
            <span>
              {line.quantity} × {line.name}
              {line.ordinary_unit_price !== null ? (
                <span className="text-muted-foreground"> ({campaignText(line.ordinary_unit_price)})</span>
              ) : null}
            </span>
            <span className="tabular-nums">{formatKronor(line.total)}</span>
          </div>
          {line.pant ? (
            <div className="flex justify-between gap-2 pl-4 text-muted-foreground">
              <span>{pantLineText(line.quantity, line.pant)}</span>
              <span className="tabular-nums">{formatKronor(line.pant.total)}</span>
            </div>
          ) : null}
        </li>
      ))}
      {session.cart_discounts.map((discount) => (
        <Row
          key={`${discount.offer_id}:${discount.label}`}
          label={discountLineText(discount)}
          amount={discountAmountText(discount.amount)}
        />
      ))}
      {extras ? <Row label="Total" amount={formatKronor(session.total)} className="border-t pt-1 font-medium" /> : null}
      {session.cart_vouchers.map((voucher) => (
        <Row key={voucher.code} label={voucherLineText(voucher.code)} amount={discountAmountText(voucher.amount)} />
      ))}
      {session.cart_vouchers.length > 0 ? (
        <Row
          label="To pay by card"
          amount={formatKronor(Math.max(0, paidByCard(session.total, session.cart_vouchers)))}
          className="font-medium"
        />
      ) : null}
    </ul>
  );
}
