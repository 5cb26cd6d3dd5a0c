import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows, sql } from "../../db/client.ts";
import { paidVisit, product, shop, shopper, type TestShopper } from "../../test/factories.ts";
import { as, createDeviceKey, createTestContext, signIn, type TestContext } from "../../test/harness.ts";
import { type PaymentHarness, startPaymentHarness } from "../../test/payments.ts";

/**
 * Whom the gate marks as gone. A visit marked gone whose charge is then
 * declined is left unpaid for staff instead of reopening for its shopper,
 * so the gate marks the visit it opened for and that shopper's charges still
 * under way, and nothing of anyone else's.
 */
let ctx: TestContext;
let pay: PaymentHarness;
let store: string;
let gateKey: string;
let soap: Awaited<ReturnType<typeof product>>;

beforeAll(async () => {
  pay = await startPaymentHarness();
  ctx = await createTestContext({ STRIPE_SECRET_KEY: pay.simulator.secretKey, STRIPE_API_BASE: pay.apiBase });
  const cookie = (await signIn(ctx.app)).cookie;
  const admin = as(ctx.app, cookie);
  store = (await admin.post("/api/v1/stores/", { name: "Grindbutiken" })).json().id;
  gateKey = (await createDeviceKey(ctx.app, store, "exit_gate")).key;
  soap = await product(ctx.app, cookie, 24.5);
});
afterAll(async () => {
  await ctx?.close();
  await pay?.close();
});

const gone = async (visit: string) =>
  (
    await queryRows<{ gone: boolean }>(
      ctx.app.db,
      sql`select exited_at is not null as gone from shopping_sessions where id = ${visit}`,
    )
  )[0]!.gone;

async function throughGate(who: TestShopper) {
  const code = await who.call({ method: "GET", url: "/api/v1/exit/token" });
  expect(code.statusCode, code.body).toBe(200);
  const res = await ctx.app.inject({
    method: "POST",
    url: "/api/v1/exit/scan",
    headers: { authorization: `Device ${gateKey}` },
    payload: { token: code.json().token },
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toMatchObject({ gate_opened: true, status: "paid" });
}

describe("the exit gate", () => {
  it("marks gone the visit it opened for, not the shopper's earlier visit nor another shopper's charge under way", async () => {
    const other = await shopper(ctx.app);
    const charging = await shop(ctx.app, other, store, [[soap.barcode, 1]]);
    await ctx.app.db.execute(sql`update shopping_sessions set state = 'charging' where id = ${charging}`);

    const who = await shopper(ctx.app);
    const { visit: earlier } = await paidVisit(ctx.app, who, store, [[soap.barcode, 1]]);
    const visit = await shop(ctx.app, who, store, [[soap.barcode, 2]]);
    await throughGate(who);

    expect(await gone(visit)).toBe(true);
    expect(await gone(earlier)).toBe(false);
    expect(await gone(charging)).toBe(false);
  });
});
