import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { queryRows, sql } from "../../db/client.ts";
import { paidVisit, product, shop, shopper } from "../../test/factories.ts";
import { as, listenToSessions, signIn } from "../../test/harness.ts";
import {
  admin,
  adminCookie,
  auditOf,
  coffee,
  coffeeAndBread,
  ctx,
  linesOf,
  providerRefunds,
  refund,
  refundEvents,
  store,
  url,
  useRefundsApp,
} from "./refunds.fixtures.ts";

/** What a refund request is told when it cannot be made, and an order of a deleted store. */
useRefundsApp();

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
