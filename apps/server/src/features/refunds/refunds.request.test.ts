import { randomUUID } from "node:crypto";
import { lineRefundOre, receiptSchema, refundResultSchema, refundSchema } from "@glide/contracts";
import { describe, expect, it } from "vitest";
import { queryRows, sql } from "../../db/client.ts";
import { paidVisit, shop, shopper } from "../../test/factories.ts";
import { as, signIn } from "../../test/harness.ts";
import { sessionAnnouncer } from "../sessions/session-events.ts";
import { settlePendingRefunds } from "./refund-provider.ts";
import {
  admin,
  coffee,
  coffeeAndBread,
  ctx,
  intentOf,
  linesOf,
  otherStore,
  pay,
  providerRefunds,
  refund,
  smtp,
  store,
  useRefundsApp,
} from "./refunds.fixtures.ts";

/** The amount of a refund, and refunds made through POST /api/v1/admin/orders/:id/refunds. */
useRefundsApp();

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
