import type { FastifyInstance } from "fastify";
import { queryRows, sql, type Tx } from "../../db/client.ts";
import { schedulePeriodic } from "../../platform/housekeeping.ts";
import { type SessionChange, sessionAnnouncer } from "./session-events.ts";

/** How often each instance looks for visits gone quiet. */
export const ABANDON_SWEEP_MS = 60_000;
/** Any number that no other advisory lock of this database uses ("abnd"). */
export const ABANDON_LOCK = 0x61626e64;
/** The shortest store/abandon_after_minutes allowed: visits quieter than this are the only candidates. */
const SHORTEST_LIMIT_MINUTES = 5;

/** A visit through the door, not paid, not closed, not being charged (a charge in flight is never dropped). */
const open = sql`s.door_opened_at is not null and s.checked_out_at is null and s.abandoned_at is null
  and not exists (select 1 from orders o where o.session_id = s.id and o.state in ('charging', 'unsettled'))`;

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

/** Closes the quiet visits and puts `abandoned` on their timelines, in one statement. */
async function abandon(db: Tx, limits: { store_id: string; minutes: number }[]): Promise<SessionChange[]> {
  return queryRows<SessionChange>(
    db,
    sql`with limits as (
          select * from jsonb_to_recordset(${JSON.stringify(limits)}::jsonb) as l(store_id uuid, minutes int)
        ),
        gone as (
          update shopping_sessions s set abandoned_at = now()
          from limits l
          where s.store_id = l.store_id and ${open}
            and s.last_activity_at < now() - make_interval(mins => l.minutes)
          returning s.id, s.store_id, s.last_activity_at, l.minutes
        ),
        events as (
          insert into session_events (session_id, store_id, kind, source, detail)
          select id, store_id, 'abandoned', 'system',
            jsonb_build_object('idle_minutes', minutes, 'last_activity_at', last_activity_at)
          from gone
        )
        select store_id::text, id::text as session_id, 'abandoned' as kind from gone`,
  );
}

/**
 * One sweep: visits through the door with no activity for their store's
 * store/abandon_after_minutes are closed as abandoned. The cart is kept for
 * the record and never charged (checkout refuses it). One instance at a time
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

/** Runs the sweep every minute on every instance; the lock lets one of them do it. */
export function startAbandonedSweep(app: FastifyInstance) {
  return schedulePeriodic(app, "abandoned visits", ABANDON_SWEEP_MS, () => sweepAbandoned(app));
}
