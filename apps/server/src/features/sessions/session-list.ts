import { SESSIONS_COUNT_LIMIT, type SessionListQuery, type SessionRow, type SessionStatus } from "@glide/contracts";
import type { SQL } from "drizzle-orm";
import { type Db, queryOne, queryRows, sql } from "../../db/client.ts";
import { assertCanManageStore } from "../admin-auth/admin-auth.hooks.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";
import { toRow, type VisitRow, visitsOf, withOfferTotals } from "./session-row.ts";

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Each status as a condition on the visit's own row (`s`), the same reading
 * as `visitsOf`'s status column, so a status filter walks the entry index
 * instead of working out every visit's status first.
 */
const openDispute = sql`exists (select 1 from orders od join disputes dd on dd.order_id = od.id
                                where od.session_id = s.id and dd.state = 'open')`;
const cartTouched = sql`(exists (select 1 from cart_items ci where ci.session_id = s.id)
  or exists (select 1 from session_events se where se.session_id = s.id
             and se.kind in ('item_added', 'quantity_changed', 'item_removed')))`;
const inside = sql`s.state in ('in_store', 'charging') and not ${openDispute}`;
const STATUS_WHERE: Record<SessionStatus, SQL> = {
  disputed: openDispute,
  checked_out: sql`(s.state = 'paid' or (s.state = 'ended_empty' and s.abandoned_at is null)) and not ${openDispute}`,
  abandoned: sql`s.state = 'ended_empty' and s.abandoned_at is not null and not ${openDispute}`,
  left_unpaid: sql`s.state = 'left_unpaid' and not ${openDispute}`,
  written_off: sql`s.state = 'written_off' and not ${openDispute}`,
  shopping: sql`${inside} and ${cartTouched}`,
  entered: sql`${inside} and not ${cartTouched}`,
};

/**
 * Time zones are at most 14 hours ahead of UTC and 12 behind: a store-local
 * day lies within these bounds of the same UTC day, which the entry index
 * can use before the exact test in the store's own zone.
 */
const ZONE_AHEAD = "14 hours";
const ZONE_BEHIND = "36 hours";

/** The list's filters as SQL on `s` (shopping_sessions) and `st` (its store). */
function filters(actor: AdminActor, query: SessionListQuery): SQL[] {
  const where: SQL[] = [];
  if (actor.role !== "platform_admin") where.push(sql`s.store_id = any(${`{${actor.storeIds.join(",")}}`}::uuid[])`);
  if (query.store_id) where.push(sql`s.store_id = ${query.store_id}::uuid`);
  if (query.status) where.push(STATUS_WHERE[query.status]);
  const localDay = sql`(s.door_opened_at at time zone st.timezone)::date`;
  if (query.from) {
    if (DATE_ONLY.test(query.from))
      where.push(
        sql`s.door_opened_at >= (${query.from}::date - ${ZONE_AHEAD}::interval) at time zone 'UTC'
            and ${localDay} >= ${query.from}::date`,
      );
    else where.push(sql`s.door_opened_at >= ${query.from}::timestamptz`);
  }
  if (query.to) {
    if (DATE_ONLY.test(query.to))
      where.push(
        sql`s.door_opened_at < (${query.to}::date + ${ZONE_BEHIND}::interval) at time zone 'UTC'
            and ${localDay} <= ${query.to}::date`,
      );
    else where.push(sql`s.door_opened_at <= ${query.to}::timestamptz`);
  }
  const search = query.search?.trim();
  if (search) where.push(sql`s.id in (${searchHits(search)})`);
  return where;
}

/**
 * The visits a search finds, each way by an index: the shopper's name (the
 * shoppers named so, then their visits), the start of the session id (a
 * range of ids), or a receipt number.
 */
function searchHits(search: string): SQL {
  const hits = [
    sql`select ss.id from customers sc join shopping_sessions ss on ss.customer_id = sc.id
        where sc.name ilike ${`%${escapeLike(search)}%`}`,
  ];
  const prefix = idPrefixRange(search);
  if (prefix)
    hits.push(
      sql`select ss.id from shopping_sessions ss where ss.id between ${prefix.low}::uuid and ${prefix.high}::uuid`,
    );
  if (/^\d{1,9}$/.test(search))
    hits.push(sql`select ro.session_id from orders ro where ro.receipt_number = ${Number(search)}::int`);
  return sql.join(hits, sql` union all `);
}

/** The first and last UUID that start with `text` (hex digits and hyphens where a UUID has them), or null. */
export function idPrefixRange(text: string): { low: string; high: string } | null {
  const lower = text.toLowerCase();
  const shape = "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx";
  if (lower.length === 0 || lower.length > shape.length) return null;
  for (let i = 0; i < lower.length; i++) {
    const c = lower[i]!;
    if (shape[i] === "-" ? c !== "-" : !/[0-9a-f]/.test(c)) return null;
  }
  const fill = (digit: string) => lower + shape.slice(lower.length).replaceAll("x", digit);
  return { low: fill("0"), high: fill("f") };
}

/**
 * GET /api/v1/admin/sessions: newest entry first; a store admin sees only
 * their stores. The page's visits are picked from the visits alone, walking
 * the entry index (per store when one is chosen); only those 25 get their
 * status and sums worked out, the page leading the join (as a condition
 * `s.id in page` the planner put the lateral sums of every visit first).
 */
export async function listSessions(opts: {
  db: Db;
  actor: AdminActor;
  query: SessionListQuery;
  /** The sale clock: an open cart's total is after the offers of this moment's day. */
  at: Date;
}): Promise<{ items: SessionRow[]; total: number; capped: boolean }> {
  const { actor, query } = opts;
  if (query.store_id) assertCanManageStore(actor, query.store_id);
  const where = sql.join([sql`s.door_opened_at is not null`, ...filters(actor, query)], sql` and `);
  const chosen = sql`from shopping_sessions s join stores st on st.id = s.store_id where ${where}`;
  // At most SESSIONS_COUNT_LIMIT + 1 matches are counted: enough to say "more than the limit".
  const [rows, count] = await Promise.all([
    queryRows<VisitRow>(
      opts.db,
      sql`with page as (
            select s.id ${chosen}
            order by s.door_opened_at desc, s.id desc limit ${query.limit ?? 25} offset ${query.offset ?? 0})
          select v.* from (${visitsOf(sql`page p join shopping_sessions s on s.id = p.id`)}) v
          order by v.entered_at desc, v.id desc`,
    ),
    queryOne<{ n: number }>(
      opts.db,
      sql`select count(*)::int as n from (select 1 ${chosen} limit ${SESSIONS_COUNT_LIMIT + 1}) x`,
    ),
  ]);
  const counted = count.n;
  return {
    items: (await withOfferTotals(opts.db, rows, opts.at)).map(toRow),
    total: Math.min(counted, SESSIONS_COUNT_LIMIT),
    capped: counted > SESSIONS_COUNT_LIMIT,
  };
}
