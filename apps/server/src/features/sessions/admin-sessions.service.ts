import {
  SESSIONS_COUNT_LIMIT,
  type SessionDetail,
  type SessionListQuery,
  type SessionRow,
  type SessionStatus,
} from "@glide/contracts";
import type { SQL } from "drizzle-orm";
import { type Db, queryOne, queryRows, sql } from "../../db/client.ts";
import { notFound } from "../../platform/errors.ts";
import { fromOre } from "../../platform/money.ts";
import { assertCanManageStore } from "../admin-auth/admin-auth.hooks.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";

type VisitRow = {
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
const visitsOf = (source: SQL) => sql`
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
      coalesce(sum(i.quantity::bigint * i.unit_price_ore), 0)::bigint as total_ore
    from cart_items i where i.session_id = s.id) ci
  cross join lateral (
    select count(*)::int as lines, coalesce(sum(l.quantity), 0)::int as items
    from order_lines l where l.order_id = o.id) ol
  left join spot_checks sc on sc.session_id = s.id
  left join lateral (
    select x.state from disputes x where x.order_id = o.id
    order by x.state = 'open' desc, x.created_at desc limit 1) d on true
  where s.door_opened_at is not null`;

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

function toRow(v: VisitRow): SessionRow {
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

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Each status as a condition on the visit's own row (`s`), the same reading
 * as the status column above, so a status filter walks the entry index
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
    items: rows.map(toRow),
    total: Math.min(counted, SESSIONS_COUNT_LIMIT),
    capped: counted > SESSIONS_COUNT_LIMIT,
  };
}

type EventRow = {
  id: number | string;
  kind: string;
  source: SessionDetail["timeline"][number]["source"];
  staff_email: string | null;
  detail: Record<string, unknown> | null;
  created_at: Date | string;
};

/**
 * GET /api/v1/admin/sessions/:id: the row, its timeline, the cart, the
 * order with what was refunded of each line, refunds, disputes and the spot
 * check. Unknown (or never through the door): 404; another store's: 403,
 * as for every other store-owned record.
 */
export async function getSession(opts: { db: Db; actor: AdminActor; id: string }): Promise<SessionDetail> {
  const { db, id } = opts;
  const [visit] = await queryRows<VisitRow>(
    db,
    visitsOf(sql`(select ${id}::uuid as id) p join shopping_sessions s on s.id = p.id`),
  );
  if (!visit) throw notFound(`Session ${id} not found`);
  assertCanManageStore(opts.actor, visit.store_id);
  const [events, cart, order, refunds, disputes, spotCheck] = await Promise.all([
    queryRows<EventRow>(
      db,
      sql`select e.id, e.kind, e.source, a.email as staff_email, e.detail, e.created_at
          from session_events e left join admin_users a on a.id = e.admin_id
          where e.session_id = ${id} order by e.id`,
    ),
    queryRows<{
      id: string;
      product_id: string;
      name: string;
      quantity: number;
      unit_price_ore: number;
      weight_grams: number | null;
    }>(
      db,
      sql`select i.id, i.product_id, p.name, i.quantity, i.unit_price_ore, i.weight_grams
          from cart_items i join products p on p.id = i.product_id
          where i.session_id = ${id} order by i.created_at, i.id`,
    ),
    readOrder(db, visit.order_id),
    queryRows<{
      id: string;
      amount_ore: number;
      reason: string;
      state: string;
      source: string;
      staff_email: string | null;
      created_at: Date | string;
    }>(
      db,
      sql`select r.id, r.amount_ore, r.reason, r.state, r.source, a.email as staff_email, r.created_at
          from refunds r left join admin_users a on a.id = r.requested_by
          where r.order_id = ${visit.order_id} order by r.created_at, r.id`,
    ),
    queryRows<{
      id: string;
      state: string;
      message: string;
      resolution: string | null;
      created_at: Date | string;
      resolved_at: Date | string | null;
    }>(
      db,
      sql`select id, state, message, resolution, created_at, resolved_at from disputes
          where order_id = ${visit.order_id} order by created_at, id`,
    ),
    queryRows<{
      id: string;
      outcome: string | null;
      note: string | null;
      flagged_at: Date | string;
      decided_at: Date | string | null;
      staff_email: string | null;
    }>(
      db,
      sql`select c.id, c.outcome, c.note, c.flagged_at, c.decided_at, a.email as staff_email
          from spot_checks c left join admin_users a on a.id = c.decided_by where c.session_id = ${id}`,
    ),
  ]);
  const check = spotCheck[0];
  return {
    ...toRow(visit),
    timeline: events.map((e) => ({
      id: Number(e.id),
      kind: e.kind,
      source: e.source,
      staff_email: e.staff_email,
      detail: e.detail,
      at: iso(e.created_at)!,
    })),
    cart: cart.map((line) => ({
      id: line.id,
      product_id: line.product_id,
      name: line.name,
      quantity: line.quantity,
      unit_price: fromOre(line.unit_price_ore),
      total: fromOre(line.unit_price_ore * line.quantity),
      weight_grams: line.weight_grams,
    })),
    order,
    refunds: refunds.map((r) => ({
      id: r.id,
      amount: fromOre(r.amount_ore),
      reason: r.reason,
      state: r.state,
      source: r.source,
      staff_email: r.staff_email,
      created_at: iso(r.created_at)!,
    })),
    disputes: disputes.map((d) => ({
      id: d.id,
      state: d.state,
      message: d.message,
      resolution: d.resolution,
      created_at: iso(d.created_at)!,
      resolved_at: iso(d.resolved_at),
    })),
    spot_check_detail: check
      ? {
          id: check.id,
          outcome: check.outcome,
          note: check.note,
          flagged_at: iso(check.flagged_at)!,
          decided_at: iso(check.decided_at),
          staff_email: check.staff_email,
        }
      : null,
  };
}

async function readOrder(db: Db, orderId: string | null): Promise<SessionDetail["order"]> {
  if (!orderId) return null;
  const [[order], lines] = await Promise.all([
    queryRows<{
      id: string;
      state: string;
      receipt_number: number | null;
      total_ore: number;
      vat_ore: number;
      refunded_ore: number;
      paid_at: Date | string | null;
      failure_code: string | null;
      card_brand: string | null;
      card_last4: string | null;
    }>(
      db,
      sql`select id, state, receipt_number, total_ore, vat_ore, refunded_ore, paid_at, failure_code, card_brand, card_last4
          from orders where id = ${orderId}`,
    ),
    queryRows<{
      id: string;
      name: string;
      quantity: number;
      unit_price_ore: number;
      total_ore: number;
      refunded_quantity: number;
      refunded_ore: number;
      origin: string;
    }>(
      db,
      sql`select id, name, quantity, unit_price_ore, total_ore, refunded_quantity, refunded_ore, origin
          from order_lines where order_id = ${orderId} order by position`,
    ),
  ]);
  if (!order) return null;
  return {
    id: order.id,
    state: order.state,
    receipt_number: order.receipt_number,
    total: fromOre(order.total_ore),
    vat: fromOre(order.vat_ore),
    refunded: fromOre(order.refunded_ore),
    paid_at: iso(order.paid_at),
    failure_code: order.failure_code,
    card: order.card_brand && order.card_last4 ? { brand: order.card_brand, last4: order.card_last4 } : null,
    lines: lines.map((line) => ({
      id: line.id,
      name: line.name,
      quantity: line.quantity,
      unit_price: fromOre(line.unit_price_ore),
      total: fromOre(line.total_ore),
      refunded_quantity: line.refunded_quantity,
      refunded: fromOre(line.refunded_ore),
      origin: line.origin,
    })),
  };
}
