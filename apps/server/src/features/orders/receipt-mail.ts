import { cardBrandName, type Receipt } from "@glide/contracts";

/** Receipts show Swedish time, whatever the server's own zone. */
export const RECEIPT_TIME_ZONE = "Europe/Stockholm";

const amount = new Intl.NumberFormat("sv-SE", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const percent = new Intl.NumberFormat("sv-SE", { maximumFractionDigits: 2 });
const kilograms = new Intl.NumberFormat("sv-SE", { minimumFractionDigits: 3, maximumFractionDigits: 3 });
export const dateTime = new Intl.DateTimeFormat("sv-SE", {
  timeZone: RECEIPT_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});

/** "35,80 kr" (kronor); another currency by its code. */
export const money = (kronor: number, currency: string) =>
  `${amount.format(kronor)} ${currency.toUpperCase() === "SEK" ? "kr" : currency.toUpperCase()}`;
const rateOf = (fraction: number) => `${percent.format(fraction * 100)} %`;
/** Header text is one line: a line break in a name must never start a header of its own. */
const oneLine = (text: string) => text.replace(/[\r\n\t]+/g, " ").trim();

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

type Line = { label: string; amount: string };

/** What a Swedish kvitto must show, in the order it is read; both parts are made from it. */
function contents(receipt: Receipt) {
  const { store, currency } = receipt;
  const seller = [
    store.legal_name && store.legal_name !== store.name ? store.legal_name : null,
    store.organization_number ? `Org.nr ${store.organization_number}` : null,
    store.address,
  ].filter((part): part is string => Boolean(part));
  // The pant is a line of its own under its product, as on the shelf's receipt; so is a campaign's ordinary price.
  const lines: Line[] = receipt.items.flatMap((item) => [
    {
      label:
        item.weight_grams === null
          ? `${item.quantity} x ${item.name}`
          : `${item.quantity} x ${item.name} (${kilograms.format(item.weight_grams / 1000)} kg)`,
      amount: money(item.total, currency),
    },
    // A campaign line says so, with the shelf's ordinary price for one beside it.
    ...(item.ordinary_unit_price === null
      ? []
      : [{ label: `  Kampanj, ord. pris ${money(item.ordinary_unit_price, currency)}/st`, amount: "" }]),
    ...(item.pant ? [{ label: `  ${item.quantity} x Pant`, amount: money(item.pant.total, currency) }] : []),
  ]);
  // A multi-buy discount is a line of its own under the goods, as a negative amount: "3 för 2 Bregott −49,90 kr".
  for (const discount of receipt.discounts ?? [])
    lines.push({ label: discount.label, amount: `−${money(discount.amount, currency)}` });
  const vat = receipt.vat.map((rate) => ({
    rate: rateOf(rate.rate),
    vat: money(rate.amount, currency),
    net: money(rate.net, currency),
    gross: money(rate.gross, currency),
  }));
  return {
    subject: oneLine(`Kvitto från ${store.name} nr ${receipt.number}`),
    storeName: store.name,
    seller,
    when: dateTime.format(new Date(receipt.paid_at)),
    number: String(receipt.number),
    lines,
    total: money(receipt.total, currency),
    // Pant machine vouchers paid part of the total: each under it, then what the card paid.
    payments: (receipt.vouchers ?? []).length
      ? [
          ...receipt.vouchers.map((v) => ({
            label: `Pantkvitto ${v.code}`,
            amount: `\u2212${money(v.amount, currency)}`,
          })),
          { label: "Betalt med kort", amount: money(receipt.paid_by_card, currency) },
        ]
      : [],
    vat,
    card: receipt.payment ? `${cardBrandName(receipt.payment.brand)} **** ${receipt.payment.last4}` : null,
  };
}

function text(c: ReturnType<typeof contents>): string {
  const width = Math.max(24, ...[...c.lines, ...c.payments].map((line) => line.label.length + 2));
  const row = (label: string, value: string) => (value ? `${label.padEnd(width)}${value}` : label);
  return [
    c.storeName,
    ...c.seller,
    "",
    `Datum: ${c.when}`,
    `Kvitto nr ${c.number}`,
    "",
    ...c.lines.map((line) => row(line.label, line.amount)),
    "",
    row("Totalt", c.total),
    ...c.payments.map((line) => row(line.label, line.amount)),
    "",
    ...c.vat.map((rate) => `Moms ${rate.rate}: ${rate.vat} (netto ${rate.net}, brutto ${rate.gross})`),
    "",
    c.card ? `Betalt med kort: ${c.card}` : "Betalt",
    "",
    "Tack för ditt köp!",
    "",
  ].join("\n");
}

function html(c: ReturnType<typeof contents>): string {
  const e = escapeHtml;
  const cell = 'style="padding:2px 8px"';
  const right = 'style="padding:2px 8px;text-align:right;white-space:nowrap"';
  return `<!doctype html>
<html lang="sv">
<head><meta charset="utf-8"><title>${e(c.subject)}</title></head>
<body style="font-family:sans-serif;color:#111">
<h1 style="font-size:20px">${e(c.storeName)}</h1>
${c.seller.map((part) => `<p style="margin:0">${e(part)}</p>`).join("\n")}
<p>Datum: ${e(c.when)}<br>Kvitto nr ${e(c.number)}</p>
<table style="border-collapse:collapse">
<thead><tr><th ${cell} align="left">Vara</th><th ${right}>Belopp</th></tr></thead>
<tbody>
${c.lines.map((line) => `<tr><td ${cell}>${e(line.label)}</td><td ${right}>${e(line.amount)}</td></tr>`).join("\n")}
</tbody>
<tfoot><tr><th ${cell} align="left">Totalt</th><th ${right}>${e(c.total)}</th></tr>
${c.payments.map((line) => `<tr><td ${cell}>${e(line.label)}</td><td ${right}>${e(line.amount)}</td></tr>`).join("\n")}</tfoot>
</table>
<table style="border-collapse:collapse;margin-top:12px">
<thead><tr><th ${cell} align="left">Momssats</th><th ${right}>Moms</th><th ${right}>Netto</th><th ${right}>Brutto</th></tr></thead>
<tbody>
${c.vat.map((rate) => `<tr><td ${cell}>${e(rate.rate)}</td><td ${right}>${e(rate.vat)}</td><td ${right}>${e(rate.net)}</td><td ${right}>${e(rate.gross)}</td></tr>`).join("\n")}
</tbody>
</table>
<p>${c.card ? `Betalt med kort: ${e(c.card)}` : "Betalt"}</p>
<p>Tack för ditt köp!</p>
</body>
</html>
`;
}

/** The receipt as an e-mail in Swedish: subject, a plain-text part and an HTML part with everything escaped. */
export function receiptMail(receipt: Receipt): { subject: string; text: string; html: string } {
  const c = contents(receipt);
  return { subject: c.subject, text: text(c), html: html(c) };
}
