import type { CalendarDay, Offer } from "@glide/contracts";
import { sql } from "../../db/client.ts";

/** An offer as the statements read it (`offerColumns` of offers `o`). */
export type OfferRow = {
  id: string;
  label: string;
  kind: "one_free" | "amount";
  buy: number;
  amount_ore: number | null;
  limit_per_visit: number | null;
  members_only: boolean;
  starts_on: CalendarDay;
  ends_on: CalendarDay;
  product_ids: string[];
};

/** The columns of an OfferRow, of offers aliased `o`, its products as a JSON list. */
export const offerColumns = sql`o.id, o.label, o.kind, o.buy, o.amount_ore, o.limit_per_visit, o.members_only,
  to_char(o.starts_on, 'YYYY-MM-DD') as starts_on, to_char(o.ends_on, 'YYYY-MM-DD') as ends_on,
  (select json_agg(op.product_id) from offer_products op where op.offer_id = o.id) as product_ids`;

/** An offer as pricing takes it. */
export const toOffer = (row: OfferRow): Offer => ({
  id: row.id,
  label: row.label,
  product_ids: row.product_ids ?? [],
  buy: row.buy,
  deal: row.kind === "amount" ? { kind: "amount", amount_ore: row.amount_ore ?? 0 } : { kind: "one_free" },
  limit_per_visit: row.limit_per_visit,
  members_only: row.members_only,
  from: row.starts_on,
  to: row.ends_on,
});
