import { randomUUID } from "node:crypto";
import { refundResultSchema } from "@glide/contracts";
import { describe, expect, it } from "vitest";
import { queryRows, sql } from "../../db/client.ts";
import { paidVisit, shopper } from "../../test/factories.ts";
import { listenToSessions } from "../../test/harness.ts";
import { settlePendingRefunds } from "./refund-provider.ts";
import {
  admin,
  adminId,
  auditOf,
  coffee,
  coffeeAndBread,
  ctx,
  intentOf,
  lastActivityOf,
  linesOf,
  pay,
  providerRefunds,
  refund,
  refundEvents,
  settleDeps,
  store,
  url,
  useRefundsApp,
} from "./refunds.fixtures.ts";

/** Refunds after earlier ones and with the same key, the provider's answers, and the shopper's notice. */
useRefundsApp();

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
