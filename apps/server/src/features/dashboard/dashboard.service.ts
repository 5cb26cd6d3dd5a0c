import type { DashboardStats } from "@glide/contracts";
import { type SQL, sql } from "drizzle-orm";
import { type Db, queryOne, queryRows } from "../../db/client.ts";
import { fromOre } from "../../platform/money.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";
import { countProducts } from "../products/products.service.ts";
import { countCustomers } from "../shopper-auth/shopper-auth.service.ts";

/**
 * Platform statistics, computed in SQL. A store admin sees the figures of
 * their own stores only: their users are the customers who have entered one
 * of them. Modules count (for MRR and usage) on active stores: a deactivated
 * store is not billed.
 */
export async function dashboardStats(opts: { db: Db; actor: AdminActor }): Promise<DashboardStats> {
  const { db, actor } = opts;
  const everyStore = actor.role === "platform_admin";
  const ids = actor.storeIds.length > 0 ? actor.storeIds : ["00000000-0000-0000-0000-000000000000"];
  const storeFilter = everyStore
    ? sql`true`
    : sql`s.id in (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`;

  const counts = await queryOne<{ total: number; active: number; mrr_ore: string | number }>(
    db,
    sql`
      select
        count(*)::int as total,
        count(*) filter (where s.is_active)::int as active,
        coalesce((
          select sum(m.price_per_month_ore)
          from store_modules sm
          join modules m on m.module_id = sm.module_id
          join stores s on s.id = sm.store_id
          where sm.enabled and s.is_active and ${storeFilter}
        ), 0) as mrr_ore
      from stores s
      where ${storeFilter}
    `,
  );

  const moduleRows = await queryRows<{ name: string; stores: number }>(
    db,
    sql`
      select m.name, count(*)::int as stores
      from store_modules sm
      join modules m on m.module_id = sm.module_id
      join stores s on s.id = sm.store_id
      where sm.enabled and s.is_active and ${storeFilter}
      group by m.name, m.sort_order
      order by m.sort_order
    `,
  );

  // Paid orders of the stores in view; an order whose store was deleted stays in the platform's figures.
  const sales = await queryOne<{ n: number; revenue_ore: string | number }>(
    db,
    everyStore
      ? sql`select count(*)::int as n, coalesce(sum(total_ore), 0) as revenue_ore from orders where state = 'paid'`
      : sql`select count(*)::int as n, coalesce(sum(o.total_ore), 0) as revenue_ore
            from orders o join stores s on s.id = o.store_id
            where o.state = 'paid' and ${storeFilter}`,
  );

  // Cameras of the stores in view (a platform admin also sees unassigned ones); offline is what the health checker saw last.
  const cameraCounts = await queryOne<{ n: number; offline: number }>(
    db,
    everyStore
      ? sql`select count(*)::int as n, (count(*) filter (where is_active and status = 'offline'))::int as offline
            from cameras`
      : sql`select count(*)::int as n, (count(*) filter (where c.is_active and c.status = 'offline'))::int as offline
            from cameras c join stores s on s.id = c.store_id where ${storeFilter}`,
  );

  return {
    total_stores: counts.total,
    active_stores: counts.active,
    inactive_stores: counts.total - counts.active,
    // The product database is global: every admin sees its size.
    total_products: await countProducts(db),
    total_users: everyStore ? await countCustomers(db) : await countVisitors(db, storeFilter),
    total_cameras: cameraCounts.n,
    cameras_offline: cameraCounts.offline,
    mrr: fromOre(Number(counts.mrr_ore)),
    total_transactions: sales.n,
    total_revenue: fromOre(Number(sales.revenue_ore)),
    active_modules: Object.fromEntries(moduleRows.map((r) => [r.name, r.stores])),
  };
}

/** Customers the door has let into one of the stores that `storeFilter` (on alias s) selects. */
async function countVisitors(db: Db, storeFilter: SQL): Promise<number> {
  const row = await queryOne<{ n: number }>(
    db,
    sql`select count(distinct ss.customer_id)::int as n
      from shopping_sessions ss join stores s on s.id = ss.store_id
      where ss.door_opened_at is not null and ${storeFilter}`,
  );
  return row.n;
}
