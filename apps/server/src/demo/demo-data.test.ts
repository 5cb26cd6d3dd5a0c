import { randomUUID } from "node:crypto";
import {
  analyticsRevenueSchema,
  analyticsSummarySchema,
  dashboardStatsSchema,
  gtinCheckDigit,
  parseBarcode,
  refundResultSchema,
  type SessionRow,
  sessionDetailSchema,
  sessionRowSchema,
} from "@glide/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bootstrap } from "../bootstrap.ts";
import { queryRows, sql } from "../db/client.ts";
import { shopper } from "../features/refunds/testing.ts";
import { type PaymentHarness, startPaymentHarness } from "../platform/payments/testing.ts";
import { as, createDeviceKey, createTestContext, signIn, type TestContext } from "../test/harness.ts";
import { DEMO_HISTORY_DAYS } from "./demo-data.ts";
import { demoProducts } from "./demo-products.ts";

/**
 * The demo's first start (bootstrap with DEMO_DATA, as npm start does) on a
 * real database: the Dashboard, Analytics and Sessions must tell one story
 * of the seeded past, and a visit made through the API afterwards must leave
 * the same kinds of rows as the seeded ones, so the seed is what the live
 * paths would have written.
 */

let ctx: TestContext;
let pay: PaymentHarness;
let admin: ReturnType<typeof as>;
let store: string;

beforeAll(async () => {
  pay = await startPaymentHarness();
  ctx = await createTestContext({
    DEMO_DATA: "true",
    STRIPE_SECRET_KEY: pay.simulator.secretKey,
    STRIPE_API_BASE: pay.apiBase,
  });
  expect(await bootstrap(ctx.app)).not.toBeNull();
  admin = as(ctx.app, (await signIn(ctx.app)).cookie);
  const stores = (await admin.get("/api/v1/stores/")).json() as { id: string; name: string }[];
  store = stores.find((s) => s.name === "Glide Södermalm")!.id;
});
afterAll(async () => {
  await ctx?.close();
  await pay?.close();
});

/** Today in the demo stores' zone, and the day the seeded history starts: Analytics' period for it. */
function period() {
  const today = new Intl.DateTimeFormat("sv-SE", { timeZone: "Europe/Stockholm" }).format(new Date());
  const from = new Date(Date.parse(`${today}T00:00:00Z`) - DEMO_HISTORY_DAYS * 86_400_000).toISOString().slice(0, 10);
  return `from=${from}&to=${today}`;
}

/** Every visit on the Sessions screen, page by page as the screen reads them. */
async function allSessions(): Promise<{ rows: SessionRow[]; total: number }> {
  const rows: SessionRow[] = [];
  for (let offset = 0; ; offset += 100) {
    const res = await admin.get(`/api/v1/admin/sessions?limit=100&offset=${offset}`);
    expect(res.statusCode, res.body).toBe(200);
    const page = sessionRowSchema.array().parse(res.json());
    rows.push(...page);
    if (page.length < 100) return { rows, total: Number(res.headers["x-total-count"]) };
  }
}

const ore = (kronor: number) => Math.round(kronor * 100);
const sumOre = (values: number[]) => values.reduce((sum, v) => sum + ore(v), 0);
const charged = (row: SessionRow) => ["paid", "partly_refunded", "refunded"].includes(row.payment_state);

/** Reads the three screens and checks that they agree; returns what was read. */
async function theStory() {
  const dashboard = dashboardStatsSchema.parse((await admin.get("/api/v1/admin/dashboard")).json());
  const summary = analyticsSummarySchema.parse((await admin.get(`/api/v1/admin/analytics/summary?${period()}`)).json());
  const revenue = analyticsRevenueSchema.parse((await admin.get(`/api/v1/admin/analytics/revenue?${period()}`)).json());
  const { rows, total } = await allSessions();
  const paid = rows.filter(charged);

  expect(total).toBe(rows.length);
  expect(summary.entries).toBe(rows.length);
  expect(dashboard.total_transactions).toBe(summary.orders);
  expect(summary.orders).toBe(paid.length);
  expect(ore(dashboard.total_revenue)).toBe(ore(summary.revenue));
  expect(ore(summary.revenue)).toBe(sumOre(paid.map((r) => r.total)));
  expect(summary.items).toBe(paid.reduce((sum, r) => sum + r.items, 0));
  expect(ore(summary.refunded)).toBe(sumOre(rows.map((r) => r.refunded)));
  expect(summary.refunds).toBe(rows.filter((r) => r.refunded > 0).length);
  // Per store, Analytics' revenue table and the store's visits on Sessions.
  for (const s of revenue.stores) {
    const own = paid.filter((r) => r.store.id === s.store_id);
    expect([s.orders, ore(s.revenue)], s.store_name).toEqual([own.length, sumOre(own.map((r) => r.total))]);
  }
  expect(revenue.stores.reduce((sum, s) => sum + s.orders, 0)).toBe(summary.orders);

  // Each visit reads as one thing: paid with its lines and receipt, or ended with nothing, never "0 lines, charged".
  for (const row of rows) {
    if (charged(row)) {
      expect([row.status, row.lines > 0, row.total > 0, row.receipt_number !== null], row.id).toEqual([
        "checked_out",
        true,
        true,
        true,
      ]);
    } else {
      expect([row.lines, row.total, row.payment_state, row.receipt_number], row.id).toEqual([0, 0, "none", null]);
      expect(["checked_out", "abandoned"], row.id).toContain(row.status);
    }
  }
  return { dashboard, summary, rows, paid };
}

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

/** Every seeded paid visit (the demo's shoppers' personal numbers start with demo-). */
const seededVisits = sql`(select s.id from shopping_sessions s join customers c on c.id = s.customer_id
  where c.personal_number_hash like 'demo-%' and s.state = 'paid')`;

/** A visit's rows in each table its paths write, for the visits `ids` names. */
const ROWS_OF_A_VISIT: Record<string, (ids: ReturnType<typeof sql>) => ReturnType<typeof sql>> = {
  shopping_sessions: (ids) => sql`select * from shopping_sessions where id in ${ids}`,
  door_events: (ids) => sql`select * from door_events where session_id in ${ids}`,
  cart_items: (ids) => sql`select * from cart_items where session_id in ${ids}`,
  cart_scans: (ids) => sql`select * from cart_scans where session_id in ${ids}`,
  exit_token_uses: (ids) => sql`select * from exit_token_uses where session_id in ${ids}`,
  session_events: (ids) =>
    sql`select kind, source, (select array_agg(k order by k) from jsonb_object_keys(detail) k) as detail_keys,
          case when kind = 'door_opened' then detail end as door
        from session_events where session_id in ${ids}`,
  orders: (ids) =>
    sql`select o.*, o.store_address = concat_ws(', ', st.address, concat_ws(' ', st.postal_code, st.city)) as address_as_checkout
        from orders o join stores st on st.id = o.store_id where session_id in ${ids}`,
  order_lines: (ids) =>
    sql`select l.* from order_lines l join orders o on o.id = l.order_id where o.session_id in ${ids}`,
  refunds: (ids) => sql`select r.* from refunds r join orders o on o.id = r.order_id where o.session_id in ${ids}`,
  refund_lines: (ids) =>
    sql`select rl.* from refund_lines rl join refunds r on r.id = rl.refund_id join orders o on o.id = r.order_id
        where o.session_id in ${ids}`,
  audit_log: (ids) =>
    sql`select a.* from audit_log a join refunds r on a.entity_id = r.id::text
        join orders o on o.id = r.order_id where o.session_id in ${ids}`,
};

/** Who did it: the admin behind a live refund; the seed's refunds were made before any admin existed. */
const STAFF = new Set(["requested_by", "actor_id"]);

/** The distinct shapes of the rows: which columns are null, and the values that say what kind of row it is. */
async function patterns(query: ReturnType<typeof sql>): Promise<string[]> {
  const rows = (await queryRows<Record<string, unknown>>(ctx.app.db, query)).map((row) =>
    Object.fromEntries(Object.entries(row).filter(([k]) => !STAFF.has(k))),
  );
  const kinds = new Set(["state", "kind", "source", "via", "origin", "attempt", "currency", "detail_keys", "door"]);
  const kindOf = (key: string, value: unknown) =>
    kinds.has(key) || typeof value === "boolean"
      ? `${key}=${JSON.stringify(value)}`
      : `${key}${value === null ? "=null" : ""}`;
  return [
    ...new Set(
      rows.map((row) =>
        Object.entries(row)
          .map(([k, v]) => kindOf(k, v))
          .join(" "),
      ),
    ),
  ].sort();
}

/** What the Sessions detail shows of a visit, its values' kinds rather than the values. */
function outline(detail: ReturnType<typeof sessionDetailSchema.parse>) {
  const kind = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "list" : typeof value);
  const fields = (o: object) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, kind(v)]));
  const steps = detail.timeline.map((e) => `${e.kind}/${e.source}`).filter((s, i, all) => s !== all[i - 1]);
  return {
    row: fields({ ...detail, timeline: [], cart: [], refunds: [], disputes: [] }),
    status: [detail.status, detail.spot_check, detail.dispute],
    steps,
    order: fields({ ...detail.order!, lines: [] }),
    card: detail.order!.card && Object.keys(detail.order!.card),
    refunds: detail.refunds.map(({ staff_email: _who, ...r }) => ({ ...fields(r), state: r.state, source: r.source })),
  };
}

describe("the demo's seed and the payment provider", () => {
  it("without a provider stays as it was: the ids are made up, none is asked for, and refunds wait for one", async () => {
    const bare = await createTestContext({ DEMO_DATA: "true" });
    try {
      expect(await bootstrap(bare.app)).not.toBeNull();
      const [made] = await queryRows<{ orders: number; made_up: number; brands: string[] }>(
        bare.app.db,
        sql`select count(*)::int as orders, count(*) filter (where o.payment_intent_id ~ '^pi_[A-Za-z0-9]{24}$')::int as made_up,
              array_agg(distinct c.card_brand order by c.card_brand) as brands
            from orders o join customers c on c.id = o.customer_id`,
      );
      expect(made!.orders).toBeGreaterThan(1000);
      expect(made!.made_up).toBe(made!.orders);
      expect(made!.brands).toEqual(["amex", "mastercard", "visa"]);
      const [order] = await queryRows<{ id: string }>(bare.app.db, sql`select id from orders limit 1`);
      const staff = as(bare.app, (await signIn(bare.app)).cookie);
      const refund = await staff.post(`/api/v1/admin/orders/${order!.id}/refunds`, {
        idempotency_key: randomUUID(),
        reason: "Damaged packaging",
        whole: true,
      });
      expect([refund.statusCode, refund.json().code]).toEqual([503, "payments_not_configured"]);
    } finally {
      await bare.close();
    }
  });

  it("with a provider that does not answer writes nothing, and the next start seeds it all", async () => {
    const failing = await startPaymentHarness();
    const next = await createTestContext({
      DEMO_DATA: "true",
      STRIPE_SECRET_KEY: failing.simulator.secretKey,
      STRIPE_API_BASE: failing.apiBase,
    });
    const count = async () =>
      (
        await queryRows<{ n: number }>(
          next.app.db,
          sql`select (select count(*) from stores) + (select count(*) from products)
        + (select count(*) from customers) + (select count(*) from orders) + (select count(*) from admin_users) as n`,
        )
      )[0]!.n;
    try {
      // The shoppers' customers and cards are made, then every payment fails: the seed stops half-way through.
      await failing.control("/faults", { mode: "error", path: "/v1/payment_intents" });
      await expect(bootstrap(next.app)).rejects.toThrow(/payment provider refused the payment of order/);
      expect(Number(await count())).toBe(0);
      await failing.control("/faults", {});
      expect(await bootstrap(next.app)).not.toBeNull();
      const [paid] = await queryRows<{ n: number }>(next.app.db, sql`select count(*)::int as n from orders`);
      const there = await failing.control<{ count: number }>("/payment_intents");
      expect(there.count).toBeGreaterThanOrEqual(paid!.n);
    } finally {
      await next.close();
      await failing.close();
    }
  });
});

describe("the demo's products", () => {
  it("are sold in variants that make sense for them, each with its own valid barcode", () => {
    const products = demoProducts();
    expect(products.length).toBeGreaterThan(100);
    expect(new Set(products.map((p) => p.name)).size).toBe(products.length);
    expect(new Set(products.map((p) => p.barcode)).size).toBe(products.length);
    for (const p of products) expect(parseBarcode(p.barcode), p.name).not.toBeNull();
    // Lactose-free only in the dairy; organic only in food; nothing like "Batterier AA Laktosfri 8-pack".
    const lactoseFree = products.filter((p) => p.name.includes("Laktosfri"));
    expect(new Set(lactoseFree.map((p) => p.category))).toEqual(new Set(["Mejeri"]));
    const food = new Set(["Mejeri", "Ägg", "Kaffe", "Skafferi", "Kött", "Fryst", "Frukt & grönt"]);
    for (const p of products.filter((q) => / Eko\b/.test(q.name))) expect(food, p.name).toContain(p.category);
    for (const name of [
      "Batterier AA 8-pack",
      "Ahlgrens bilar 125 g",
      "Dagens Nyheter",
      "Snus General Original Portion",
    ])
      expect(products.map((p) => p.name)).toContain(name);
    expect(
      products.filter((p) => /^(Batterier|Ahlgrens|Snus|Dagens)/.test(p.name) && /Eko|Laktosfri|Storpack/.test(p.name)),
    ).toEqual([]);
  });
});
