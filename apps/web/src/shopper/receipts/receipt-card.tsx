import type { Receipt } from "@glide/contracts";
import { formatKr } from "../lib/money.ts";
import { sv } from "../sv.ts";

/** A kvitto: the shop, its organisation number and address, the time, each line, VAT per rate, the total, the card. */
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
          <li key={index} className="flex justify-between gap-3">
            <span>
              {item.quantity} x {item.name}
            </span>
            <span className="tabular-nums">{formatKr(item.total)}</span>
          </li>
        ))}
      </ul>
      <div className="flex justify-between border-t pt-3 text-lg font-bold">
        <span>{sv.exit.total}</span>
        <span className="tabular-nums">{formatKr(receipt.total)}</span>
      </div>
      {receipt.vat.map((rate) => (
        <p key={rate.rate} className="flex justify-between text-sm text-muted-foreground">
          <span>{sv.exit.vat(Math.round(rate.rate * 100))}</span>
          <span className="tabular-nums">{formatKr(rate.amount)}</span>
        </p>
      ))}
      {receipt.refunds.length > 0 && (
        <div className="flex flex-col gap-1 border-t pt-3">
          {receipt.refunds.map((refund) => (
            <p key={refund.id} className="flex justify-between gap-3">
              <span>
                {refund.state === "pending" ? sv.receipts.refundPending : sv.receipts.refunded}{" "}
                {refund.lines.map((line) => `${line.quantity} x ${line.name}`).join(", ")}
              </span>
              <span className="tabular-nums">−{formatKr(refund.amount)}</span>
            </p>
          ))}
          <p className="flex justify-between font-bold">
            <span>{sv.receipts.net}</span>
            <span className="tabular-nums">{formatKr(receipt.total - receipt.refunded)}</span>
          </p>
        </div>
      )}
      {receipt.payment && (
        <p className="text-sm text-muted-foreground">{sv.exit.card(receipt.payment.brand, receipt.payment.last4)}</p>
      )}
    </section>
  );
}
