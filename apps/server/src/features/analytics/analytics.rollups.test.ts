import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/client.ts";
import { analyticsBackfillStatements } from "./analytics.backfill.ts";
import {
  createProduct,
  createStore,
  ctx,
  failRefund,
  openAnalyticsTests,
  openDoor,
  placeOrder,
  refund,
} from "./analytics.fixtures.ts";

beforeAll(openAnalyticsTests);
afterAll(() => ctx.close());

describe("rollups stay exact", () => {
  it("equal a direct aggregate over orders, lines, visits and refunds after concurrent checkouts and refunds", async () => {
    const stores = [await createStore("Mix A"), await createStore("Mix B", "America/New_York")];
    const catalogue = await Promise.all(
      ["Äpple", "Banan", "Citron", "Dadel", "Fikon"].map((name, i) => createProduct(name, i % 2 ? "Frukt" : null)),
    );
    // mulberry32: the same mix on every run.
    let seed = 42;
    const random = (n: number) => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) % n;
    };
    const at = () => new Date(Date.UTC(2025, 8, 1 + random(3), random(24), random(60))).toISOString();
    const work: (() => Promise<unknown>)[] = [];
    for (let i = 0; i < 60; i++) {
      const store = stores[random(2)]!.id;
      const lines = Array.from({ length: 1 + random(3) }, () => ({
        product: catalogue[random(5)]!,
        quantity: 1 + random(4),
        unitOre: 500 + random(3000),
      }));
      const when = at();
      const kind = random(10);
      work.push(async () => {
        await openDoor(store, when);
        if (kind === 0) return placeOrder(store, when, lines, "declined");
        const order = await placeOrder(store, when, lines);
        if (kind < 4) {
          const id = await refund(order.id, 1 + random(order.totalOre), at(), "pending");
          if (kind === 1) await failRefund(id);
          if (kind === 2) await ctx.app.db.execute(sql`update refunds set state = 'succeeded' where id = ${id}`);
        }
      });
    }
    // Several at a time (truly concurrent on PostgreSQL's pool; PGlite runs them one by one).
    for (let i = 0; i < work.length; i += 8) await Promise.all(work.slice(i, i + 8).map((w) => w()));

    const ids = sql.join(
      stores.map((s) => sql`${s.id}::uuid`),
      sql`, `,
    );
    const rollupHours = await queryRows(
      ctx.app.db,
      sql`select store_id, to_char(hour, 'YYYY-MM-DD HH24') as hour, entries, purchases, revenue_ore::bigint::text as revenue_ore,
            vat_ore::text as vat_ore, items, refunds, refunds_ore::text as refunds_ore
          from analytics_store_hours where store_id in (${ids})
            and (entries, purchases, revenue_ore, vat_ore, items, refunds, refunds_ore) <> (0, 0, 0, 0, 0, 0, 0)
          order by 1, 2`,
    );
    const directHours = await queryRows(
      ctx.app.db,
      sql`select store_id, hour, sum(entries)::int as entries, sum(purchases)::int as purchases,
            sum(revenue_ore)::text as revenue_ore, sum(vat_ore)::text as vat_ore, sum(items)::int as items,
            sum(refunds)::int as refunds, sum(refunds_ore)::text as refunds_ore
          from (
            select ss.store_id, to_char(ss.door_opened_at at time zone s.timezone, 'YYYY-MM-DD HH24') as hour,
              1 as entries, 0 as purchases, 0 as revenue_ore, 0 as vat_ore, 0 as items, 0 as refunds, 0 as refunds_ore
            from shopping_sessions ss join stores s on s.id = ss.store_id where ss.door_opened_at is not null
            union all
            select o.store_id, to_char(o.paid_at at time zone s.timezone, 'YYYY-MM-DD HH24'), 0, 1, o.total_ore, o.vat_ore,
              (select sum(quantity) from order_lines l where l.order_id = o.id), 0, 0
            from orders o join stores s on s.id = o.store_id where o.state = 'paid'
            union all
            select o.store_id, to_char(r.created_at at time zone s.timezone, 'YYYY-MM-DD HH24'), 0, 0, 0, 0, 0, 1, r.amount_ore
            from refunds r join orders o on o.id = r.order_id join stores s on s.id = o.store_id where r.state <> 'failed'
          ) x where store_id in (${ids})
          group by 1, 2 order by 1, 2`,
    );
    expect(rollupHours.length).toBeGreaterThan(20);
    expect(rollupHours).toEqual(directHours);

    const rollupDays = await queryRows(
      ctx.app.db,
      sql`select store_id, day::text as day, product_key, quantity, revenue_ore::text as revenue_ore
          from analytics_product_days where store_id in (${ids}) order by 1, 2, 3`,
    );
    const directDays = await queryRows(
      ctx.app.db,
      sql`select o.store_id, (o.paid_at at time zone s.timezone)::date::text as day, l.product_id::text as product_key,
            sum(l.quantity)::int as quantity, sum(l.total_ore)::text as revenue_ore
          from order_lines l join orders o on o.id = l.order_id join stores s on s.id = o.store_id
          where o.state = 'paid' and o.store_id in (${ids})
          group by 1, 2, 3 order by 1, 2, 3`,
    );
    expect(rollupDays).toEqual(directDays);
    const rollupMonths = await queryRows(
      ctx.app.db,
      sql`select store_id, month::text as month, product_key, quantity, revenue_ore::text as revenue_ore
          from analytics_product_months where store_id in (${ids}) order by 1, 2, 3`,
    );
    const directMonths = await queryRows(
      ctx.app.db,
      sql`select o.store_id, date_trunc('month', o.paid_at at time zone s.timezone)::date::text as month,
            l.product_id::text as product_key, sum(l.quantity)::int as quantity, sum(l.total_ore)::text as revenue_ore
          from order_lines l join orders o on o.id = l.order_id join stores s on s.id = o.store_id
          where o.state = 'paid' and o.store_id in (${ids})
          group by 1, 2, 3 order by 1, 2, 3`,
    );
    expect(rollupMonths).toEqual(directMonths);
    // And the refunds the rollups hold are what the orders say was given back.
    const [given] = await queryRows<{ refunded: string; rolled: string }>(
      ctx.app.db,
      sql`select (select coalesce(sum(refunded_ore), 0) from orders where store_id in (${ids}))::text as refunded,
            (select coalesce(sum(refunds_ore), 0) from analytics_store_hours where store_id in (${ids}))::text as rolled`,
    );
    expect(Number(given!.refunded)).toBeGreaterThan(0);
    expect(given!.rolled).toBe(given!.refunded);
  });

  it("are rebuilt identically by the migration's backfill", async () => {
    const snapshot = () =>
      Promise.all([
        queryRows(
          ctx.app.db,
          sql`select * from analytics_store_hours
          where (entries, purchases, revenue_ore, vat_ore, items, refunds, refunds_ore) <> (0, 0, 0, 0, 0, 0, 0)
          order by store_id, hour`,
        ),
        queryRows(
          ctx.app.db,
          sql`select store_id, day::text, product_key, quantity, revenue_ore from analytics_product_days
          where (quantity, revenue_ore) <> (0, 0) order by store_id, day, product_key`,
        ),
        queryRows(
          ctx.app.db,
          sql`select store_id, month::text, product_key, quantity, revenue_ore from analytics_product_months
          where (quantity, revenue_ore) <> (0, 0) order by store_id, month, product_key`,
        ),
      ]);
    const kept = await snapshot();
    expect(kept[0].length).toBeGreaterThan(20);
    await ctx.app.db.execute(sql`delete from analytics_store_hours`);
    await ctx.app.db.execute(sql`delete from analytics_product_days`);
    await ctx.app.db.execute(sql`delete from analytics_product_months`);
    for (const statement of analyticsBackfillStatements()) await ctx.app.db.execute(sql.raw(statement));
    expect(await snapshot()).toEqual(kept);
  });
});
