const sekWhole = new Intl.NumberFormat("sv-SE", { style: "currency", currency: "SEK", maximumFractionDigits: 0 });
const krAmount = new Intl.NumberFormat("sv-SE", { maximumFractionDigits: 2 });

/** Dashboard money: Swedish crowns, no decimals ("12 345 kr"). */
export function formatSek(amount: number): string {
  return sekWhole.format(amount);
}

const whole = new Intl.NumberFormat("sv-SE", { maximumFractionDigits: 0 });

/** A chart axis's tick in Swedish: "12 345". */
export function formatWhole(value: number): string {
  return whole.format(value);
}

/** Module prices: "499 kr/month". */
export function formatKrPerMonth(amount: number): string {
  return `${krAmount.format(amount)} kr/month`;
}

/** Module keys such as "face_recognition" shown as "face recognition". */
export function humanize(name: string): string {
  return name.replaceAll("_", " ");
}

export function pluralize(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

const sekExact = new Intl.NumberFormat("sv-SE", { style: "currency", currency: "SEK", minimumFractionDigits: 2 });

/** Amounts to the öre, as on a receipt: "74,70 kr". */
export function formatKronor(amount: number): string {
  return sekExact.format(amount);
}

const percent = new Intl.NumberFormat("sv-SE", { style: "percent", maximumFractionDigits: 1 });

/** A share as a Swedish percentage: 0.253 → "25,3 %". */
export function formatPercent(share: number): string {
  return percent.format(share);
}
