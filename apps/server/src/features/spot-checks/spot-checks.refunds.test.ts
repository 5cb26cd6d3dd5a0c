import { randomUUID } from "node:crypto";
import { refundResultSchema } from "@glide/contracts";
import { describe, expect, it } from "vitest";
import { queryRows, sql } from "../../db/client.ts";
import { product } from "../../test/factories.ts";
import { admin, cookie, ctx, decide, flaggedVisit, pay, useSpotChecksApp } from "../../test/spot-checks.fixtures.ts";

/** Refunds of an order with items added at a spot check: one refund per payment. */
useSpotChecksApp();

describe("refunds of an order with items added at a spot check", () => {
  /** Two soaps paid at checkout (less any pant voucher), two gums (12 kr) charged apart at the check. */
  async function twoPayments(voucherKronor = 0) {
    const { check, who } = await flaggedVisit(2, voucherKronor);
    const gum = await product(ctx.app, cookie, 12, 12);
    const added = await decide(check.id, {
      outcome: "items_added",
      items_added: [{ product_id: gum.id, quantity: 2 }],
    });
    expect(added.json().charge.state).toBe("paid");
    const orderId = check.order_id!;
    const [intents] = await queryRows<{ checkout: string; spot_check: string }>(
      ctx.app.db,
      sql`select o.payment_intent_id as checkout, k.charge_intent_id as spot_check
          from orders o join spot_checks k on k.order_id = o.id where o.id = ${orderId}`,
    );
    const lines = (await admin.get(`/api/v1/admin/orders/${orderId}/refunds`)).json().lines as Array<{
      id: string;
      origin: string;
    }>;
    return {
      who,
      orderId,
      intents: intents!,
      soapLine: lines.find((l) => l.origin === "cart")!.id,
      gumLine: lines.find((l) => l.origin === "spot_check")!.id,
    };
  }
  const refund = (orderId: string, body: Record<string, unknown>) =>
    admin.post(`/api/v1/admin/orders/${orderId}/refunds`, { idempotency_key: randomUUID(), reason: "Fel", ...body });
  const givenBack = async (intent: string) =>
    (await pay.control<{ data: Array<{ amount: number }> }>(`/refunds?payment_intent=${intent}`)).data.map(
      (r) => r.amount,
    );
  const refundedOf = async (orderId: string) =>
    (await admin.get(`/api/v1/admin/orders/${orderId}/refunds`)).json() as { total: number; refunded: number };

  it("refunds the whole order as one refund per payment, each under its own key, in one request", async () => {
    const { orderId, intents, soapLine } = await twoPayments();
    const key = randomUUID();
    const body = { idempotency_key: key, reason: "Hela köpet", whole: true };
    const res = await admin.post(`/api/v1/admin/orders/${orderId}/refunds`, body);
    expect(res.statusCode, res.body).toBe(201);
    const answer = refundResultSchema.parse(res.json());
    expect(answer.refunds.map((r) => [r.state, r.amount])).toEqual([
      ["succeeded", 49],
      ["succeeded", 24],
    ]);
    // The answer is the checkout's refund, as a single refund was answered before, plus both.
    expect(answer).toMatchObject({ id: answer.refunds[0]!.id, amount: 49 });
    expect(await givenBack(intents.checkout)).toEqual([4900]);
    expect(await givenBack(intents.spot_check)).toEqual([2400]);
    for (const made of answer.refunds)
      expect(await pay.control(`/idempotency?key=refund-${made.id}`)).toMatchObject({ executions: 1 });
    expect(await refundedOf(orderId)).toEqual(expect.objectContaining({ total: 73, refunded: 73 }));

    const again = await admin.post(`/api/v1/admin/orders/${orderId}/refunds`, body);
    expect(again.statusCode).toBe(200);
    expect(again.json().refunds.map((r: { id: string }) => r.id)).toEqual(answer.refunds.map((r) => r.id));
    const { whole: _whole, ...asLines } = body;
    const otherBody = { ...asLines, lines: [{ line_id: soapLine, quantity: 1 }] };
    expect((await admin.post(`/api/v1/admin/orders/${orderId}/refunds`, otherBody)).statusCode).toBe(409);
    expect((await refund(orderId, { whole: true })).json().detail).toBe("Only 0.00 kr is left to refund on this order");
    const events = await queryRows<{ n: number }>(
      ctx.app.db,
      sql`select count(*)::int as n from audit_log where action = 'refund.create' and after->>'order_id' = ${orderId}`,
    );
    expect(events[0]!.n).toBe(2);
  });

  it("with a pant voucher on the checkout: its refund is held to what the card paid, the check's charge is not", async () => {
    // Two soaps, 49 kr, of which a 20 kr voucher paid: the card paid 29 kr at the gate, and 24 kr at the check.
    const { orderId, intents, soapLine, gumLine } = await twoPayments(20);
    const both = await refund(orderId, {
      lines: [
        { line_id: gumLine, quantity: 2 },
        { line_id: soapLine, quantity: 2 },
      ],
    });
    expect(both.statusCode, both.body).toBe(201);
    expect(refundResultSchema.parse(both.json()).refunds.map((r) => r.amount)).toEqual([29, 24]);
    expect(await givenBack(intents.checkout)).toEqual([2900]);
    expect(await givenBack(intents.spot_check)).toEqual([2400]);
    expect(await refundedOf(orderId)).toMatchObject({ total: 73, refunded: 53 });
    const more = await refund(orderId, { whole: true });
    expect([more.statusCode, more.json().code]).toEqual([409, "nothing_left"]);
  });

  it("with a pant voucher: one soap, within what the card paid, is given back in full", async () => {
    const { orderId, intents, soapLine } = await twoPayments(20);
    // 24,50 kr of the card's 29 kr: not capped. The second soap then gets the 4,50 kr left.
    expect((await refund(orderId, { lines: [{ line_id: soapLine, quantity: 1 }] })).json().amount).toBe(24.5);
    expect((await refund(orderId, { lines: [{ line_id: soapLine, quantity: 1 }] })).json().amount).toBe(4.5);
    expect(await givenBack(intents.checkout)).toEqual([2450, 450]);
    expect(await givenBack(intents.spot_check)).toEqual([]);
  });

  it("refunds lines of both payments together, exactly what is left and not a unit more", async () => {
    const { orderId, intents, soapLine, gumLine } = await twoPayments();
    const both = await refund(orderId, {
      lines: [
        { line_id: gumLine, quantity: 1 },
        { line_id: soapLine, quantity: 1 },
      ],
    });
    expect(both.statusCode, both.body).toBe(201);
    expect(both.json().refunds.map((r: { amount: number }) => r.amount)).toEqual([24.5, 12]);
    // One unit more than is left on the spot check's line: nothing is refunded, neither part.
    const over = await refund(orderId, {
      lines: [
        { line_id: soapLine, quantity: 1 },
        { line_id: gumLine, quantity: 2 },
      ],
    });
    expect(over.statusCode).toBe(409);
    expect(over.json().errors[0].path).toBe("lines.1.quantity");
    expect((await refundedOf(orderId)).refunded).toBe(36.5);
    const rest = await refund(orderId, {
      lines: [
        { line_id: soapLine, quantity: 1 },
        { line_id: gumLine, quantity: 1 },
      ],
    });
    expect(rest.statusCode).toBe(201);
    expect(await givenBack(intents.checkout)).toEqual([2450, 2450]);
    expect(await givenBack(intents.spot_check)).toEqual([1200, 1200]);
    expect((await refundedOf(orderId)).refunded).toBe(73);
  });

  it("leaves out a payment with nothing left, and makes one request of 20 at once", async () => {
    const { orderId, intents, soapLine } = await twoPayments();
    expect((await refund(orderId, { lines: [{ line_id: soapLine, quantity: 2 }] })).statusCode).toBe(201);
    const answers = await Promise.all(Array.from({ length: 20 }, () => refund(orderId, { whole: true })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, ...Array(19).fill(409)]);
    const won = answers.find((a) => a.statusCode === 201)!.json();
    expect(won.refunds.map((r: { amount: number }) => r.amount)).toEqual([24]);
    expect(await givenBack(intents.checkout)).toEqual([4900]);
    expect(await givenBack(intents.spot_check)).toEqual([2400]);
  });

  it("answers the same two refunds to the same key sent at once", async () => {
    const { orderId, intents } = await twoPayments();
    const body = { idempotency_key: randomUUID(), reason: "Dubbelklick", whole: true };
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => admin.post(`/api/v1/admin/orders/${orderId}/refunds`, body)),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    expect(
      new Set(
        answers.map((a) =>
          a
            .json()
            .refunds.map((r: { id: string }) => r.id)
            .join(),
        ),
      ),
    ).toHaveProperty("size", 1);
    expect(await givenBack(intents.checkout)).toEqual([4900]);
    expect(await givenBack(intents.spot_check)).toEqual([2400]);
  });

  it("records each payment's answer: a refusal on one frees only its own amount", async () => {
    const { orderId, intents } = await twoPayments();
    // The extra charge was given back outside Glide: the provider refuses that part.
    await ctx.app.payments!.refund({
      paymentIntentId: intents.spot_check,
      amountOre: 2400,
      idempotencyKey: randomUUID(),
    });
    const res = await refund(orderId, { whole: true });
    expect(res.statusCode).toBe(201);
    expect(res.json().refunds.map((r: { state: string; amount: number }) => [r.state, r.amount])).toEqual([
      ["succeeded", 49],
      ["failed", 24],
    ]);
    expect((await refundedOf(orderId)).refunded).toBe(49);
  });
});
