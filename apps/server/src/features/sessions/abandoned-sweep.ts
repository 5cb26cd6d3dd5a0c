import type { FastifyInstance } from "fastify";
import { queryRows, sql, type Tx } from "../../db/client.ts";
import { schedulePeriodic } from "../../platform/housekeeping.ts";
import { transition } from "../visits/visit-state.ts";
import { type SessionChange, sessionAnnouncer } from "./session-events.ts";

/** How often each instance looks for visits gone quiet. */
export const ABANDON_SWEEP_MS = 60_000;
/** Any number that no other advisory lock of this database uses ("abnd"). */
export const ABANDON_LOCK = 0x61626e64;
/** The shortest store/abandon_after_minutes allowed: visits quieter than this are the only candidates. */
const SHORTEST_LIMIT_MINUTES = 5;

/** A visit in the store (a charge under way is never dropped: the visit is charging, not in_store). */
const open = sql`s.state = 'in_store'`;

/** Each store with a quiet open visit, and its effective limit; settings are read before any transaction. */
async function limitsOf(app: FastifyInstance): Promise<{ store_id: string; minutes: number }[]> {
  const stores = await queryRows<{ store_id: string }>(
    app.db,
    sql`select distinct s.store_id from shopping_sessions s
        where ${open} and s.last_activity_at < now() - make_interval(mins => ${SHORTEST_LIMIT_MINUTES})`,
  );
  const limits = [];
  for (const { store_id } of stores) {
    const minutes = (await app.settings.effective(store_id)).store.abandon_after_minutes;
    limits.push({ store_id, minutes });
  }
  return limits;
}

/**
 * Closes the quiet visits and puts `abandoned` on their timelines, in one
 * statement: the state machine's `idle` in the store (visit-state.ts) is
 * ended_empty for an empty cart and left_unpaid for one with goods, which
 * staff then settle.
 */
async function abandon(db: Tx, limits: { store_id: string; minutes: number }[]): Promise<SessionChange[]> {
  const [emptied, unpaid] = [transition("in_store", "idle", EMPTY), transition("in_store", "idle", WITH_GOODS)];
  if (!emptied.ok || !unpaid.ok) throw new Error("the state machine no longer lets a quiet visit close");
  return queryRows<SessionChange>(
    db,
    sql`with limits as (
          select * from jsonb_to_recordset(${JSON.stringify(limits)}::jsonb) as l(store_id uuid, minutes int)
        ),
        -- FOR UPDATE, as a checkout holds a visit: a visit whose cart is changing right now (a scan holds it
        -- FOR KEY SHARE) is skipped until the next round, and a change that comes after waits and finds it closed.
        quiet as (
          select s.id, l.minutes from shopping_sessions s join limits l on l.store_id = s.store_id
          where ${open} and s.last_activity_at < now() - make_interval(mins => l.minutes)
          for update of s skip locked
        ),
        gone as (
          update shopping_sessions s set abandoned_at = now(),
            state = case when exists (select 1 from cart_items i where i.session_id = s.id)
                         then ${unpaid.to} else ${emptied.to} end
          from quiet q
          where s.id = q.id
          returning s.id, s.store_id, s.last_activity_at, s.state, q.minutes
        ),
        -- An empty visit that ends gives its pant machine vouchers back; one left unpaid keeps them for staff's charge.
        released as (
          delete from pant_vouchers v using gone g where v.session_id = g.id and g.state = 'ended_empty'
        ),
        events as (
          insert into session_events (session_id, store_id, kind, source, detail)
          select id, store_id, 'abandoned', 'system',
            jsonb_build_object('idle_minutes', minutes, 'last_activity_at', last_activity_at, 'left_unpaid',
              state = 'left_unpaid')
          from gone
        )
        select store_id::text, id::text as session_id, 'abandoned' as kind from gone`,
  );
}

const EMPTY = { hasGoods: false, gone: true };
const WITH_GOODS = { hasGoods: true, gone: true };

/**
 * One sweep: visits in the store with no activity for their store's
 * store/abandon_after_minutes are closed as abandoned: an empty one ends, one
 * with goods is left unpaid (its cart kept) for staff to charge or write off,
 * and its shopper pays it before entering again. One instance at a time
 * holds a transaction-scoped advisory lock for the sweep; the others skip it
 * (PGlite, one instance by design, always gets it). Each visit closed is on
 * its timeline as an `abandoned` event, which is also the record of the sweep.
 */
export async function sweepAbandoned(app: FastifyInstance): Promise<SessionChange[] | "skipped"> {
  const limits = await limitsOf(app);
  const changes = await app.db.transaction(async (tx) => {
    const [lock] = await queryRows<{ ok: boolean }>(tx, sql`select pg_try_advisory_xact_lock(${ABANDON_LOCK}) as ok`);
    return lock?.ok ? abandon(tx, limits) : null;
  });
  if (changes === null) return "skipped";
  const announce = sessionAnnouncer(app.bus, app.log);
  for (const change of changes) await announce(change);
  return changes;
}

/** Runs the sweep once a minute on whichever instance claims the round; the lock keeps two sweeps apart. */
export function startAbandonedSweep(app: FastifyInstance) {
  return schedulePeriodic(app, "abandoned visits", ABANDON_SWEEP_MS, () => sweepAbandoned(app), { oncePerRound: true });
}
