import type { SessionDetail } from "@glide/contracts";
import { Fragment, type ReactNode } from "react";
import { formatKronor } from "../../lib/format.ts";
import { useDateFormat } from "../settings/use-date-format.ts";
import { SessionCart } from "./session-cart.tsx";
import {
  campaignText,
  discountAmountText,
  discountLineText,
  offerText,
  paidByCard,
  pantLineText,
  voucherLineText,
} from "./session-format.ts";

const SPOT_CHECK_LABELS: Record<string, string> = {
  pending: "Waiting for staff",
  ok: "OK",
  items_added: "Items added",
  items_removed: "Items removed",
};

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="grid gap-2">
      <h3 id={id} className="font-semibold">
        {title}
      </h3>
      {children}
    </section>
  );
}

/** A row of the order's foot: words and kronor under the lines' totals. */
function FootRow({ label, amount, strong }: { label: string; amount: string; strong?: boolean }) {
  return (
    <tr className={strong ? "font-medium" : undefined}>
      <th scope="row" className={`py-1 pr-2 text-left ${strong ? "font-medium" : "font-normal"}`}>
        {label}
      </th>
      <td className="py-1 pr-2" />
      <td className="py-1 pr-2 text-right tabular-nums">{amount}</td>
      <td className="py-1" />
    </tr>
  );
}

/**
 * An order that pant machine vouchers paid part of, as the kvitto has it:
 * the total (which stands, with its VAT), each voucher, and what the card
 * paid, which is all a refund can give back.
 */
function VoucherRows({ order }: { order: NonNullable<SessionDetail["order"]> }) {
  return (
    <tfoot className="border-t">
      <FootRow label="Total" amount={formatKronor(order.total)} />
      {order.vouchers.map((voucher) => (
        <FootRow key={voucher.code} label={voucherLineText(voucher.code)} amount={discountAmountText(voucher.amount)} />
      ))}
      <FootRow label="Paid by card" amount={formatKronor(paidByCard(order.total, order.vouchers))} strong />
    </tfoot>
  );
}

/** The receipt's lines with what was refunded of each once charged; the cart before that. */
export function SessionLines({ session }: { session: SessionDetail }) {
  const dates = useDateFormat();
  const order = session.order && session.order.state !== "declined" ? session.order : null;
  return (
    <>
      {order ? (
        <Section
          id="session-receipt"
          title={order.receipt_number !== null ? `Receipt ${order.receipt_number}` : "Order"}
        >
          <table className="w-full text-sm">
            <caption className="sr-only">
              The order's lines, its multi-buy discounts and what was refunded of each line, then any pant vouchers that
              paid part of it
            </caption>
            <thead>
              <tr className="border-b text-left">
                <th scope="col" className="py-1 pr-2 font-medium">
                  Product
                </th>
                <th scope="col" className="py-1 pr-2 text-right font-medium">
                  Qty
                </th>
                <th scope="col" className="py-1 pr-2 text-right font-medium">
                  Total
                </th>
                <th scope="col" className="py-1 text-right font-medium">
                  Refunded
                </th>
              </tr>
            </thead>
            <tbody>
              {order.lines.map((line) => (
                <Fragment key={line.id}>
                  {/* The pant row sits under its product, so the border comes after it. */}
                  <tr className={line.pant ? undefined : "border-b last:border-0"}>
                    <td className="py-1 pr-2">
                      {line.name}
                      {line.ordinary_unit_price !== null ? (
                        <span className="text-muted-foreground"> ({campaignText(line.ordinary_unit_price)})</span>
                      ) : null}
                      {line.discount > 0 ? (
                        <span className="text-muted-foreground"> ({offerText(line.discount)})</span>
                      ) : null}
                      {line.origin === "spot_check" ? (
                        <span className="text-muted-foreground"> (added at a check)</span>
                      ) : null}
                    </td>
                    <td className="py-1 pr-2 text-right tabular-nums">{line.quantity}</td>
                    <td className="py-1 pr-2 text-right tabular-nums">{formatKronor(line.total)}</td>
                    <td className="py-1 text-right tabular-nums">
                      {line.refunded_quantity > 0 ? `${line.refunded_quantity} · ${formatKronor(line.refunded)}` : "—"}
                    </td>
                  </tr>
                  {line.pant ? (
                    <tr className="border-b text-muted-foreground last:border-0">
                      <td className="py-1 pr-2 pl-4">{pantLineText(line.quantity, line.pant)}</td>
                      <td className="py-1 pr-2" />
                      <td className="py-1 pr-2 text-right tabular-nums">{formatKronor(line.pant.total)}</td>
                      <td className="py-1" />
                    </tr>
                  ) : null}
                </Fragment>
              ))}
              {order.discounts.map((discount) => (
                // The order's multi-buy discounts under its goods, as the kvitto has them; the total is after them.
                // An offer gives one discount an order (a deleted one keeps its label), so the two make a key.
                <tr key={`${discount.offer_id}:${discount.label}`} className="border-b last:border-0">
                  <td className="py-1 pr-2">{discountLineText(discount)}</td>
                  <td className="py-1 pr-2" />
                  <td className="py-1 pr-2 text-right tabular-nums">{discountAmountText(discount.amount)}</td>
                  <td className="py-1" />
                </tr>
              ))}
            </tbody>
            {order.vouchers.length > 0 ? <VoucherRows order={order} /> : null}
          </table>
        </Section>
      ) : (
        <Section id="session-cart" title="Cart">
          <SessionCart session={session} />
        </Section>
      )}
      {session.refunds.length > 0 ? (
        <Section id="session-refunds" title="Refunds">
          <ul className="grid gap-1 text-sm">
            {session.refunds.map((refund) => (
              <li key={refund.id} className="flex flex-wrap justify-between gap-2">
                <span>
                  {dates.dateTime(refund.created_at)} · {refund.reason}
                  {refund.staff_email ? <span className="text-muted-foreground"> · {refund.staff_email}</span> : null}
                </span>
                <span className="tabular-nums">
                  {formatKronor(refund.amount)} ({refund.state})
                </span>
              </li>
            ))}
          </ul>
        </Section>
      ) : null}
      {session.disputes.length > 0 ? (
        <Section id="session-disputes" title="Dispute">
          <ul className="grid gap-2 text-sm">
            {session.disputes.map((dispute) => (
              <li key={dispute.id} className="grid gap-1">
                <span className="font-medium capitalize">{dispute.state}</span>
                <q className="break-words">{dispute.message}</q>
                {dispute.resolution ? (
                  <span className="text-muted-foreground">Answer: {dispute.resolution}</span>
                ) : null}
              </li>
            ))}
          </ul>
        </Section>
      ) : null}
      {session.spot_check_detail ? (
        <Section id="session-spot-check" title="Spot check">
          <p className="text-sm">
            {SPOT_CHECK_LABELS[session.spot_check_detail.outcome ?? "pending"] ?? session.spot_check_detail.outcome}
            {session.spot_check_detail.staff_email ? ` · ${session.spot_check_detail.staff_email}` : ""}
            {session.spot_check_detail.note ? ` · ${session.spot_check_detail.note}` : ""}
          </p>
        </Section>
      ) : null}
    </>
  );
}
