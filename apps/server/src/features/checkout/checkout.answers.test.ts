import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/client.ts";
import { SOLD_WHEN_FOOD_WAS_12 } from "../../test/factories.ts";
import { chargeWith } from "../payments/charge.ts";
import {
  admin,
  barcodes,
  closeCheckoutTests,
  ctx,
  openCheckoutTests,
  orderOfVisit,
  pay,
  run,
  runTold,
  type Shopper,
  scan,
  shopper,
  visit,
} from "./checkout.fixtures.ts";
import { chargeVisit } from "./checkout.service.ts";
import { type OrderRow, recordCharge } from "./order-plan.ts";

/**
 * What a checkout answers when it settles more than the visit at the exit,
 * what it records when another request recorded the provider's answer
 * first, and when it queues the receipt's mail.
 */
beforeAll(openCheckoutTests);
afterEach(() => pay.control("/faults", {}));
afterAll(closeCheckoutTests);

/** Another store of the chain; a shopper may have one open visit per store. */
async function anotherStore(): Promise<string> {
  const res = await admin.post("/api/v1/stores/", { name: `Filialen ${Math.random().toString(36).slice(2, 8)}` });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

/** Visits of `who`, one per barcode, each in a store of its own, which the sweep then left unpaid, oldest first. */
async function leftUnpaid(who: Shopper, ...goods: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const barcode of goods) {
    const id = await visit(who, await anotherStore());
    await scan(who, id, barcode);
    ids.push(id);
  }
  for (const id of ids)
    await ctx.app.db.execute(
      sql`update shopping_sessions set state = 'left_unpaid', exited_at = now() where id = ${id}`,
    );
  return ids;
}

const receiptOf = async (sessionId: string) => (await orderOfVisit(sessionId))?.id;

describe("the answer of a checkout that settles several visits", () => {
  it("is the receipt of the visit at the exit when it had goods, though older visits were paid first", async () => {
    const ebba = await shopper();
    const exit = await visit(ebba);
    const [older] = await leftUnpaid(ebba, barcodes.coffee);
    await scan(ebba, exit, barcodes.bread);
    const answer = await run(ebba);
    expect(answer.status).toBe("paid");
    expect(answer.receipt?.id).toBe(await receiptOf(exit));
    expect((await orderOfVisit(older!))?.state).toBe("paid");
  });

  it("is the receipt of the visit paid last when the one at the exit was empty", async () => {
    const ebba = await shopper();
    // Left unpaid one after another: the exit settles them in the order they went through the door.
    // A visit with nothing in it yet, in the store the shopper is leaving (no new visit begins while one is unpaid),
    // which went through its door after the others: its empty answer comes last of all.
    const exit = await visit(ebba);
    const owed = await leftUnpaid(ebba, barcodes.coffee, barcodes.bread, barcodes.paper);
    await ctx.app.db.execute(
      sql`update shopping_sessions set door_opened_at = now() + interval '1 minute' where id = ${exit}`,
    );
    const answer = await run(ebba);
    expect(answer).toMatchObject({ status: "paid", receipt: { id: await receiptOf(owed[2]!), total: 28 } });
    for (const id of owed) expect((await orderOfVisit(id))?.state).toBe("paid");
  });

  it("is 'empty' when nothing anywhere was owed and the visit at the exit was empty, however often it is asked", async () => {
    const ebba = await shopper();
    const s = await visit(ebba);
    expect(await run(ebba)).toEqual({ status: "empty", receipt: null });
    const again = runTold(ebba);
    expect(await again.answer).toEqual({ status: "empty", receipt: null });
    // The visit ended once: one checkout on its timeline, and nothing new for the Sessions screens.
    expect(again.told).toEqual([]);
    const [{ n } = { n: -1 }] = await queryRows<{ n: number }>(
      ctx.app.db,
      sql`select count(*)::int as n from session_events where session_id = ${s} and kind = 'checkout'`,
    );
    expect(n).toBe(1);
  });

  it("asked again for a paid visit, is its receipt, and tells the Sessions screens nothing new", async () => {
    const ebba = await shopper();
    const s = await visit(ebba);
    await scan(ebba, s, barcodes.coffee);
    const paid = await run(ebba);
    const again = runTold(ebba);
    expect(await again.answer).toEqual(paid);
    expect(again.told).toEqual([]);
  });
});

describe("the provider's answer, recorded", () => {
  /** A paid visit and its order's row as the charging request held it. */
  async function paidVisit() {
    const filip = await shopper();
    const s = await visit(filip);
    await scan(filip, s, barcodes.coffee);
    await run(filip);
    const [order] = await queryRows<OrderRow & { receipt_number: number }>(
      ctx.app.db,
      sql`select id, session_id, state, attempt, total_ore, voucher_ore, currency, charge_started_at, payment_intent_id,
            receipt_number
          from orders where session_id = ${s}`,
    );
    return { s, order: order! };
  }
  const charged = (s: string) =>
    queryRows<{ n: number }>(
      ctx.app.db,
      sql`select count(*)::int as n from session_events where session_id = ${s} and kind = 'charged'`,
    ).then((rows) => rows[0]!.n);
  const paidOutcome = { kind: "paid", intentId: "pi_late", brand: "visa", last4: "4242" } as const;

  it("a second time (a request that took over, then heard late) changes nothing: no new receipt number, no event", async () => {
    const { s, order } = await paidVisit();
    const again = await recordCharge(
      ctx.app.db,
      { order: { ...order, state: "charging" }, sessionId: s, outcome: paidOutcome, resumed: true, mailReceipt: false },
      SOLD_WHEN_FOOD_WAS_12,
    );
    expect(again).toBeNull();
    const [after] = await queryRows<{ receipt_number: number; payment_intent_id: string }>(
      ctx.app.db,
      sql`select receipt_number, payment_intent_id from orders where id = ${order.id}`,
    );
    expect(after).toEqual({ receipt_number: order.receipt_number, payment_intent_id: order.payment_intent_id });
    expect(await charged(s)).toBe(1);
  });

  it("for an order that is no longer the visit's changes nothing", async () => {
    const gun = await shopper();
    const s = await visit(gun);
    await scan(gun, s, barcodes.bread);
    await pay.control("/faults", { mode: "error", times: 1, path: "/v1/payment_intents" });
    await run(gun).catch(() => null);
    const current = (await orderOfVisit(s))!;
    expect(current.state).toBe("unsettled");
    const stale: OrderRow = {
      id: "00000000-0000-4000-8000-000000000000",
      session_id: s,
      state: "charging",
      attempt: 1,
      total_ore: 3450,
      voucher_ore: 0,
      currency: "SEK",
      charge_started_at: null,
      payment_intent_id: null,
    };
    for (const outcome of [paidOutcome, { kind: "declined", code: "generic_decline", intentId: null } as const])
      expect(
        await recordCharge(
          ctx.app.db,
          { order: stale, sessionId: s, outcome, resumed: false, mailReceipt: false },
          SOLD_WHEN_FOOD_WAS_12,
        ),
      ).toBeNull();
    expect((await orderOfVisit(s))?.state).toBe("unsettled");
    expect(await charged(s)).toBe(0);
  });
});

describe("the receipt's mail", () => {
  const mails = (s: string) =>
    queryRows<{ to_address: string }>(
      ctx.app.db,
      sql`select m.to_address from receipt_mails m join orders o on o.id = m.order_id where o.session_id = ${s}`,
    );

  it("is queued with the payment when a mail server is set up, and not when none is (or nobody said)", async () => {
    const port = chargeWith(pay.provider({ timeoutMs: 5000, maxNetworkRetries: 0 }));
    for (const [mailReceipts, expected] of [
      [true, [{ to_address: "hanna@example.se" }]],
      [false, []],
      [undefined, []],
    ] as const) {
      const hanna = await shopper();
      await ctx.app.db.execute(sql`update customers set email = 'hanna@example.se' where id = ${hanna.customerId}`);
      const s = await visit(hanna);
      await scan(hanna, s, barcodes.paper);
      await chargeVisit({
        db: ctx.app.db,
        payments: port,
        sessionId: s,
        event: "checkout",
        now: () => SOLD_WHEN_FOOD_WAS_12,
        ...(mailReceipts === undefined ? {} : { mailReceipts }),
      });
      expect((await orderOfVisit(s))?.state).toBe("paid");
      expect(await mails(s), `mailReceipts: ${mailReceipts}`).toEqual(expected);
    }
  });
});
