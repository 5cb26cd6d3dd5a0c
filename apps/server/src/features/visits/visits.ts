import type { OpenVisit, UnpaidVisit, VisitState } from "@glide/contracts";
import { type Db, queryRows, sql, type Tx } from "../../db/client.ts";
import { lineValueOre } from "../pant/pant.ts";
import { cartTotals } from "../pricing/cart-offers.ts";
import { OWING_STATES } from "./visit-state.ts";

/**
 * Reading and moving visits. Which move is allowed is decided in
 * visit-state.ts; this file only reads the facts that decision needs and
 * writes its answer, always under the visit's row lock.
 */

/** Writes a state the state machine answered; the timestamps say when it ended, if it did. */
export async function moveVisit(tx: Tx, sessionId: string, to: VisitState, at: Date): Promise<void> {
  await tx.execute(
    sql`update shopping_sessions set state = ${to},
          checked_out_at = case when ${to} in ('paid', 'ended_empty') then coalesce(checked_out_at, ${at}) else checked_out_at end
        where id = ${sessionId}`,
  );
  // A visit that ends without paying gives its pant machine vouchers back, free for another visit.
  if (UNPAID_ENDS.includes(to))
    await tx.execute(
      sql`delete from pant_vouchers v where v.session_id = ${sessionId}
            and not exists (select 1 from orders o where o.id = v.order_id and o.state = 'paid')`,
    );
}

/** The ends of a visit with nothing paid. */
const UNPAID_ENDS: readonly VisitState[] = ["ended_empty", "written_off", "cancelled"];

/**
 * The shopper's visits a checkout settles, oldest entry first: open ones
 * (inside the store, or being paid) and those left with goods unpaid, in
 * every store.
 */
export async function owingVisits(db: Db | Tx, customerId: string): Promise<{ id: string; store_id: string }[]> {
  return queryRows(
    db,
    sql`select id, store_id from shopping_sessions
        where customer_id = ${customerId} and state in (${sql.join(
          OWING_STATES.map((state) => sql`${state}`),
          sql`, `,
        )})
        order by door_opened_at, id`,
  );
}

export type LatestVisit = { id: string; store_id: string; customer_id: string; state: VisitState };

/**
 * The visit an exit is about: the shopper's open visit that went through
 * the door last, else one left unpaid, else the last one that went through
 * the door at all (so a repeated question about a visit that just ended is
 * answered as it ended).
 */
export async function latestVisit(db: Db | Tx, customerId: string): Promise<LatestVisit | undefined> {
  const [row] = await queryRows<LatestVisit>(
    db,
    sql`select id, store_id, customer_id, state from shopping_sessions
        where customer_id = ${customerId} and door_opened_at is not null
        order by state in ('in_store', 'charging') desc, state = 'left_unpaid' desc, door_opened_at desc, id desc
        limit 1`,
  );
  return row;
}

export type { UnpaidVisit } from "@glide/contracts";

/** What a shopper still owes: visits they left with goods and no payment, oldest first. */
export async function unpaidVisits(db: Db | Tx, customerId: string): Promise<UnpaidVisit[]> {
  const rows = await queryRows<{ id: string; store_name: string; total_ore: number; left_at: Date | string }>(
    db,
    sql`select s.id, st.name as store_name,
          (select coalesce(sum(${lineValueOre("i")}), 0)::bigint from cart_items i where i.session_id = s.id) as total_ore,
          coalesce(s.exited_at, s.abandoned_at, s.last_activity_at) as left_at
        from shopping_sessions s join stores st on st.id = s.store_id
        where s.customer_id = ${customerId} and s.state = 'left_unpaid'
        order by s.door_opened_at, s.id`,
  );
  // What the exit would charge now: the lines less the day's multi-buy discounts.
  const now = new Date();
  return Promise.all(
    rows.map(async (row) => ({
      session_id: row.id,
      store_name: row.store_name,
      total: Number(row.total_ore) === 0 ? 0 : (await cartTotals(db, row.id, now)).total,
      left_at: new Date(row.left_at).toISOString(),
    })),
  );
}

/**
 * The shopper's visit inside a store now, for the way back to it: open (in
 * the store, or being paid), the one that went through the door last.
 */
export async function openVisit(db: Db | Tx, customerId: string): Promise<OpenVisit | null> {
  const [row] = await queryRows<{
    id: string;
    store_id: string;
    store_name: string;
    total_ore: number | string;
    item_count: number | string;
  }>(
    db,
    sql`select s.id, s.store_id, st.name as store_name,
          coalesce(sum(${lineValueOre("i")}), 0)::bigint as total_ore,
          coalesce(sum(i.quantity), 0)::bigint as item_count
        from shopping_sessions s
        join stores st on st.id = s.store_id
        left join cart_items i on i.session_id = s.id
        where s.customer_id = ${customerId} and s.state in ('in_store', 'charging') and s.door_opened_at is not null
        group by s.id, st.name
        order by s.door_opened_at desc, s.id desc
        limit 1`,
  );
  if (!row) return null;
  return {
    session_id: row.id,
    store_id: row.store_id,
    store_name: row.store_name,
    // The total the phone shows: the lines less the day's multi-buy discounts.
    total: Number(row.item_count) === 0 ? 0 : (await cartTotals(db, row.id, new Date())).total,
    item_count: Number(row.item_count),
  };
}
