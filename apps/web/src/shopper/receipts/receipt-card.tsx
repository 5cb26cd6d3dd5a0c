import type { Receipt } from "@glide/contracts";
import clsx from "clsx";
import type { ReactNode } from "react";
import { DiscountLines } from "../cart/discount-lines.tsx";
import { VoucherLines } from "../cart/voucher-lines.tsx";
import { formatKr } from "../lib/money.ts";
import { sv } from "../sv.ts";

const ore = (kronor: number) => Math.round(kronor * 100);
const percentOf = (fraction: number) => Math.round(fraction * 10_000) / 100;

/** A label that wraps to two lines at most, and an amount that never wraps ("49,90 / kr" must not happen). */
function Row({ label, amount, className }: { label: ReactNode; amount: string; className?: string }) {
  return (
    <div className={clsx("flex items-baseline justify-between gap-3", className)}>
      <span className="line-clamp-2 min-w-0 break-words">{label}</span>
      <span data-amount className="shrink-0 whitespace-nowrap tabular-nums">
        {amount}
      </span>
    </div>
  );
}

/**
 * After a refund: what was paid, what was given back (with its VAT per rate)
 * and the net, with the VAT of what the shopper paid in the end. Computed in
 * öre, so the rates add up exactly to what the server gave back.
 */
function Settlement({ receipt }: { receipt: Receipt }) {
  const refundedVat = new Map(receipt.refunded_vat.map((rate) => [ore(rate.rate * 100), rate]));
  const netVat = receipt.vat
    .map((rate) => {
      const back = refundedVat.get(ore(rate.rate * 100));
      return {
        rate: rate.rate,
        grossOre: ore(rate.gross) - ore(back?.gross ?? 0),
        vatOre: ore(rate.amount) - ore(back?.amount ?? 0),
      };
    })
    .filter((rate) => rate.grossOre > 0);
  return (
    <div className="flex flex-col gap-1 border-t pt-3">
      <Row label={sv.receipts.paid} amount={formatKr(receipt.total)} />
      <Row label={sv.receipts.refundedTotal} amount={`−${formatKr(receipt.refunded)}`} />
      {receipt.refunded_vat.map((rate) => (
        <Row
          key={rate.rate}
          label={sv.exit.vat(percentOf(rate.rate))}
          amount={`−${formatKr(rate.amount)}`}
          className="pl-4 text-sm text-muted-foreground"
        />
      ))}
      <Row
        label={sv.receipts.net}
        amount={formatKr((ore(receipt.total) - ore(receipt.refunded)) / 100)}
        className="font-bold"
      />
      {netVat.map((rate) => (
        <Row
          key={rate.rate}
          label={sv.exit.vat(percentOf(rate.rate))}
          amount={formatKr(rate.vatOre / 100)}
          className="pl-4 text-sm text-muted-foreground"
        />
      ))}
    </div>
  );
}

/**
 * A kvitto: the shop, its organisation number and address, the time, each
 * line, the multi-buy discounts under the goods, the total after them, the
 * pant machine vouchers it was paid with and the card's part, VAT per rate,
 * the card.
 */
export function ReceiptCard({ receipt }: { receipt: Receipt }) {
  return (
    <section aria-labelledby="receipt-title" className="flex flex-col gap-3 rounded-2xl border bg-card p-4 text-left">
      <div className="flex items-baseline justify-between gap-3">
        <h2 id="receipt-title" className="text-lg font-bold">
          {sv.exit.receipt}
        </h2>
        <span className="text-sm text-muted-foreground">{sv.exit.receiptNumber(receipt.number)}</span>
      </div>
      <p className="text-sm text-muted-foreground">
        {receipt.store.name}
        {receipt.store.organization_number && ` · Org.nr ${receipt.store.organization_number}`}
        {receipt.store.address && (
          <>
            <br />
            {receipt.store.address}
          </>
        )}
        <br />
        {new Date(receipt.paid_at).toLocaleString("sv-SE")}
      </p>
      <ul className="flex flex-col gap-1">
        {receipt.items.map((item, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a receipt's lines never move; two may share a name.
          <li key={index}>
            <Row label={`${item.quantity} x ${item.name}`} amount={formatKr(item.total)} />
            {/* A receipt kept offline from before campaigns lacks the field. */}
            {typeof item.ordinary_unit_price === "number" && (
              <p className="pl-4 text-sm text-muted-foreground">
                {sv.cart.campaign}, {sv.cart.ordinaryPrice.toLowerCase()} {formatKr(item.ordinary_unit_price)}/st
              </p>
            )}
            {item.pant && (
              <Row
                label={sv.cart.pant(item.quantity, formatKr(item.pant.unit))}
                amount={formatKr(item.pant.total)}
                className="pl-4 text-sm text-muted-foreground"
              />
            )}
          </li>
        ))}
      </ul>
      {/* A receipt kept offline from before offers lacks the field. */}
      <DiscountLines discounts={receipt.discounts} />
      <Row label={sv.exit.total} amount={formatKr(receipt.total)} className="border-t pt-3 text-lg font-bold" />
      {/* A receipt kept offline from before vouchers lacks the fields. */}
      {receipt.vouchers?.length > 0 && (
        <>
          <VoucherLines vouchers={receipt.vouchers} />
          <Row label={sv.exit.paidByCard} amount={formatKr(receipt.paid_by_card)} className="font-bold" />
        </>
      )}
      {receipt.vat.map((rate) => (
        <Row
          key={rate.rate}
          label={sv.exit.vat(percentOf(rate.rate))}
          amount={formatKr(rate.amount)}
          className="text-sm text-muted-foreground"
        />
      ))}
      {receipt.refunds.length > 0 && (
        <>
          <ul aria-label={sv.receipts.refundsLabel} className="flex flex-col gap-1 border-t pt-3">
            {receipt.refunds.map((refund) => (
              <li key={refund.id}>
                <Row
                  label={`${refund.state === "pending" ? sv.receipts.refundPending : sv.receipts.refunded} ${refund.lines
                    .map((line) => `${line.quantity} x ${line.name}`)
                    .join(", ")}`}
                  amount={`−${formatKr(refund.amount)}`}
                />
              </li>
            ))}
          </ul>
          <Settlement receipt={receipt} />
        </>
      )}
      {receipt.payment && (
        <p className="text-sm text-muted-foreground">{sv.exit.card(receipt.payment.brand, receipt.payment.last4)}</p>
      )}
      {receipt.emailed && <p className="text-sm">{sv.exit.emailed}</p>}
    </section>
  );
}
