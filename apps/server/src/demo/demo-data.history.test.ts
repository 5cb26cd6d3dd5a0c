import { randomUUID } from "node:crypto";
import { gtinCheckDigit, refundResultSchema, sessionDetailSchema } from "@glide/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bootstrap } from "../bootstrap.ts";
import { queryRows, sql } from "../db/client.ts";
import { shopper } from "../test/factories.ts";
import { createDeviceKey } from "../test/harness.ts";
import {
  admin,
  closeDemoTests,
  ctx,
  openDemoTests,
  outline,
  patterns,
  pay,
  ROWS_OF_A_VISIT,
  seededVisits,
  store,
  theStory,
} from "./demo-data.fixtures.ts";
import { demoProducts } from "./demo-products.ts";

/**
 * The demo's first start (bootstrap with DEMO_DATA, as npm start does) on a
 * real database: the Dashboard, Analytics and Sessions must tell one story
 * of the seeded past, and a visit made through the API afterwards must leave
 * the same kinds of rows as the seeded ones, so the seed is what the live
 * paths would have written.
 */

beforeAll(openDemoTests);
afterAll(closeDemoTests);

describe("the demo's seeded history", () => {
  it("is one story on the Dashboard, in Analytics over the seeded period and on Sessions", async () => {
    const { summary, rows, paid } = await theStory();
    // Mostly paid visits with goods, a few that left with nothing or went quiet, and a few refunds of both kinds.
    expect(paid.length).toBeGreaterThan(rows.length * 0.8);
    expect(rows.some((r) => r.status === "abandoned")).toBe(true);
    expect(rows.some((r) => r.status === "checked_out" && r.payment_state === "none")).toBe(true);
    expect(rows.some((r) => r.payment_state === "partly_refunded")).toBe(true);
    expect(rows.some((r) => r.payment_state === "refunded")).toBe(true);
    expect(new Set(paid.map((r) => r.store.id)).size).toBe(4);
    expect(new Set(paid.map((r) => r.shopper_name)).size).toBeGreaterThan(20);
    expect(summary.revenue).toBeGreaterThan(0);
  });

  it("keeps its times in order and in the past, its receipts numbered without gaps and its VAT per rate", async () => {
    const db = ctx.app.db;
    const [times] = await queryRows<{ bad: number; late: number }>(
      db,
      sql`select count(*) filter (where not (s.created_at < s.door_opened_at
                   and s.door_opened_at < coalesce(s.exited_at, s.abandoned_at)
                   and coalesce(s.checked_out_at, s.abandoned_at) <= coalesce(s.exited_at, s.abandoned_at)
                   and s.door_opened_at < s.entry_expires_at))::int as bad,
                 count(*) filter (where greatest(s.exited_at, s.abandoned_at, s.last_activity_at) >= now())::int as late
          from shopping_sessions s`,
    );
    expect(times).toEqual({ bad: 0, late: 0 });
    // A timeline read in id order is read in time order.
    const [timeline] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from (
            select created_at < lag(created_at) over (partition by session_id order by id) as back from session_events) e
          where back`,
    );
    expect(timeline!.n).toBe(0);
    const receipts = await queryRows<{ store_id: string; n: number; first: number; last: number; counter: number }>(
      db,
      sql`select o.store_id, count(*)::int as n, min(receipt_number) as first, max(receipt_number) as last,
            (select last_number from store_receipt_counters c where c.store_id = o.store_id) as counter
          from orders o group by o.store_id`,
    );
    for (const r of receipts) expect([r.first, r.last, r.counter]).toEqual([1, r.n, r.n]);
    const [vat] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from orders o
          where o.vat_ore <> (select sum(round(g * r / (10000.0 + r))) from (
                                select vat_rate_bp as r, sum(total_ore) as g from order_lines
                                where order_id = o.id group by vat_rate_bp) per_rate)
             or o.total_ore <> (select sum(total_ore) from order_lines where order_id = o.id)`,
    );
    expect(vat!.n).toBe(0);
    // Each line at its product's category's rate on the Stockholm day its order was paid, as the checkout takes it.
    const rates = await queryRows<{ category: string; rate: number; right: boolean; n: number }>(
      db,
      sql`select p.vat_category as category, l.vat_rate_bp as rate, l.vat_rate_bp = (
              select r.rate_bp from vat_rates r where r.country = 'SE' and r.category = p.vat_category
                and r.valid_from <= (o.paid_at at time zone 'Europe/Stockholm')::date
                and (r.valid_to is null or r.valid_to >= (o.paid_at at time zone 'Europe/Stockholm')::date)) as right,
            count(*)::int as n
          from order_lines l join orders o on o.id = l.order_id join products p on p.id = l.product_id
          group by 1, 2, 3 order by 1, 2`,
    );
    expect(rates.filter((r) => !r.right)).toEqual([]);
    expect(new Set(rates.map((r) => r.category))).toEqual(new Set(["food", "standard", "books_newspapers"]));
  });

  it("is seeded on the first start only: a later start adds nothing", async () => {
    const counts = () =>
      queryRows<Record<string, number>>(
        ctx.app.db,
        sql`select (select count(*)::int from stores) as stores, (select count(*)::int from products) as products,
              (select count(*)::int from customers) as customers, (select count(*)::int from shopping_sessions) as visits,
              (select count(*)::int from orders) as orders, (select count(*)::int from refunds) as refunds`,
      );
    const before = await counts();
    expect(before[0]!.visits).toBeGreaterThan(0);
    expect(await bootstrap(ctx.app)).toBeNull();
    expect(await counts()).toEqual(before);
  });

  it("leaves the same kinds of rows as a visit made through the API, which continues its receipt numbers", async () => {
    const seededPaid = await queryRows<{ n: number }>(
      ctx.app.db,
      sql`select count(*)::int as n from orders where store_id = ${store}`,
    );
    // A shopper with a card goes through the door (the store's scanner), scans milk twice and weighed bananas
    // (a weight label), leaves through the gate, which pays; staff refund one milk.
    const rut = await shopper(ctx.app);
    const entry = await rut.call({ method: "POST", url: "/api/v1/sessions/entry", payload: { store_id: store } });
    const { session_id: visit, session_token } = entry.json() as { session_id: string; session_token: string };
    const door = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/sessions/door/scan",
      headers: { authorization: `Device ${(await createDeviceKey(ctx.app, store)).key}` },
      payload: { session_id: visit, session_token, store_id: store },
    });
    expect(door.statusCode, door.body).toBe(200);
    const catalogue = demoProducts();
    const milk = catalogue.find((p) => p.name === "Mellanmjölk 1 l")!.barcode;
    const bananas = catalogue.find((p) => p.name === "Bananer (per kg)")!.barcode;
    const label = `${bananas.slice(0, 8)}0842`;
    for (const barcode of [milk, milk, `${label}${gtinCheckDigit(label)}`]) {
      const scan = await rut.call({
        method: "POST",
        url: "/api/v1/cart/scan",
        payload: { session_id: visit, barcode, scan_id: randomUUID() },
      });
      expect(scan.statusCode, scan.body).toBe(200);
    }
    const exitCode = (await rut.call({ method: "GET", url: "/api/v1/exit/token" })).json().token as string;
    const gate = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/exit/scan",
      headers: { authorization: `Device ${(await createDeviceKey(ctx.app, store, "exit_gate")).key}` },
      payload: { token: exitCode },
    });
    expect(gate.statusCode, gate.body).toBe(200);
    expect(gate.json()).toEqual({ gate_opened: true, status: "paid", receipt_number: seededPaid[0]!.n + 1 });
    const live = sessionDetailSchema.parse((await admin.get(`/api/v1/admin/sessions/${visit}`)).json());
    const milkLine = live.order!.lines.find((l) => l.quantity === 2)!;
    const refunded = await admin.post(`/api/v1/admin/orders/${live.order!.id}/refunds`, {
      idempotency_key: randomUUID(),
      reason: "Damaged packaging",
      lines: [{ line_id: milkLine.id, quantity: 1 }],
    });
    expect(refunded.statusCode, refunded.body).toBe(201);

    // Row by row, the live visit's rows have the nulls the seeded paid visits' rows have, and no others.
    const [seeded] = await queryRows<{ id: string }>(
      ctx.app.db,
      sql`select s.id from shopping_sessions s join orders o on o.session_id = s.id
          join refunds r on r.order_id = o.id where s.store_id = ${store} and s.id <> ${visit}
          order by o.receipt_number limit 1`,
    );
    for (const [table, rowsOf] of Object.entries(ROWS_OF_A_VISIT)) {
      const [mine, theirs] = [
        await patterns(rowsOf(sql`(select ${visit}::uuid)`)),
        await patterns(rowsOf(seededVisits)),
      ];
      expect(mine, table).toEqual(theirs);
    }
    // Lines numbered as the checkout numbers them, from 0 in the cart's order, live and seeded.
    const [numbered] = await queryRows<{ n: number }>(
      ctx.app.db,
      sql`select count(*)::int as n from orders o
          where (select array_agg(position order by position) from order_lines where order_id = o.id)
                <> (select array_agg(i - 1) from generate_series(1, (select count(*)::int from order_lines
                      where order_id = o.id)) i)`,
    );
    expect(numbered!.n).toBe(0);
    // The Sessions screen reads both alike: the same fields set, the same timeline and refund.
    const old = sessionDetailSchema.parse((await admin.get(`/api/v1/admin/sessions/${seeded!.id}`)).json());
    const after = sessionDetailSchema.parse((await admin.get(`/api/v1/admin/sessions/${visit}`)).json());
    expect(outline(after)).toEqual(outline(old));
    expect(after.payment_state).toBe("partly_refunded");

    // The figures still agree with the live visit in them.
    const { paid } = await theStory();
    expect(paid.some((r) => r.id === visit)).toBe(true);
  });

  // Last: the refunds it makes would change the seeded visits the tests above compare with.
  it("is paid at the payment provider: its shoppers, payments and refunds are the provider's, so staff can refund it", async () => {
    const db = ctx.app.db;
    type Listed<T> = { count: number; data: T[] };
    const intents =
      await pay.control<Listed<{ id: string; status: string; amount_received: number; customer: string }>>(
        "/payment_intents",
      );
    const refundsThere = await pay.control<Listed<{ id: string; amount: number; payment_intent: string }>>("/refunds");
    const customersThere = await pay.control<Listed<{ id: string; metadata: Record<string, string> }>>("/customers");
    const intentById = new Map(intents.data.map((pi) => [pi.id, pi]));
    const refundById = new Map(refundsThere.data.map((re) => [re.id, re]));

    // Each seeded shopper is a customer there, under its shopper id, with the card the database shows.
    const shoppers = await queryRows<{ id: string; payment_customer_id: string; card_last4: string }>(
      db,
      sql`select id, payment_customer_id, card_last4 from customers where personal_number_hash like 'demo-%'`,
    );
    expect(shoppers.length).toBe(36);
    for (const s of shoppers) {
      expect(customersThere.data.find((c) => c.id === s.payment_customer_id)?.metadata, s.id).toEqual({
        shopper_id: s.id,
      });
      expect(["4242", "4444"]).toContain(s.card_last4);
    }
    // Each seeded order's payment was captured there in full, from its shopper's customer.
    const seeded = await queryRows<{ id: string; payment_intent_id: string; total_ore: number; customer: string }>(
      db,
      sql`select o.id, o.payment_intent_id, o.total_ore, c.payment_customer_id as customer
          from orders o join customers c on c.id = o.customer_id where c.personal_number_hash like 'demo-%'`,
    );
    expect(seeded.length).toBeGreaterThan(1000);
    for (const o of seeded)
      expect(intentById.get(o.payment_intent_id), o.id).toMatchObject({
        status: "succeeded",
        amount_received: o.total_ore,
        customer: o.customer,
      });
    // Each seeded refund was made there, for its amount, on its order's payment.
    const refunded = await queryRows<{ provider_refund_id: string; amount_ore: number; payment_intent_id: string }>(
      db,
      sql`select r.provider_refund_id, r.amount_ore, o.payment_intent_id from refunds r join orders o on o.id = r.order_id`,
    );
    expect(refunded.length).toBeGreaterThan(10);
    for (const r of refunded)
      expect(refundById.get(r.provider_refund_id), r.provider_refund_id).toEqual({
        id: r.provider_refund_id,
        amount: r.amount_ore,
        payment_intent: r.payment_intent_id,
        charge: expect.any(String),
      });

    // Staff refund a seeded order through the console's route: it succeeds at the provider.
    const [order] = await queryRows<{ id: string; line_id: string; payment_intent_id: string; line_ore: number }>(
      db,
      sql`select o.id, l.id as line_id, o.payment_intent_id, l.unit_price_ore as line_ore
          from orders o join order_lines l on l.order_id = o.id
          where o.refunded_ore = 0 and o.store_id = ${store} order by o.receipt_number, l.position limit 1`,
    );
    const one = await admin.post(`/api/v1/admin/orders/${order!.id}/refunds`, {
      idempotency_key: randomUUID(),
      reason: "Damaged packaging",
      lines: [{ line_id: order!.line_id, quantity: 1 }],
    });
    expect(one.statusCode, one.body).toBe(201);
    expect(refundResultSchema.parse(one.json())).toMatchObject({ state: "succeeded", amount: order!.line_ore / 100 });
    const there = await pay.control<Listed<{ amount: number }>>(`/refunds?payment_intent=${order!.payment_intent_id}`);
    expect(there.data).toEqual([expect.objectContaining({ amount: order!.line_ore })]);
    // And the rest of an order the seed refunded in part: the provider counts the seeded refund, so all of it goes.
    const [partly] = await queryRows<{ id: string; payment_intent_id: string; left_ore: number }>(
      db,
      sql`select id, payment_intent_id, total_ore - refunded_ore as left_ore from orders
          where refunded_ore > 0 and refunded_ore < total_ore order by receipt_number limit 1`,
    );
    const rest = await admin.post(`/api/v1/admin/orders/${partly!.id}/refunds`, {
      idempotency_key: randomUUID(),
      reason: "Customer returned the goods",
      whole: true,
    });
    expect(rest.statusCode, rest.body).toBe(201);
    expect(refundResultSchema.parse(rest.json())).toMatchObject({ state: "succeeded", amount: partly!.left_ore / 100 });
    const charge = await pay.control<Listed<{ amount_captured: number; amount_refunded: number }>>(
      `/charges?payment_intent=${partly!.payment_intent_id}`,
    );
    expect(charge.data).toEqual([expect.objectContaining({ amount_refunded: charge.data[0]!.amount_captured })]);
  });
});
