import { randomUUID } from "node:crypto";
import { lineRefundOre, orderRefundsSchema, receiptSchema, refundResultSchema, refundSchema } from "@glide/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows, sql } from "../../db/client.ts";
import { type SmtpSink, startSmtpSink } from "../../platform/mail-testing.ts";
import { type PaymentHarness, startPaymentHarness } from "../../platform/payments/testing.ts";
import { as, createTestContext, listenToSessions, signIn, type TestContext } from "../../test/harness.ts";
import { sessionAnnouncer } from "../sessions/session-events.ts";
import { type RefundDeps, settlePendingRefunds } from "./refunds.service.ts";
import { paidVisit, product, shop, shopper } from "./testing.ts";

let ctx: TestContext;
let pay: PaymentHarness;
let smtp: SmtpSink;
let admin: ReturnType<typeof as>;
let adminCookie: string;
let adminId: string;
let store: string;
let otherStore: string;
let coffee: Awaited<ReturnType<typeof product>>;
let bread: Awaited<ReturnType<typeof product>>;

beforeAll(async () => {
  [pay, smtp] = await Promise.all([startPaymentHarness(), startSmtpSink()]);
  ctx = await createTestContext({
    STRIPE_SECRET_KEY: pay.simulator.secretKey,
    STRIPE_API_BASE: pay.apiBase,
    SMTP_URL: smtp.url,
  });
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

const refund = (orderId: string, body: Record<string, unknown>, who = admin) =>
  who.post(`/api/v1/admin/orders/${orderId}/refunds`, {
    idempotency_key: randomUUID(),
    reason: "Trasig vara",
    ...body,
  });
const linesOf = async (orderId: string) =>
  orderRefundsSchema.parse((await admin.get(`/api/v1/admin/orders/${orderId}/refunds`)).json());
const intentOf = async (orderId: string) =>
  (
    await queryRows<{ payment_intent_id: string }>(
      ctx.app.db,
      sql`select payment_intent_id from orders where id = ${orderId}`,
    )
  )[0]!.payment_intent_id;
const providerRefunds = async (orderId: string) =>
  (
    await pay.control<{ data: Array<{ id: string; amount: number }> }>(
      `/refunds?payment_intent=${await intentOf(orderId)}`,
    )
  ).data;

async function coffeeAndBread(coffees = 3) {
  const who = await shopper(ctx.app);
  const { orderId, visit } = await paidVisit(ctx.app, who, store, [
    [coffee.barcode, coffees],
    [bread.barcode, 1],
  ]);
  const order = await linesOf(orderId);
  const line = (name: string) => order.lines.find((l) => l.name === name)!;
  return { who, orderId, visit, coffeeLine: line(coffee.name), breadLine: line(bread.name) };
}

describe("the amount of a refund", () => {
  it("shares a line's total between its units; the last unit takes the remainder", () => {
    const line = { total_ore: 100, quantity: 3, refunded_quantity: 0 };
    expect(lineRefundOre(line, 1)).toBe(33);
    expect(lineRefundOre(line, 2)).toBe(66);
    expect(lineRefundOre(line, 3)).toBe(100);
    expect(lineRefundOre({ ...line, refunded_quantity: 2 }, 1)).toBe(34);
    expect(lineRefundOre({ ...line, refunded_quantity: 1 }, 1)).toBe(33);
    expect(lineRefundOre({ total_ore: 1446, quantity: 1, refunded_quantity: 0 }, 1)).toBe(1446);
  });
});

describe("POST /api/v1/admin/orders/:id/refunds", () => {
  it("refunds one line, part of a line, and the rest as a whole, through the provider", async () => {
    const { orderId, coffeeLine, breadLine, who, visit } = await coffeeAndBread();
    const one = await refund(orderId, { lines: [{ line_id: breadLine.id, quantity: 1 }] });
    expect(one.statusCode, one.body).toBe(201);
    expect(refundSchema.parse(one.json())).toMatchObject({ state: "succeeded", amount: 34.5, source: "staff" });
    // One payment, one refund: the answer's own fields are it, and `refunds` holds just it.
    const { refunds: made, ...first } = refundResultSchema.parse(one.json());
    expect(made).toEqual([first]);
    const part = await refund(orderId, { lines: [{ line_id: coffeeLine.id, quantity: 2 }] });
    expect(part.json()).toMatchObject({ state: "succeeded", amount: 119.8 });
    const rest = await refund(orderId, { whole: true });
    expect(rest.statusCode, rest.body).toBe(201);
    expect(rest.json()).toMatchObject({ amount: 59.9, lines: [{ line_id: coffeeLine.id, quantity: 1, amount: 59.9 }] });
    expect((await providerRefunds(orderId)).map((r) => r.amount).sort()).toEqual([11980, 3450, 5990].sort());
    const after = await linesOf(orderId);
    expect(after.refunded).toBe(after.total);

    const receipt = receiptSchema.parse((await who.call({ method: "GET", url: `/api/v1/receipts/${orderId}` })).json());
    expect(receipt.refunded).toBe(214.2);
    expect(receipt.refunds.map((r) => r.amount)).toEqual([34.5, 119.8, 59.9]);
    expect(receipt.refunds[1]!.lines).toEqual([{ name: coffee.name, quantity: 2, amount: 119.8 }]);
    const list = (await who.call({ method: "GET", url: "/api/v1/receipts" })).json();
    expect(list[0]).toMatchObject({ id: orderId, refunded: 214.2, dispute: null });

    const events = await queryRows<{ kind: string; source: string; detail: { amount: number } }>(
      ctx.app.db,
      sql`select kind, source, detail from session_events where session_id = ${visit} and kind = 'refund' order by id`,
    );
    expect(events.map((e) => [e.source, e.detail.amount])).toEqual([
      ["staff", 34.5],
      ["staff", 119.8],
      ["staff", 59.9],
    ]);
    const audit = await queryRows<{ before: { refunded: number }; after: { refunded: number } }>(
      ctx.app.db,
      sql`select before, after from audit_log where action = 'refund.create' and after->>'order_id' = ${orderId} order by id`,
    );
    expect(audit.map((a) => [a.before.refunded, a.after.refunded])).toEqual([
      [0, 34.5],
      [34.5, 154.3],
      [154.3, 214.2],
    ]);
  });

  it("tells the receipt what was given back per VAT rate, each refund rounded on its own, to the öre", async () => {
    // 3 × 59,90 kr at 25 % and 34,50 kr at 12 %: 214,20 kr, VAT 35,94 kr and 3,70 kr (3,696 rounded).
    const { who, orderId, coffeeLine, breadLine } = await coffeeAndBread(3);
    const read = async () =>
      receiptSchema.parse((await who.call({ method: "GET", url: `/api/v1/receipts/${orderId}` })).json());
    const before = await read();
    expect(before.refunded_vat).toEqual([]);
    expect(before.vat).toEqual([
      { rate: 0.25, amount: 35.94, net: 143.76, gross: 179.7 },
      { rate: 0.12, amount: 3.7, net: 30.8, gross: 34.5 },
    ]);

    const both = await refund(orderId, {
      lines: [
        { line_id: coffeeLine.id, quantity: 1 },
        { line_id: breadLine.id, quantity: 1 },
      ],
    });
    expect(both.json()).toMatchObject({ state: "succeeded", amount: 94.4 });
    const coffeeOnly = await refund(orderId, { lines: [{ line_id: coffeeLine.id, quantity: 1 }] });
    expect(coffeeOnly.json()).toMatchObject({ state: "succeeded", amount: 59.9 });

    const after = await read();
    expect(after.refunded).toBe(154.3);
    // 59,90 kr at 25 % is 11,98 kr VAT in each refund; 34,50 kr at 12 % is 3,70 kr.
    expect(after.refunded_vat).toEqual([
      { rate: 0.25, amount: 23.96, net: 95.84, gross: 119.8 },
      { rate: 0.12, amount: 3.7, net: 30.8, gross: 34.5 },
    ]);
    // What the shopper paid in the end: one coffee, 59,90 kr, with 11,98 kr VAT and none at 12 %.
    expect(after.total - after.refunded).toBeCloseTo(59.9, 10);
    expect(after.vat.map((rate, i) => Math.round((rate.amount - after.refunded_vat[i]!.amount) * 100))).toEqual([
      1198, 0,
    ]);
    // The list of receipts says the same.
    expect((await who.call({ method: "GET", url: "/api/v1/receipts" })).json()[0]).toMatchObject({
      id: orderId,
      refunded: 154.3,
    });
  });

  it("gives back exactly what is left, and refuses one unit more", async () => {
    const { orderId, coffeeLine } = await coffeeAndBread();
    const two = await refund(orderId, { lines: [{ line_id: coffeeLine.id, quantity: 2 }] });
    expect(two.statusCode).toBe(201);
    const tooMany = await refund(orderId, { lines: [{ line_id: coffeeLine.id, quantity: 2 }] });
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json().detail).toContain("only 59.90 kr is left to refund");
    expect(tooMany.json().errors[0].path).toBe("lines.0.quantity");
    expect((await refund(orderId, { lines: [{ line_id: coffeeLine.id, quantity: 1 }] })).statusCode).toBe(201);
    expect((await refund(orderId, { lines: [{ line_id: coffeeLine.id, quantity: 1 }] })).statusCode).toBe(409);
    const whole = await refund(orderId, { whole: true });
    expect(whole.statusCode).toBe(201);
    expect(whole.json().amount).toBe(34.5);
    const nothing = await refund(orderId, { whole: true });
    expect(nothing.statusCode).toBe(409);
    expect(nothing.json().detail).toBe("Only 0.00 kr is left to refund on this order");
  });

  it("the database refuses a reservation past the total, whatever the code above it does", async () => {
    const { orderId } = await coffeeAndBread(1);
    const [order] = await queryRows<{ total_ore: number }>(
      ctx.app.db,
      sql`select total_ore from orders where id = ${orderId}`,
    );
    await ctx.app.db.execute(sql`update orders set refunded_ore = ${order!.total_ore} where id = ${orderId}`);
    await expect(
      ctx.app.db.execute(sql`update orders set refunded_ore = ${order!.total_ore + 1} where id = ${orderId}`),
    ).rejects.toThrow();
  });

  it("makes exactly one refund of 20 whole refunds at once", async () => {
    const { orderId } = await coffeeAndBread();
    const answers = await Promise.all(Array.from({ length: 20 }, () => refund(orderId, { whole: true })));
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(19);
    expect(await providerRefunds(orderId)).toHaveLength(1);
    const rows = await queryRows<{ n: number }>(
      ctx.app.db,
      sql`select count(*)::int as n from refunds where order_id = ${orderId}`,
    );
    expect(rows[0]!.n).toBe(1);
  });

  it("answers the same refund for the same key, even at once, and refuses the key for another request", async () => {
    const { orderId, coffeeLine, breadLine } = await coffeeAndBread();
    const body = {
      idempotency_key: randomUUID(),
      reason: "Fel pris",
      lines: [{ line_id: coffeeLine.id, quantity: 1 }],
    };
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => admin.post(`/api/v1/admin/orders/${orderId}/refunds`, body)),
    );
    expect(new Set(answers.map((a) => a.json().id)).size).toBe(1);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    expect(await providerRefunds(orderId)).toHaveLength(1);
    const again = await admin.post(`/api/v1/admin/orders/${orderId}/refunds`, body);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ state: "succeeded", amount: 59.9 });
    const other = await admin.post(`/api/v1/admin/orders/${orderId}/refunds`, {
      ...body,
      lines: [{ line_id: breadLine.id, quantity: 1 }],
    });
    expect(other.statusCode).toBe(409);
    expect(other.json().detail).toMatch(/already used for a different refund/);
    expect((await admin.post(`/api/v1/admin/orders/${orderId}/refunds`, { ...body, reason: "Annat" })).statusCode).toBe(
      409,
    );
  });

  it("stays pending when the provider does not answer, and the job settles it with the same key", async () => {
    const { orderId } = await coffeeAndBread(1);
    await pay.control("/faults", { mode: "drop_after", path: "/v1/refunds" });
    const res = await refund(orderId, { whole: true });
    await pay.control("/faults", {});
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().state).toBe("pending");
    // The provider did refund (its answer was lost): the reservation stays, nothing more may be refunded.
    expect((await refund(orderId, { whole: true })).statusCode).toBe(409);
    const deps = {
      db: ctx.app.db,
      provider: () => ctx.app.payments!,
      announce: sessionAnnouncer(ctx.app.bus, ctx.app.log),
    };
    expect(await settlePendingRefunds({ ...deps, olderThanMs: 60_000 })).toEqual({
      succeeded: 0,
      failed: 0,
      pending: 0,
    });
    expect(await settlePendingRefunds({ ...deps, olderThanMs: 0 })).toEqual({ succeeded: 1, failed: 0, pending: 0 });
    const done = (await linesOf(orderId)).refunds[0]!;
    expect(done).toMatchObject({ state: "succeeded", amount: 94.4 });
    const made = await pay.control<{ data: Array<{ amount: number }> }>(
      `/refunds?payment_intent=${await intentOf(orderId)}`,
    );
    expect(made.data).toEqual([expect.objectContaining({ amount: 9440 })]);
    const key = await pay.control<{ executions: number }>(`/idempotency?key=refund-${done.id}`);
    expect(key).toMatchObject({ executions: 1 });
  });

  it("records a refusal as failed and frees the amount again", async () => {
    const { orderId } = await coffeeAndBread(1);
    // Given back outside Glide (in the provider's dashboard, say): the provider refuses ours.
    const outside = await ctx.app.payments!.refund({
      paymentIntentId: await intentOf(orderId),
      amountOre: 9440,
      idempotencyKey: randomUUID(),
    });
    expect(outside.status).toBe("refunded");
    const res = await refund(orderId, { whole: true });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ state: "failed", failure_code: "charge_already_refunded" });
    const order = await linesOf(orderId);
    expect(order.refunded).toBe(0);
    expect(order.lines.every((line) => line.refunded_quantity === 0 && line.refunded_ore === 0)).toBe(true);
  });

  it("is for the admins of the order's store, on paid orders that exist", async () => {
    const { orderId } = await coffeeAndBread(1);
    const other = as(ctx.app, (await signIn(ctx.app, "store_admin", [otherStore])).cookie);
    const own = as(ctx.app, (await signIn(ctx.app, "store_admin", [store])).cookie);
    expect((await refund(orderId, { whole: true }, other)).statusCode).toBe(403);
    expect((await other.get(`/api/v1/admin/orders/${orderId}/refunds`)).statusCode).toBe(403);
    expect((await refund(randomUUID(), { whole: true })).statusCode).toBe(404);
    expect((await refund(orderId, { lines: [{ line_id: randomUUID(), quantity: 1 }] })).statusCode).toBe(404);
    expect((await refund(orderId, { whole: true }, own)).statusCode).toBe(201);

    const who = await shopper(ctx.app, { card: "pm_card_chargeDeclined" });
    await shop(ctx.app, who, store, [[coffee.barcode, 1]]);
    expect((await who.call({ method: "POST", url: "/api/v1/checkout", payload: { user_id: who.id } })).statusCode).toBe(
      402,
    );
    const [declined] = await queryRows<{ id: string }>(
      ctx.app.db,
      sql`select id from orders where customer_id = ${who.id}`,
    );
    const unpaid = await refund(declined!.id, { whole: true });
    expect(unpaid.statusCode).toBe(409);
    expect(unpaid.json().detail).toBe("Only a paid order can be refunded");
  });

  it("refuses bad bodies with the field named", async () => {
    const { orderId, coffeeLine } = await coffeeAndBread(1);
    for (const body of [
      { reason: "", whole: true },
      { reason: "x".repeat(501), whole: true },
      { whole: true, lines: [{ line_id: coffeeLine.id, quantity: 1 }] },
      {},
      { lines: [{ line_id: coffeeLine.id, quantity: 0 }] },
      { lines: [] },
      { idempotency_key: "not-a-uuid", whole: true },
    ]) {
      const res = await refund(orderId, body);
      expect(res.statusCode, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(res.json().detail).toBeTruthy();
    }
    expect((await refund(orderId, { reason: "x".repeat(500), whole: true })).statusCode).toBe(201);
  });

  it("sends the shopper a Swedish refund notice where they gave an e-mail", async () => {
    const who = await shopper(ctx.app, { email: "rut@example.se" });
    const { orderId } = await paidVisit(ctx.app, who, store, [[coffee.barcode, 2]]);
    await smtp.received(1);
    const res = await refund(orderId, { whole: true });
    expect(res.json().state).toBe("succeeded");
    const [, notice] = await smtp.received(2);
    expect(notice!.envelopeTo).toEqual(["rut@example.se"]);
    expect(notice!.subject).toMatch(/^Återbetalning från Återbutiken, kvitto nr \d+$/);
    expect(notice!.text).toContain("Vi har betalat tillbaka 119,80 kr till kortet som slutar på 4242.");
    expect(notice!.text).toContain("Betalt: 119,80 kr");
    expect(notice!.text).toContain("Återbetalt hittills: 119,80 kr");
    expect(notice!.text).toContain("Varav moms 25 %: 23,96 kr");
    expect(notice!.text).toContain("Netto efter återbetalning: 0,00 kr");
    expect(notice!.text).not.toContain("Att betala");
    expect(notice!.html).toContain("119,80 kr");
  });
});

/** The settling job's dependencies as a script without a mail sender would give them. */
const settleDeps = (): RefundDeps => ({
  db: ctx.app.db,
  provider: () => ctx.app.payments!,
  announce: sessionAnnouncer(ctx.app.bus, ctx.app.log),
});
const refundEvents = (visit: string) =>
  queryRows<{ source: string; admin_id: string | null; detail: unknown }>(
    ctx.app.db,
    sql`select source, admin_id, detail from session_events where session_id = ${visit} and kind = 'refund' order by id`,
  );
const lastActivityOf = async (visit: string) =>
  new Date(
    (
      await queryRows<{ last_activity_at: Date | string }>(
        ctx.app.db,
        sql`select last_activity_at from shopping_sessions where id = ${visit}`,
      )
    )[0]!.last_activity_at,
  ).toISOString();
const auditOf = async (refundId: string) =>
  queryRows<{ entity_type: string; store_id: string | null; summary: string; before: unknown; after: unknown }>(
    ctx.app.db,
    sql`select entity_type, store_id, summary, before, after from audit_log
        where action = 'refund.create' and entity_id = ${refundId}`,
  );
const url = (orderId: string) => `/api/v1/admin/orders/${orderId}/refunds`;

describe("what a refund request is told when it cannot be made", () => {
  it("names the unknown order, the unknown line and the line with too little left, with their codes and fields", async () => {
    const { orderId, coffeeLine, breadLine } = await coffeeAndBread(3);
    const unknownOrder = randomUUID();
    for (const res of [await admin.get(url(unknownOrder)), await refund(unknownOrder, { whole: true })]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: "not_found", detail: "Unknown order" });
    }
    const unknownLine = await refund(orderId, {
      lines: [
        { line_id: breadLine.id, quantity: 1 },
        { line_id: randomUUID(), quantity: 1 },
      ],
    });
    expect(unknownLine.statusCode).toBe(404);
    expect(unknownLine.json()).toMatchObject({
      code: "unknown_line",
      detail: "That line is not on this order",
      errors: [{ path: "lines.1.line_id", message: "not a line of this order" }],
    });
    expect((await refund(orderId, { lines: [{ line_id: coffeeLine.id, quantity: 2 }] })).statusCode).toBe(201);
    const tooMany = await refund(orderId, {
      lines: [
        { line_id: breadLine.id, quantity: 1 },
        { line_id: coffeeLine.id, quantity: 2 },
      ],
    });
    const detail = `${coffee.name}: only 1 of 3 left, only 59.90 kr is left to refund`;
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json()).toMatchObject({
      code: "refund_exceeds_captured",
      detail,
      errors: [{ path: "lines.1.quantity", message: detail }],
    });
    // Neither line of the refused request was given back.
    expect((await linesOf(orderId)).refunded).toBe(119.8);
    expect((await refund(orderId, { whole: true })).statusCode).toBe(201);
    const nothing = await refund(orderId, { whole: true });
    expect(nothing.statusCode).toBe(409);
    expect(nothing.json()).toMatchObject({
      code: "nothing_left",
      detail: "Only 0.00 kr is left to refund on this order",
    });
  });

  it("refuses an order that was never paid, or has no captured payment, as order_not_paid", async () => {
    const who = await shopper(ctx.app, { card: "pm_card_chargeDeclined" });
    await shop(ctx.app, who, store, [[coffee.barcode, 1]]);
    expect((await who.call({ method: "POST", url: "/api/v1/checkout", payload: { user_id: who.id } })).statusCode).toBe(
      402,
    );
    const [declined] = await queryRows<{ id: string }>(
      ctx.app.db,
      sql`select id from orders where customer_id = ${who.id}`,
    );
    const unpaid = await refund(declined!.id, { whole: true });
    expect(unpaid.statusCode).toBe(409);
    expect(unpaid.json()).toMatchObject({ code: "order_not_paid", detail: "Only a paid order can be refunded" });

    // A paid order whose payment is not on record (a row mended by hand, say): nothing is asked of the provider.
    const { orderId } = await coffeeAndBread(1);
    await ctx.app.db.execute(sql`update orders set payment_intent_id = null where id = ${orderId}`);
    const noPayment = await refund(orderId, { whole: true });
    expect(noPayment.statusCode).toBe(409);
    expect(noPayment.json()).toMatchObject({
      code: "order_not_paid",
      detail: "This order has no captured payment to refund",
    });
    expect(await linesOf(orderId)).toMatchObject({ refunded: 0, refunds: [] });
  });

  it("has nothing to give back for a line that cost nothing", async () => {
    const bag = await product(ctx.app, adminCookie, 0);
    const who = await shopper(ctx.app);
    const { orderId } = await paidVisit(ctx.app, who, store, [
      [coffee.barcode, 1],
      [bag.barcode, 1],
    ]);
    const bagLine = (await linesOf(orderId)).lines.find((line) => line.name === bag.name)!;
    const res = await refund(orderId, { lines: [{ line_id: bagLine.id, quantity: 1 }] });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: "nothing_left", detail: "Only 59.90 kr is left to refund on this order" });
    expect(await providerRefunds(orderId)).toEqual([]);
  });

  it("answers 409 when the order's books leave less than its lines, and asks the provider for nothing", async () => {
    const { orderId, breadLine } = await coffeeAndBread(1);
    // The order's total says everything was given back (a row mended by hand); its lines still have units left.
    await ctx.app.db.execute(sql`update orders set refunded_ore = total_ore where id = ${orderId}`);
    const res = await refund(orderId, { lines: [{ line_id: breadLine.id, quantity: 1 }] });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: "refund_exceeds_captured",
      detail: "Only what is left of the order can be refunded",
    });
    expect(await providerRefunds(orderId)).toEqual([]);
    const after = await linesOf(orderId);
    expect(after.refunds).toEqual([]);
    expect(after.lines.map((line) => line.refunded_quantity)).toEqual([0, 0]);
  });

  it("refuses while no payment provider is set up, before anything is reserved", async () => {
    const { orderId } = await coffeeAndBread(1);
    const provider = ctx.app.payments;
    ctx.app.payments = null;
    try {
      const res = await refund(orderId, { whole: true });
      expect(res.statusCode).toBe(503);
      expect(res.json().code).toBe("payments_not_configured");
    } finally {
      ctx.app.payments = provider;
    }
    expect(await linesOf(orderId)).toMatchObject({ refunded: 0, refunds: [] });
    expect((await refund(orderId, { whole: true })).json()).toMatchObject({ state: "succeeded", amount: 94.4 });
  });
});

describe("a whole refund after part of the order was refunded", () => {
  it("gives back what is left to the öre, records only the lines given back, and answers the same key the same", async () => {
    const bus = await listenToSessions(ctx.app);
    try {
      const { orderId, visit, coffeeLine, breadLine } = await coffeeAndBread(3);
      // Three coffees for 100 kr: the line's total does not split evenly into its units.
      await ctx.app.db.execute(sql`update order_lines set total_ore = 10000 where id = ${coffeeLine.id}`);
      await ctx.app.db.execute(sql`update orders set total_ore = total_ore - ${17970 - 10000} where id = ${orderId}`);
      await ctx.app.db.execute(
        sql`update shopping_sessions set last_activity_at = '2020-01-01T00:00:00Z' where id = ${visit}`,
      );
      expect((await refund(orderId, { lines: [{ line_id: breadLine.id, quantity: 1 }] })).statusCode).toBe(201);
      const oneCoffeeKey = randomUUID();
      const one = await refund(orderId, {
        idempotency_key: oneCoffeeKey,
        lines: [{ line_id: coffeeLine.id, quantity: 1 }],
      });
      expect(one.json()).toMatchObject({ state: "succeeded", amount: 33.33 });

      const wholeBody = { idempotency_key: randomUUID(), reason: "Hela köpet", whole: true };
      const rest = await admin.post(url(orderId), wholeBody);
      expect(rest.statusCode, rest.body).toBe(201);
      const made = refundResultSchema.parse(rest.json());
      // The last of the three units takes the remainder: 100.00 - 33.33.
      const given = [{ line_id: coffeeLine.id, name: coffee.name, quantity: 2, amount: 66.67 }];
      expect(made).toMatchObject({ state: "succeeded", amount: 66.67, reason: "Hela köpet", lines: given });
      const order = await linesOf(orderId);
      expect(order).toMatchObject({ total: 134.5, refunded: 134.5 });

      // What the provider was asked: the amount, under the refund's own key, as the customer's request.
      const atProvider = await providerRefunds(orderId);
      expect(atProvider.map((r) => r.amount)).toEqual([3450, 3333, 6667]);
      expect(await pay.control(`/idempotency?key=refund-${made.id}`)).toMatchObject({ executions: 1 });
      const asked = await fetch(`${pay.apiBase}/v1/refunds/${atProvider[2]!.id}`, {
        headers: { authorization: `Bearer ${pay.simulator.secretKey}` },
      });
      expect(await asked.json()).toMatchObject({
        amount: 6667,
        payment_intent: await intentOf(orderId),
        reason: "requested_by_customer",
      });

      // The visit's timeline and the audit log name only the line given back, not the bread with nothing left.
      const events = await refundEvents(visit);
      expect(events).toHaveLength(3);
      expect(events[2]).toEqual({
        source: "staff",
        admin_id: adminId,
        detail: { refund_id: made.id, origin: "staff", amount: 66.67, reason: "Hela köpet", lines: given },
      });
      // Staff's refunds are not the shopper's activity.
      expect(await lastActivityOf(visit)).toBe("2020-01-01T00:00:00.000Z");
      expect(await auditOf(made.id)).toEqual([
        {
          entity_type: "refund",
          store_id: store,
          summary: `Refund of 66.67 kr on receipt ${order.receipt_number}: Hela köpet`,
          before: { order_id: orderId, refunded: 67.83 },
          after: { order_id: orderId, refunded: 134.5, lines: given },
        },
      ]);

      // The same whole request again is the same refund; so is one naming exactly the units it gave back.
      const again = await admin.post(url(orderId), wholeBody);
      expect(again.statusCode).toBe(200);
      expect(refundResultSchema.parse(again.json()).refunds).toEqual(made.refunds);
      const { whole: _whole, ...keyAndReason } = wholeBody;
      const sameUnits = await admin.post(url(orderId), {
        ...keyAndReason,
        lines: [{ line_id: coffeeLine.id, quantity: 2 }],
      });
      expect(sameUnits.statusCode).toBe(200);
      expect(sameUnits.json().id).toBe(made.id);
      // A whole request under the key of one coffee is another request.
      const reused = await refund(orderId, { idempotency_key: oneCoffeeKey, whole: true });
      expect(reused.statusCode).toBe(409);
      expect(reused.json()).toMatchObject({
        code: "idempotency_key_reused",
        detail: "This idempotency key was already used for a different refund; open the dialog again for a new one",
      });
      expect(await providerRefunds(orderId)).toHaveLength(3);

      // One announcement per refund made, none for the answers repeated.
      await bus.settle();
      expect(bus.of(visit, "refund")).toEqual(Array(3).fill({ store_id: store, session_id: visit, kind: "refund" }));
    } finally {
      bus.stop();
    }
  });
});

describe("the same idempotency key", () => {
  it("is the same refund only for exactly the same units of the same order", async () => {
    const a = await coffeeAndBread();
    const b = await coffeeAndBread();
    const oneCoffee = {
      idempotency_key: randomUUID(),
      reason: "Fel pris",
      lines: [{ line_id: a.coffeeLine.id, quantity: 1 }],
    };
    expect((await admin.post(url(a.orderId), oneCoffee)).statusCode).toBe(201);
    const refused = async (orderId: string, body: unknown) => {
      const res = await admin.post(url(orderId), body);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().code).toBe("idempotency_key_reused");
    };
    // More lines than its refund named.
    await refused(a.orderId, { ...oneCoffee, lines: [...oneCoffee.lines, { line_id: a.breadLine.id, quantity: 1 }] });
    // The very same body on another order.
    await refused(b.orderId, oneCoffee);
    const both = {
      idempotency_key: randomUUID(),
      reason: "Fel pris",
      lines: [
        { line_id: a.coffeeLine.id, quantity: 1 },
        { line_id: a.breadLine.id, quantity: 1 },
      ],
    };
    expect((await admin.post(url(a.orderId), both)).statusCode).toBe(201);
    // The same lines, one of them with another quantity.
    await refused(a.orderId, {
      ...both,
      lines: [
        { line_id: a.coffeeLine.id, quantity: 2 },
        { line_id: a.breadLine.id, quantity: 1 },
      ],
    });
    expect((await admin.post(url(a.orderId), both)).statusCode).toBe(200);
    expect((await providerRefunds(a.orderId)).map((r) => r.amount)).toEqual([5990, 9440]);
    expect(await providerRefunds(b.orderId)).toEqual([]);
    expect((await linesOf(b.orderId)).refunds).toEqual([]);
  });

  it("raced in on two orders at once is answered from the refund that won, never as an error", async () => {
    const [a, b] = [await coffeeAndBread(1), await coffeeAndBread(1)];
    // Each reservation takes a moment, so both requests look for the key before either has written it.
    await ctx.app.db.execute(
      sql.raw(
        "create function slow_refund() returns trigger language plpgsql as $$ begin perform pg_sleep(0.3); return new; end $$",
      ),
    );
    await ctx.app.db.execute(
      sql`create trigger slow_refund before insert on refunds for each row execute function slow_refund()`,
    );
    try {
      const body = { idempotency_key: randomUUID(), reason: "Dubbelklick", whole: true };
      const answers = await Promise.all([a, b].map((o) => admin.post(url(o.orderId), body)));
      expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409]);
      expect(answers.find((r) => r.statusCode === 409)!.json().code).toBe("idempotency_key_reused");
    } finally {
      await ctx.app.db.execute(sql`drop trigger slow_refund on refunds`);
      await ctx.app.db.execute(sql`drop function slow_refund()`);
    }
    const made = [...(await providerRefunds(a.orderId)), ...(await providerRefunds(b.orderId))];
    expect(made.map((r) => r.amount)).toEqual([9440]);
  });
});

describe("an order of a deleted store, without a visit or a receipt number", () => {
  it("is refunded by platform admins alone, with no event or announcement and the order's id in the audit log", async () => {
    const bus = await listenToSessions(ctx.app);
    try {
      const { orderId, visit } = await coffeeAndBread(1);
      await ctx.app.db.execute(
        sql`update orders set store_id = null, session_id = null, receipt_number = null where id = ${orderId}`,
      );
      const own = as(ctx.app, (await signIn(ctx.app, "store_admin", [store])).cookie);
      for (const res of [await own.get(url(orderId)), await refund(orderId, { whole: true }, own)]) {
        expect(res.statusCode).toBe(403);
        expect(res.json()).toMatchObject({ code: "forbidden", detail: "You do not manage this store" });
      }
      const read = await admin.get(url(orderId));
      expect(read.statusCode).toBe(200);
      expect(read.json()).toMatchObject({ store_id: null, receipt_number: null, refunded: 0, refunds: [] });
      const res = await refund(orderId, { whole: true });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ state: "succeeded", amount: 94.4 });
      expect(await auditOf(res.json().id)).toEqual([
        expect.objectContaining({ store_id: null, summary: `Refund of 94.40 kr on receipt ${orderId}: Trasig vara` }),
      ]);
      expect(await refundEvents(visit)).toEqual([]);
      await bus.settle();
      expect(bus.of(null, "refund")).toEqual([]);
      expect(bus.of(visit, "refund")).toEqual([]);
    } finally {
      bus.stop();
    }
  });
});

describe("the provider's answers", () => {
  it("two instances settling the same refused refund free its amount once", async () => {
    const { orderId } = await coffeeAndBread(1);
    await ctx.app.payments!.refund({
      paymentIntentId: await intentOf(orderId),
      amountOre: 9440,
      idempotencyKey: randomUUID(),
    });
    // The provider refuses, but its answer is lost: the refund waits for settling with its amount reserved.
    await pay.control("/faults", { mode: "drop_after", path: "/v1/refunds" });
    const res = await refund(orderId, { whole: true });
    await pay.control("/faults", {});
    expect(res.json().state).toBe("pending");
    expect((await linesOf(orderId)).refunded).toBe(94.4);
    const settled = await Promise.all([
      settlePendingRefunds({ ...settleDeps(), olderThanMs: 0 }),
      settlePendingRefunds({ ...settleDeps(), olderThanMs: 0 }),
    ]);
    expect(settled.map((s) => s.failed + s.pending + s.succeeded)).not.toContain(2);
    expect(settled.some((s) => s.failed === 1)).toBe(true);
    const after = await linesOf(orderId);
    expect(after.refunds).toEqual([
      expect.objectContaining({ state: "failed", failure_code: "charge_already_refunded" }),
    ]);
    expect(after.refunded).toBe(0);
    expect(after.lines.map((line) => [line.refunded_quantity, line.refunded_ore])).toEqual([
      [0, 0],
      [0, 0],
    ]);
  });
});

// After the notice test above, which counts the SMTP sink's messages: the shopper here has an e-mail address.
describe("the shopper's refund notice", () => {
  it("is queued only once the provider has given the money back, also when a pending refund is settled later", async () => {
    const who = await shopper(ctx.app, { email: "kund@example.se" });
    const { orderId } = await paidVisit(ctx.app, who, store, [[coffee.barcode, 2]]);
    const notices = async () =>
      (
        await queryRows<{ refund_id: string; to_address: string }>(
          ctx.app.db,
          sql`select refund_id, to_address from receipt_mails where order_id = ${orderId} and kind = 'refund'`,
        )
      ).map((mail) => [mail.refund_id, mail.to_address]);
    // Half was given back outside Glide: the provider refuses a refund of both coffees.
    await ctx.app.payments!.refund({
      paymentIntentId: await intentOf(orderId),
      amountOre: 5990,
      idempotencyKey: randomUUID(),
    });
    const refused = await refund(orderId, { whole: true });
    expect(refused.json()).toMatchObject({ state: "failed", failure_code: "amount_too_large" });
    expect(await notices()).toEqual([]);

    await pay.control("/faults", { mode: "drop_after", path: "/v1/refunds" });
    const unanswered = await refund(orderId, {
      lines: [{ line_id: (await linesOf(orderId)).lines[0]!.id, quantity: 1 }],
    });
    await pay.control("/faults", {});
    expect(unanswered.json().state).toBe("pending");
    expect(await notices()).toEqual([]);

    // 45 seconds old: past the job's own age (30 s), not past a minute.
    await ctx.app.db.execute(
      sql`update refunds set created_at = now() - interval '45 seconds' where id = ${unanswered.json().id}`,
    );
    expect(await settlePendingRefunds({ ...settleDeps(), olderThanMs: 60_000 })).toEqual({
      succeeded: 0,
      failed: 0,
      pending: 0,
    });
    expect(await settlePendingRefunds(settleDeps())).toEqual({ succeeded: 1, failed: 0, pending: 0 });
    // (Oldest first: the settled one was made to look 45 seconds old.)
    expect((await linesOf(orderId)).refunds.map((r) => [r.state, r.amount])).toEqual([
      ["succeeded", 59.9],
      ["failed", 119.8],
    ]);
    expect(await notices()).toEqual([[unanswered.json().id, "kund@example.se"]]);
  });
});

// Last in the file: the refund here stays pending for good, which the counts of settling above would see.
describe("a refund whose key the provider knows for another request", () => {
  it("stays pending with its amount reserved: the provider's answer says nothing about ours", async () => {
    const { orderId } = await coffeeAndBread(1);
    // The request never reaches the provider: no answer, so the refund waits for settling.
    await pay.control("/faults", { mode: "drop", path: "/v1/refunds" });
    const res = await refund(orderId, { whole: true });
    await pay.control("/faults", {});
    expect(res.json().state).toBe("pending");
    const id = res.json().id as string;
    // Meanwhile its key was used at the provider with other parameters.
    const other = await ctx.app.payments!.refund({
      paymentIntentId: await intentOf(orderId),
      amountOre: 1,
      idempotencyKey: `refund-${id}`,
    });
    expect(other.status).toBe("refunded");
    expect(await settlePendingRefunds({ ...settleDeps(), olderThanMs: 0 })).toEqual({
      succeeded: 0,
      failed: 0,
      pending: 1,
    });
    expect(await pay.control(`/idempotency?key=refund-${id}`)).toMatchObject({ executions: 1, mismatches: 1 });
    const after = await linesOf(orderId);
    expect(after.refunds).toEqual([expect.objectContaining({ id, state: "pending", failure_code: null })]);
    expect(after.refunded).toBe(94.4);
    expect((await refund(orderId, { whole: true })).json().code).toBe("nothing_left");
  });
});
