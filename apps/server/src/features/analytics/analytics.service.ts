import type {
  AnalyticsHour,
  AnalyticsRefundDay,
  AnalyticsRevenue,
  AnalyticsRevenueRow,
  AnalyticsSummary,
  AnalyticsTopCategory,
  AnalyticsTopProduct,
} from "@glide/contracts";
import { type SQL, sql } from "drizzle-orm";
import { type Db, queryOne, queryRows } from "../../db/client.ts";
import { notFound } from "../../platform/errors.ts";
import { fromOre } from "../../platform/money.ts";
import { assertCanManageStore } from "../admin-auth/admin-auth.hooks.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";

/**
 * The Analytics screen's figures, read from the rollups the triggers of
 * migration 0012 keep (analytics_store_hours, analytics_product_days), so a
 * year of a busy chain is a few hundred thousand small rows rather than
 * millions of orders. Buckets are store-local, so a range of days is each
 * store's own days. Definitions: docs/analytics.md.
 */

/** What a call covers: store-local days, both counted, and the stores in view (null: every store). */
export type AnalyticsScope = { from: string; to: string; storeIds: string[] | null };

type ScopeOptions = { db: Db; actor: AdminActor; from: string; to: string; storeId?: string | undefined };

/**
 * The stores a call may cover: the one asked for (if the admin manages it),
 * or all of the admin's stores. A store admin never sees another store.
 */
export async function analyticsScope(opts: ScopeOptions): Promise<AnalyticsScope> {
  const { db, actor, from, to, storeId } = opts;
  if (storeId) {
    assertCanManageStore(actor, storeId);
    const [store] = await queryRows<{ id: string }>(db, sql`select id from stores where id = ${storeId}`);
    if (!store) throw notFound("Store not found", "store_not_found");
    return { from, to, storeIds: [storeId] };
  }
  return { from, to, storeIds: actor.role === "platform_admin" ? null : actor.storeIds };
}

/**
 * The stores in view on a rollup's store_id column. Every store is also a
 * list (of the stores that exist), so the planner can walk the rollups'
 * (store_id, time) keys store by store instead of reading whole tables.
 */
function storeFilter(column: SQL, storeIds: string[] | null): SQL {
  if (storeIds === null) return sql`${column} = any(array(select id from stores))`;
  if (storeIds.length === 0) return sql`false`;
  return sql`${column} in (${sql.join(
    storeIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  )})`;
}

/** Hour rows of the scope: store-local hours from the first day's midnight to the end of the last day. */
function hoursOf(scope: AnalyticsScope): SQL {
  return sql`h.hour >= ${scope.from}::date::timestamp and h.hour < (${scope.to}::date + 1)::timestamp
    and ${storeFilter(sql`h.store_id`, scope.storeIds)}`;
}

type DayPiece = { from: string; to: string; sign: 1 | -1 };

const DAY_MS = 86_400_000;
const dayMs = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const monthStartMs = (ms: number, add = 0) => {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + add, 1);
};

/**
 * How to read a range of product sales with the fewest rollup rows: the
 * months to take from the month rollup (first and last, contiguous; null for
 * none), and day pieces to add (sign 1) or take away (-1). A month the range
 * covers wholly is one row per product. A month it covers in part is either
 * its days in the range, or the whole month less its days outside the range,
 * whichever is fewer days, so an end of the range never reads more than half
 * a month of days (Jan 2 – Dec 30 reads 12 months less 2 days, not 58 days).
 */
export function productPieces(
  from: string,
  to: string,
): { months: { first: string; last: string } | null; days: DayPiece[] } {
  const [f, t] = [dayMs(from), dayMs(to)];
  const months: number[] = [];
  const days: DayPiece[] = [];
  for (let m = monthStartMs(f); m <= t; m = monthStartMs(m, 1)) {
    const monthEnd = monthStartMs(m, 1) - DAY_MS;
    const [a, b] = [Math.max(f, m), Math.min(t, monthEnd)];
    const inside = (b - a) / DAY_MS + 1;
    const outside = (monthEnd - m) / DAY_MS + 1 - inside;
    // A month covered in part reads its days when they are no more than the rest (inside is at least one day).
    if (inside <= outside) {
      days.push({ from: isoDay(a), to: isoDay(b), sign: 1 });
      continue;
    }
    months.push(m);
    if (a > m) days.push({ from: isoDay(m), to: isoDay(a - DAY_MS), sign: -1 });
    if (b < monthEnd) days.push({ from: isoDay(b + DAY_MS), to: isoDay(monthEnd), sign: -1 });
  }
  return {
    months: months.length === 0 ? null : { first: isoDay(months[0]!), last: isoDay(months[months.length - 1]!) },
    days,
  };
}

/** Product rows of the scope, as productPieces reads them; a row taken away has its quantity and revenue negated. */
function productRowsOf(scope: AnalyticsScope): SQL {
  const { months, days } = productPieces(scope.from, scope.to);
  const parts = days.map(
    (piece) =>
      // The sign is 1 or -1 from productPieces, written as a literal so the sums keep their column types.
      sql`select product_key, product_id, name, category, ${sql.raw(String(piece.sign))} * quantity as quantity,
          ${sql.raw(String(piece.sign))} * revenue_ore as revenue_ore
        from analytics_product_days d
        where d.day between ${piece.from}::date and ${piece.to}::date
          and ${storeFilter(sql`d.store_id`, scope.storeIds)}`,
  );
  if (months) {
    parts.push(sql`select product_key, product_id, name, category, quantity, revenue_ore
      from analytics_product_months m
      where m.month between ${months.first}::date and ${months.last}::date
        and ${storeFilter(sql`m.store_id`, scope.storeIds)}`);
  }
  return sql.join(parts, sql` union all `);
}

/** PostgreSQL sends sums of bigint as text. */
const n = (v: string | number | null | undefined): number => Number(v ?? 0);
const kronor = (ore: string | number | null | undefined): number => fromOre(n(ore));
const ratio = (a: number, b: number, decimals: number): number | null =>
  b === 0 ? null : Math.round((a / b) * 10 ** decimals) / 10 ** decimals;

type Sums = {
  entries: string;
  purchases: string;
  revenue_ore: string;
  vat_ore: string;
  items: string;
  refunds: string;
  refunds_ore: string;
};

export async function analyticsSummary(db: Db, scope: AnalyticsScope): Promise<AnalyticsSummary> {
  const s = await queryOne<Sums>(
    db,
    sql`select coalesce(sum(entries), 0) as entries, coalesce(sum(purchases), 0) as purchases,
          coalesce(sum(revenue_ore), 0) as revenue_ore, coalesce(sum(vat_ore), 0) as vat_ore,
          coalesce(sum(items), 0) as items, coalesce(sum(refunds), 0) as refunds,
          coalesce(sum(refunds_ore), 0) as refunds_ore
        from analytics_store_hours h where ${hoursOf(scope)}`,
  );
  const orders = n(s.purchases);
  const revenueOre = n(s.revenue_ore);
  const vatOre = n(s.vat_ore);
  const refundsOre = n(s.refunds_ore);
  const basketOre = orders === 0 ? null : Math.round(revenueOre / orders);
  return {
    revenue: fromOre(revenueOre),
    vat: fromOre(vatOre),
    revenue_excl_vat: fromOre(revenueOre - vatOre),
    orders,
    items: n(s.items),
    entries: n(s.entries),
    conversion: ratio(orders, n(s.entries), 4),
    average_basket: basketOre === null ? null : fromOre(basketOre),
    average_items: ratio(n(s.items), orders, 2),
    refunds: n(s.refunds),
    refunded: fromOre(refundsOre),
    net_revenue: fromOre(revenueOre - refundsOre),
  };
}

type RevenueSums = { revenue_ore: string; vat_ore: string; orders: string };
const revenueFigures = (r: RevenueSums) => ({
  revenue: kronor(r.revenue_ore),
  vat: kronor(r.vat_ore),
  orders: n(r.orders),
});

/**
 * Revenue per store-local day (stores summed) and per store (days summed),
 * both from one pass over the hours: a year of 20 stores is 385 rows rather
 * than 7,300 store days, which no chart can show and which took longer to
 * send than to count (bench/results.md, Analytics).
 */
export async function analyticsRevenue(db: Db, scope: AnalyticsScope): Promise<AnalyticsRevenue> {
  const rows = await queryRows<
    RevenueSums & { day: string | null; store_id: string | null; store_name: string | null }
  >(
    db,
    // grouping(h.store_id) = 1 on the day totals, where store_id is null.
    sql`select to_char(g.day, 'YYYY-MM-DD') as day, g.store_id, s.name as store_name, g.revenue_ore, g.vat_ore, g.orders
        from (
          select h.hour::date as day, h.store_id, grouping(h.store_id) as per_day, sum(h.revenue_ore) as revenue_ore,
            sum(h.vat_ore) as vat_ore, sum(h.purchases) as orders
          from analytics_store_hours h where ${hoursOf(scope)}
          group by grouping sets ((h.hour::date), (h.store_id))
          having sum(h.purchases) <> 0 or sum(h.revenue_ore) <> 0
        ) g left join stores s on s.id = g.store_id
        order by g.per_day desc, g.day, g.revenue_ore desc, s.name, g.store_id`,
  );
  return {
    days: rows.flatMap((r) => (r.day === null ? [] : [{ day: r.day, ...revenueFigures(r) }])),
    stores: rows.flatMap((r) =>
      r.store_id === null ? [] : [{ store_id: r.store_id, store_name: r.store_name ?? "", ...revenueFigures(r) }],
    ),
  };
}

/** Revenue per store-local day and store, the revenue CSV's rows; days without sales are left out. */
export async function analyticsRevenueRows(db: Db, scope: AnalyticsScope): Promise<AnalyticsRevenueRow[]> {
  const rows = await queryRows<RevenueSums & { day: string; store_id: string; store_name: string }>(
    db,
    // Grouped by date and store id first (a hash of small keys), named afterwards.
    sql`select to_char(r.day, 'YYYY-MM-DD') as day, r.store_id, s.name as store_name, r.revenue_ore, r.vat_ore, r.orders
        from (
          select h.store_id, h.hour::date as day, sum(h.revenue_ore) as revenue_ore, sum(h.vat_ore) as vat_ore,
            sum(h.purchases) as orders
          from analytics_store_hours h where ${hoursOf(scope)}
          group by 1, 2
          having sum(h.purchases) <> 0 or sum(h.revenue_ore) <> 0
        ) r join stores s on s.id = r.store_id
        order by r.day, s.name, r.store_id`,
  );
  return rows.map((r) => ({ day: r.day, store_id: r.store_id, store_name: r.store_name, ...revenueFigures(r) }));
}

/** Entries and purchases per store-local hour of day, all 24 hours. */
export async function analyticsSessionsByHour(db: Db, scope: AnalyticsScope): Promise<AnalyticsHour[]> {
  const rows = await queryRows<{ hour: number; entries: string; purchases: string }>(
    db,
    sql`select extract(hour from h.hour)::int as hour, sum(h.entries) as entries, sum(h.purchases) as purchases
        from analytics_store_hours h where ${hoursOf(scope)}
        group by 1`,
  );
  const byHour = new Map(rows.map((r) => [r.hour, r]));
  return Array.from({ length: 24 }, (_, hour) => ({
    hour,
    entries: n(byHour.get(hour)?.entries),
    purchases: n(byHour.get(hour)?.purchases),
  }));
}

/**
 * Best-selling products by revenue (ties: more sold first, then by name).
 * Name and category are the product's today; a deleted product keeps the
 * name its lines were sold under.
 */
export async function analyticsTopProducts(
  db: Db,
  scope: AnalyticsScope,
  limit: number,
): Promise<AnalyticsTopProduct[]> {
  const rows = await queryRows<{
    product_id: string | null;
    name: string;
    category: string | null;
    quantity: string;
    revenue_ore: string;
  }>(
    db,
    sql`with sold as (
          select d.product_key, max(d.product_id::text)::uuid as product_id, max(d.name) as name,
            max(d.category) as category, sum(d.quantity) as quantity, sum(d.revenue_ore) as revenue_ore
          from (${productRowsOf(scope)}) d
          group by d.product_key
        )
        select p.id as product_id, coalesce(p.name, sold.name) as name,
          case when p.id is null then sold.category else p.category end as category,
          sold.quantity, sold.revenue_ore
        from sold left join products p on p.id = sold.product_id
        where sold.quantity <> 0 or sold.revenue_ore <> 0
        order by sold.revenue_ore desc, sold.quantity desc, 2, sold.product_key
        limit ${limit}`,
  );
  return rows.map((r) => ({
    product_id: r.product_id,
    name: r.name,
    category: r.category,
    quantity: n(r.quantity),
    revenue: kronor(r.revenue_ore),
  }));
}

/** Categories by revenue, as each product was filed when it sold (ties: more sold first, then by name). */
export async function analyticsTopCategories(
  db: Db,
  scope: AnalyticsScope,
  limit: number,
): Promise<AnalyticsTopCategory[]> {
  const rows = await queryRows<{ category: string | null; quantity: string; revenue_ore: string }>(
    db,
    sql`select d.category, sum(d.quantity) as quantity, sum(d.revenue_ore) as revenue_ore
        from (${productRowsOf(scope)}) d
        group by d.category
        having sum(d.quantity) <> 0 or sum(d.revenue_ore) <> 0
        order by 3 desc, 2 desc, 1 nulls last
        limit ${limit}`,
  );
  return rows.map((r) => ({ category: r.category, quantity: n(r.quantity), revenue: kronor(r.revenue_ore) }));
}

/** Refunds per store-local day they were made; days without refunds are left out. */
export async function analyticsRefunds(db: Db, scope: AnalyticsScope): Promise<AnalyticsRefundDay[]> {
  const rows = await queryRows<{ day: string; refunds: string; refunds_ore: string }>(
    db,
    sql`select to_char(h.hour, 'YYYY-MM-DD') as day, sum(h.refunds) as refunds, sum(h.refunds_ore) as refunds_ore
        from analytics_store_hours h where ${hoursOf(scope)} and h.refunds <> 0
        group by 1
        order by 1`,
  );
  return rows.map((r) => ({ day: r.day, refunds: n(r.refunds), amount: kronor(r.refunds_ore) }));
}
