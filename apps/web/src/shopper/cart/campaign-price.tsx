import { formatKr } from "../lib/money.ts";
import { sv } from "../sv.ts";

/**
 * "Kampanj" and the ordinary price beside it, struck through as on the
 * shelf's campaign label, for a line that costs a campaign's price. A screen
 * reader hears "Kampanj, ordinarie pris 64,90 kr" (a struck-through price says
 * nothing by itself). Nothing for a line at its ordinary price, nor for a line
 * of a copy kept offline from before campaigns (it lacks the field).
 */
export function CampaignPrice({ ordinary }: { ordinary: number | null | undefined }) {
  if (ordinary === null || ordinary === undefined) return null;
  const amount = formatKr(ordinary);
  return (
    <p className="flex flex-wrap items-baseline gap-x-2 text-sm">
      <span className="rounded bg-destructive-muted px-1.5 font-semibold text-destructive">{sv.cart.campaign}</span>
      <span aria-hidden="true" className="text-muted-foreground tabular-nums">
        {sv.cart.ordinaryPrice} <s>{amount}</s>
      </span>
      <span className="sr-only">{sv.cart.ordinaryPriceSpoken(amount)}</span>
    </p>
  );
}
