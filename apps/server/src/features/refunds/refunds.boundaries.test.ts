import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows, sql } from "../../db/client.ts";
import { paidVisit, product, shopper } from "../../test/factories.ts";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";
import { type PaymentHarness, startPaymentHarness } from "../../test/payments.ts";
import { sessionAnnouncer } from "../sessions/session-events.ts";
import { REFUND_SETTLE_AFTER_MS, settlePendingRefunds } from "./refund-provider.ts";

/**
 * When the job asks the provider again about a refund it never answered:
 * once the refund is REFUND_SETTLE_AFTER_MS old (30 s), not before, so a
 * request still waiting for its own answer is left to it.
 */
let ctx: TestContext;
let pay: PaymentHarness;
let admin: ReturnType<typeof as>;
let store: string;
let coffee: Awaited<ReturnType<typeof product>>;

beforeAll(async () => {
  pay = await startPaymentHarness();
  ctx = await createTestContext({ STRIPE_SECRET_KEY: pay.simulator.secretKey, STRIPE_API_BASE: pay.apiBase });
  const cookie = (await signIn(ctx.app)).cookie;
  admin = as(ctx.app, cookie);
  store = (await admin.post("/api/v1/stores/", { name: "Väntande återbetalningar" })).json().id;
  coffee = await product(ctx.app, cookie, 59.9);
});
afterAll(async () => {
  await ctx?.close();
  await pay?.close();
});

const stateOf = async (refundId: string) =>
  (await queryRows<{ state: string }>(ctx.app.db, sql`select state from refunds where id = ${refundId}`))[0]!.state;
const madeAgo = (refundId: string, ms: number) =>
  ctx.app.db.execute(
    sql`update refunds set created_at = now() - ${ms}::float8 * interval '1 millisecond' where id = ${refundId}`,
  );

describe("a refund the provider did not answer", () => {
  it("is asked about again a second after it is 30 seconds old, not a second before", async () => {
    expect(REFUND_SETTLE_AFTER_MS).toBe(30_000);
    const who = await shopper(ctx.app);
    const { orderId } = await paidVisit(ctx.app, who, store, [[coffee.barcode, 1]]);
    await pay.control("/faults", { mode: "drop_after", path: "/v1/refunds" });
    let res: Awaited<ReturnType<typeof admin.post>>;
    try {
      res = await admin.post(`/api/v1/admin/orders/${orderId}/refunds`, {
        idempotency_key: randomUUID(),
        reason: "Kaffet var slut",
        whole: true,
      });
    } finally {
      await pay.control("/faults", {});
    }
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().state).toBe("pending");
    const refundId = res.json().id as string;
    const deps = {
      db: ctx.app.db,
      provider: () => ctx.app.payments!,
      announce: sessionAnnouncer(ctx.app.bus, ctx.app.log),
    };

    await madeAgo(refundId, REFUND_SETTLE_AFTER_MS - 1000);
    expect(await settlePendingRefunds(deps)).toEqual({ succeeded: 0, failed: 0, pending: 0 });
    expect(await stateOf(refundId)).toBe("pending");

    await madeAgo(refundId, REFUND_SETTLE_AFTER_MS + 1000);
    expect(await settlePendingRefunds(deps)).toEqual({ succeeded: 1, failed: 0, pending: 0 });
    expect(await stateOf(refundId)).toBe("succeeded");
  });
});
