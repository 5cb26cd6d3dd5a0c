import { randomUUID } from "node:crypto";
import { orderRefundsSchema } from "@glide/contracts";
import { afterAll, beforeAll } from "vitest";
import { queryRows, sql } from "../../db/client.ts";
import { paidVisit, product, SOLD_WHEN_FOOD_WAS_12, shopper } from "../../test/factories.ts";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";
import { type PaymentHarness, startPaymentHarness } from "../../test/payments.ts";
import { type SmtpSink, startSmtpSink } from "../../test/smtp-sink.ts";
import { sessionAnnouncer } from "../sessions/session-events.ts";
import type { RefundDeps } from "./refunds.service.ts";

/**
 * What the refund tests share: an app with the payment simulator and an SMTP
 * server behind it, a paid order of coffee and bread, the refund request, and
 * what the order, the provider, the visit and the audit log hold afterwards.
 */

export let ctx: TestContext;
export let pay: PaymentHarness;
export let smtp: SmtpSink;
export let admin: ReturnType<typeof as>;
export let adminCookie: string;
export let adminId: string;
export let store: string;
export let otherStore: string;
export let coffee: Awaited<ReturnType<typeof product>>;
export let bread: Awaited<ReturnType<typeof product>>;

/** Asks for a refund of an order, with a fresh idempotency key and a reason unless told otherwise. */
export const refund = (orderId: string, body: Record<string, unknown>, who = admin) =>
  who.post(`/api/v1/admin/orders/${orderId}/refunds`, {
    idempotency_key: randomUUID(),
    reason: "Trasig vara",
    ...body,
  });
/** The order's lines and what is left to give back of each. */
export const linesOf = async (orderId: string) =>
  orderRefundsSchema.parse((await admin.get(`/api/v1/admin/orders/${orderId}/refunds`)).json());
/** The payment intent an order was paid with. */
export const intentOf = async (orderId: string) =>
  (
    await queryRows<{ payment_intent_id: string }>(
      ctx.app.db,
      sql`select payment_intent_id from orders where id = ${orderId}`,
    )
  )[0]!.payment_intent_id;
/** The refunds the payment simulator holds for an order's payment. */
export const providerRefunds = async (orderId: string) =>
  (
    await pay.control<{ data: Array<{ id: string; amount: number }> }>(
      `/refunds?payment_intent=${await intentOf(orderId)}`,
    )
  ).data;

/** A paid visit of coffee (three unless told) and one bread, with its order and lines. */
export async function coffeeAndBread(coffees = 3) {
  const who = await shopper(ctx.app);
  const { orderId, visit } = await paidVisit(ctx.app, who, store, [
    [coffee.barcode, coffees],
    [bread.barcode, 1],
  ]);
  const order = await linesOf(orderId);
  const line = (name: string) => order.lines.find((l) => l.name === name)!;
  return { who, orderId, visit, coffeeLine: line(coffee.name), breadLine: line(bread.name) };
}

/** The settling job's dependencies as a script without a mail sender would give them. */
export const settleDeps = (): RefundDeps => ({
  db: ctx.app.db,
  provider: () => ctx.app.payments!,
  announce: sessionAnnouncer(ctx.app.bus, ctx.app.log),
});
/** The refund events of a visit, oldest first. */
export const refundEvents = (visit: string) =>
  queryRows<{ source: string; admin_id: string | null; detail: unknown }>(
    ctx.app.db,
    sql`select source, admin_id, detail from session_events where session_id = ${visit} and kind = 'refund' order by id`,
  );
/** When a visit was last active, as an ISO time. */
export const lastActivityOf = async (visit: string) =>
  new Date(
    (
      await queryRows<{ last_activity_at: Date | string }>(
        ctx.app.db,
        sql`select last_activity_at from shopping_sessions where id = ${visit}`,
      )
    )[0]!.last_activity_at,
  ).toISOString();
/** The audit entries of one refund. */
export const auditOf = async (refundId: string) =>
  queryRows<{ entity_type: string; store_id: string | null; summary: string; before: unknown; after: unknown }>(
    ctx.app.db,
    sql`select entity_type, store_id, summary, before, after from audit_log
        where action = 'refund.create' and entity_id = ${refundId}`,
  );
/** The refunds path of an order. */
export const url = (orderId: string) => `/api/v1/admin/orders/${orderId}/refunds`;
/**
 * Starts the app with the payment simulator and an SMTP server, two stores,
 * two products and a platform admin, for the test file that calls it.
 */
export function useRefundsApp(): void {
  beforeAll(async () => {
    [pay, smtp] = await Promise.all([startPaymentHarness(), startSmtpSink()]);
    ctx = await createTestContext(
      {
        STRIPE_SECRET_KEY: pay.simulator.secretKey,
        STRIPE_API_BASE: pay.apiBase,
        SMTP_URL: smtp.url,
      },
      // The receipts here are worked out with bread at 12 %.
      { saleClock: () => SOLD_WHEN_FOOD_WAS_12 },
    );
    const me = await signIn(ctx.app);
    adminCookie = me.cookie;
    adminId = me.id;
    admin = as(ctx.app, adminCookie);
    store = (await admin.post("/api/v1/stores/", { name: "Återbutiken" })).json().id;
    otherStore = (await admin.post("/api/v1/stores/", { name: "Grannbutiken" })).json().id;
    coffee = await product(ctx.app, adminCookie, 59.9);
    bread = await product(ctx.app, adminCookie, 34.5, 12);
  });
  afterAll(async () => {
    await ctx?.close();
    await Promise.all([pay?.close(), smtp?.close()]);
  });
}
