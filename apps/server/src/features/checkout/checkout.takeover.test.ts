import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { SOLD_WHEN_FOOD_WAS_12 } from "../../test/factories.ts";
import { type ChargePort, idempotencyKeyOf } from "../payments/charge.ts";
import {
  barcodes,
  closeCheckoutTests,
  countingPort,
  ctx,
  openCheckoutTests,
  orderOfVisit,
  pay,
  paymentEvents,
  refusal,
  run,
  scan,
  shopper,
  visit,
} from "./checkout.fixtures.ts";
import { chargeVisit, settleUnsettled } from "./checkout.service.ts";
import { CHARGE_LEASE_MS } from "./order-plan.ts";

beforeAll(openCheckoutTests);
afterEach(() => pay.control("/faults", {}));
afterAll(closeCheckoutTests);

describe("a charge another request has started", () => {
  it("is waited for, not asked again, while it is under way: both answers are its receipt", async () => {
    const alva = await shopper();
    const s = await visit(alva);
    await scan(alva, s, barcodes.coffee);
    await pay.control("/faults", { delay_ms: 1000, times: 1, path: "/v1/payment_intents" });
    const first = run(alva);
    await vi.waitFor(async () => expect((await orderOfVisit(s))?.state).toBe("charging"), { interval: 20 });
    // A request on another instance: within one, a second request shares the first's run and never waits.
    const second = countingPort();
    const waiting = chargeVisit({
      db: ctx.app.db,
      payments: second.port,
      sessionId: s,
      event: "checkout",
      now: () => SOLD_WHEN_FOOD_WAS_12,
    });
    const [a, b] = await Promise.all([first, waiting]);
    expect(b.receipt?.id).toBe(a.receipt?.id);
    expect(second.counted.calls).toBe(0);
    expect(await pay.intentsFor(`${idempotencyKeyOf(s, 1)}-authorize`)).toHaveLength(1);
  });

  it("is taken over with the same key once it has been charging longer than the lease, and not a moment before", async () => {
    const alva = await shopper();
    const s = await visit(alva);
    await scan(alva, s, barcodes.paper);
    // A request that got as far as the provider and was never heard of again.
    await pay.control("/faults", { mode: "error", times: 1, path: "/v1/payment_intents" });
    await refusal(run(alva));
    const started = new Date(Date.now() - 60_000);
    await ctx.app.db.execute(
      sql`update orders set state = 'charging', charge_started_at = ${started} where session_id = ${s}`,
    );
    const at = (ms: number) => () => new Date(started.getTime() + ms);

    // Requests on two instances (within one, a second request shares the first's run). At exactly the lease the
    // charge is still the other request's: this one waits, asking the provider nothing.
    const onInstance = (now: () => Date, payments: ChargePort) =>
      chargeVisit({ db: ctx.app.db, payments, sessionId: s, event: "checkout", now });
    const patient = countingPort();
    const waiting = { answer: onInstance(at(CHARGE_LEASE_MS), patient.port) };
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(patient.counted.calls).toBe(0);
    // A moment later the lease is over: the charge is asked again under the same key, and both answers are paid.
    const taker = countingPort();
    const taken = await onInstance(at(CHARGE_LEASE_MS + 1), taker.port);
    expect(taker.counted.calls).toBe(1);
    expect((await waiting.answer).receipt?.id).toBe(taken.receipt?.id);
    expect(patient.counted.calls).toBe(0);
    expect((await orderOfVisit(s))?.attempt).toBe(1);
    expect(await pay.intentsFor(`${idempotencyKeyOf(s, 1)}-authorize`)).toHaveLength(1);
    // Resumed, not made anew: the timeline says the payment was settled after a first try got no answer.
    const charged = (await paymentEvents(s)).filter((e) => e.kind === "charged");
    expect(charged).toEqual([expect.objectContaining({ detail: expect.objectContaining({ settled_later: true }) })]);
  });

  it("is settled by the periodic job only once the lease is over", async () => {
    const alva = await shopper();
    const s = await visit(alva);
    await scan(alva, s, barcodes.bread);
    await pay.control("/faults", { mode: "error", times: 1, path: "/v1/payment_intents" });
    await refusal(run(alva));
    const started = new Date();
    await ctx.app.db.execute(
      sql`update orders set state = 'charging', charge_started_at = ${started} where session_id = ${s}`,
    );
    const job = countingPort();
    const settle = (ms: number) =>
      settleUnsettled({ db: ctx.app.db, payments: job.port, now: () => new Date(started.getTime() + ms) });
    await settle(CHARGE_LEASE_MS);
    expect((await orderOfVisit(s))?.state).toBe("charging");
    await settle(CHARGE_LEASE_MS + 1);
    expect((await orderOfVisit(s))?.state).toBe("paid");
  });
});
