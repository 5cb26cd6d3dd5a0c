import {
  analyticsRevenueSchema,
  analyticsSummarySchema,
  dashboardStatsSchema,
  type SessionRow,
  type sessionDetailSchema,
  sessionRowSchema,
} from "@glide/contracts";
import { expect } from "vitest";
import { bootstrap } from "../bootstrap.ts";
import { queryRows, sql } from "../db/client.ts";
import { as, createTestContext, signIn, type TestContext } from "../test/harness.ts";
import { type PaymentHarness, startPaymentHarness } from "../test/payments.ts";
import { DEMO_HISTORY_DAYS } from "./demo-data.ts";

/**
 * What the tests of the demo's seeded history read it with: the app after
 * its first start with DEMO_DATA (opened by `openDemoTests`), paying at the
 * payment simulator; the three screens that must tell one story; and the
 * shapes of the rows a visit leaves.
 */
export let ctx: TestContext;
export let pay: PaymentHarness;
export let admin: ReturnType<typeof as>;
export let store: string;

/** Opens the app, the payment simulator and the first start that seeds the demo (its `beforeAll`). */
export async function openDemoTests(): Promise<void> {
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
}

/** Closes the app and the simulator (its `afterAll`). */
export async function closeDemoTests(): Promise<void> {
  await ctx?.close();
  await pay?.close();
}

/**
 * Analytics' period for the seeded history: from a day before its first day
 * to today in the demo stores' zone. The extra day keeps every seeded visit
 * in the period when the seed ran before midnight in Stockholm and the check
 * runs after it (today has moved on, the history has not); nothing is older
 * than the seed, so the period still holds exactly the visits there are.
 */
export function period() {
  const today = new Intl.DateTimeFormat("sv-SE", { timeZone: "Europe/Stockholm" }).format(new Date());
  const from = new Date(Date.parse(`${today}T00:00:00Z`) - (DEMO_HISTORY_DAYS + 1) * 86_400_000)
    .toISOString()
    .slice(0, 10);
  return `from=${from}&to=${today}`;
}

/** Every visit on the Sessions screen, page by page as the screen reads them. */
export async function allSessions(): Promise<{ rows: SessionRow[]; total: number }> {
  const rows: SessionRow[] = [];
  for (let offset = 0; ; offset += 100) {
    const res = await admin.get(`/api/v1/admin/sessions?limit=100&offset=${offset}`);
    expect(res.statusCode, res.body).toBe(200);
    const page = sessionRowSchema.array().parse(res.json());
    rows.push(...page);
    if (page.length < 100) return { rows, total: Number(res.headers["x-total-count"]) };
  }
}

/** Kronor as öre, for sums without rounding errors. */
export const ore = (kronor: number) => Math.round(kronor * 100);
/** The sum of kronor amounts, in öre. */
export const sumOre = (values: number[]) => values.reduce((sum, v) => sum + ore(v), 0);
/** Whether the visit was charged (paid, and perhaps refunded since). */
export const charged = (row: SessionRow) => ["paid", "partly_refunded", "refunded"].includes(row.payment_state);

/** Reads the three screens and checks that they agree; returns what was read. */
export async function theStory() {
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

/** Every seeded paid visit (the demo's shoppers' personal numbers start with demo-). */
export const seededVisits = sql`(select s.id from shopping_sessions s join customers c on c.id = s.customer_id
  where c.personal_number_hash like 'demo-%' and s.state = 'paid')`;

/** A visit's rows in each table its paths write, for the visits `ids` names. */
export const ROWS_OF_A_VISIT: Record<string, (ids: ReturnType<typeof sql>) => ReturnType<typeof sql>> = {
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
export async function patterns(query: ReturnType<typeof sql>): Promise<string[]> {
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
export function outline(detail: ReturnType<typeof sessionDetailSchema.parse>) {
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
