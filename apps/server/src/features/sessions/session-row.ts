import type { SessionRow, SessionStatus } from "@glide/contracts";
import type { SQL } from "drizzle-orm";
import { type Db, queryRows, sql } from "../../db/client.ts";
import { fromOre, toOre } from "../../platform/money.ts";
import { lineValueOre } from "../pant/pant.ts";
import { cartTotals } from "../pricing/cart-offers.ts";

/** A visit as `visitsOf` reads it. */
export type VisitRow = {
  id: string;
  store_id: string;
  store_name: string;
  shopper_name: string | null;
  entered_at: Date | string;
  checked_out_at: Date | string | null;
  abandoned_at: Date | string | null;
  last_activity_at: Date | string;
  status: SessionStatus;
  payment_state: SessionRow["payment_state"];
  lines: number;
  items: number;
  total_ore: number;
  /** The total is an open cart's (no charge yet): its offers are taken off by withOfferTotals. */
  open_cart: boolean;
  refunded_ore: number;
  receipt_number: number | null;
  order_id: string | null;
  spot_check: string | null;
  dispute: string | null;
};

/**
 * The visits `source` gives as `s` (shopping_sessions, or a page of them
 * joined to it), with what the list shows of each. The cart counts while the visit is open; the order
 * once it is charged (a declined order leaves the cart as the truth). The
 * status reads in the order a person would: an open dispute first, then how
 * the visit ended, then whether anything happened in the cart. Only ever
 * asked for a page's visits or one: its lateral sums are per visit.
 */
export const visitsOf = (source: SQL) => sql`
  select s.id, s.store_id, st.name as store_name, c.name as shopper_name, s.door_opened_at as entered_at,
    s.checked_out_at, s.abandoned_at, s.last_activity_at, s.customer_id,
    case when d.state = 'open' then 'disputed'
         when s.state = 'paid' or (s.state = 'ended_empty' and s.abandoned_at is null) then 'checked_out'
         when s.state = 'ended_empty' then 'abandoned'
         when s.state in ('left_unpaid', 'written_off') then s.state
         when ci.lines > 0 or exists (select 1 from session_events e where e.session_id = s.id
                                        and e.kind in ('item_added', 'quantity_changed', 'item_removed')) then 'shopping'
         else 'entered' end as status,
    case when o.id is null then 'none'
         when o.state = 'paid' and o.refunded_ore > 0 and o.refunded_ore >= o.total_ore then 'refunded'
         when o.state = 'paid' and o.refunded_ore > 0 then 'partly_refunded'
         when o.state = 'awaiting_payment' then 'charging'
         else o.state end as payment_state,
    case when charged then ol.lines else ci.lines end as lines,
    case when charged then ol.items else ci.items end as items,
    case when charged then o.total_ore else ci.total_ore end as total_ore,
    (not charged and ci.lines > 0) as open_cart,
    coalesce(o.refunded_ore, 0) as refunded_ore, o.receipt_number, o.id as order_id,
    case when sc.id is null then null else coalesce(sc.outcome, 'pending') end as spot_check,
    d.state as dispute
  from ${source}
  join stores st on st.id = s.store_id
  left join customers c on c.id = s.customer_id
  left join orders o on o.session_id = s.id
  cross join lateral (select o.id is not null and o.state <> 'declined' as charged) k
  cross join lateral (
    select count(*)::int as lines, coalesce(sum(i.quantity), 0)::int as items,
      coalesce(sum(${lineValueOre("i")}), 0)::bigint as total_ore
    from cart_items i where i.session_id = s.id) ci
  cross join lateral (
    select count(*)::int as lines, coalesce(sum(l.quantity), 0)::int as items
    from order_lines l where l.order_id = o.id) ol
  left join spot_checks sc on sc.session_id = s.id
  left join lateral (
    select x.state from disputes x where x.order_id = o.id
    order by x.state = 'open' desc, x.created_at desc limit 1) d on true
  where s.door_opened_at is not null`;

/** A time from the database as the API writes it; null stays null. */
export const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** A visit as a row of the list (and the head of its detail). */
export function toRow(v: VisitRow): SessionRow {
  const checkedOut = iso(v.checked_out_at);
  return {
    id: v.id,
    store: { id: v.store_id, name: v.store_name },
    status: v.status,
    shopper_name: v.shopper_name,
    entered_at: iso(v.entered_at)!,
    exited_at: checkedOut,
    last_activity_at: iso(v.last_activity_at)!,
    abandoned_at: iso(v.abandoned_at),
    lines: v.lines,
    items: v.items,
    total: fromOre(v.total_ore),
    payment_state: v.payment_state,
    refunded: fromOre(v.refunded_ore),
    receipt_number: v.receipt_number,
    order_id: v.order_id,
    spot_check: v.spot_check,
    dispute: v.dispute,
  };
}

/**
 * One visit with what the list shows of it, or undefined when it is unknown
 * or never came through the door. An open cart's total is its lines' before
 * the day's offers: the caller prices it (cartTotals), as withOfferTotals does.
 */
export async function readVisit(db: Db, id: string): Promise<VisitRow | undefined> {
  const [visit] = await queryRows<VisitRow>(
    db,
    visitsOf(sql`(select ${id}::uuid as id) p join shopping_sessions s on s.id = p.id`),
  );
  return visit;
}

/**
 * The rows with an open cart given the total its shopper sees and the exit
 * would charge now: the lines less the day's multi-buy discounts (priced in
 * TypeScript, one prepared statement per such visit).
 */
export async function withOfferTotals(db: Db, rows: VisitRow[], at: Date): Promise<VisitRow[]> {
  return Promise.all(
    rows.map(async (row) =>
      row.open_cart ? { ...row, total_ore: toOre((await cartTotals(db, row.id, at)).total) } : row,
    ),
  );
}
