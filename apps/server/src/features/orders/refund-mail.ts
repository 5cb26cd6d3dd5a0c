import type { Receipt } from "@glide/contracts";
import { type Db, queryRows, sql, type Tx } from "../../db/client.ts";
import { fromOre } from "../../platform/money.ts";
import { dateTime, escapeHtml, money } from "./receipt-mail.ts";

const percent = new Intl.NumberFormat("sv-SE", { maximumFractionDigits: 2 });

/**
 * In the transaction that marks a refund succeeded: a Swedish notice is
 * queued in the receipt mail outbox (kind refund) when the shopper has given
 * an e-mail, once per refund. True when one was queued.
 */
export async function enqueueRefundMail(tx: Tx, refundId: string): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`insert into receipt_mails (order_id, to_address, kind, refund_id)
        select r.order_id, c.email, 'refund', r.id
        from refunds r join orders o on o.id = r.order_id join customers c on c.id = o.customer_id
        where r.id = ${refundId} and c.email is not null
        on conflict (refund_id) do nothing
        returning id`,
  );
  return rows.length > 0;
}

/** The refund notice: what was given back, to which card, and what the purchase cost in the end. */
export async function refundMail(
  db: Db,
  receipt: Receipt,
  refundId: string,
): Promise<{ subject: string; text: string; html: string } | null> {
  const [refund] = await queryRows<{ amount_ore: number; completed_at: Date | string | null }>(
    db,
    sql`select amount_ore, completed_at from refunds where id = ${refundId} and state = 'succeeded'`,
  );
  if (!refund) return null;
  const lines = await queryRows<{ name: string; quantity: number; amount_ore: number }>(
    db,
    sql`select l.name, rl.quantity, rl.amount_ore from refund_lines rl join order_lines l on l.id = rl.order_line_id
        where rl.refund_id = ${refundId} and rl.quantity > 0 order by l.position`,
  );
  const { currency, store } = receipt;
  const amount = money(fromOre(refund.amount_ore), currency);
  const net = money(receipt.total - receipt.refunded, currency);
  const subject = `Återbetalning från ${store.name}, kvitto nr ${receipt.number}`.replace(/[\r\n\t]+/g, " ");
  const rows = lines.map((line) => ({
    label: `${line.quantity} x ${line.name}`,
    amount: money(fromOre(line.amount_ore), currency),
  }));
  // The order was paid: what was given back so far, and its VAT per rate, leave the net it cost.
  const refundedVat = receipt.refunded_vat.map(
    (rate) => `Varav moms ${percent.format(rate.rate * 100)} %: ${money(rate.amount, currency)}`,
  );
  const card = receipt.payment ? ` till kortet som slutar på ${receipt.payment.last4}` : "";
  const when = dateTime.format(new Date(refund.completed_at ?? Date.now()));
  const text = [
    store.name,
    "",
    `Vi har betalat tillbaka ${amount}${card}.`,
    `Kvitto nr ${receipt.number}, återbetalt ${when}.`,
    "",
    ...rows.map((row) => `${row.label}: ${row.amount}`),
    "",
    `Betalt: ${money(receipt.total, currency)}`,
    `Återbetalt hittills: ${money(receipt.refunded, currency)}`,
    ...refundedVat,
    `Netto efter återbetalning: ${net}`,
    "",
    "Pengarna syns på kontot inom några bankdagar.",
    "",
  ].join("\n");
  const e = escapeHtml;
  const html = `<!doctype html>
<html lang="sv">
<head><meta charset="utf-8"><title>${e(subject)}</title></head>
<body style="font-family:sans-serif;color:#111">
<h1 style="font-size:20px">${e(store.name)}</h1>
<p>Vi har betalat tillbaka <strong>${e(amount)}</strong>${e(card)}.<br>Kvitto nr ${e(String(receipt.number))}, återbetalt ${e(when)}.</p>
<ul>
${rows.map((row) => `<li>${e(row.label)}: ${e(row.amount)}</li>`).join("\n")}
</ul>
<p>Betalt: ${e(money(receipt.total, currency))}<br>Återbetalt hittills: ${e(money(receipt.refunded, currency))}<br>${refundedVat.map((line) => `${e(line)}<br>`).join("")}Netto efter återbetalning: ${e(net)}</p>
<p>Pengarna syns på kontot inom några bankdagar.</p>
</body>
</html>
`;
  return { subject, text, html };
}
