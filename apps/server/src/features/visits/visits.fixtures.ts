import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { queryRows } from "../../db/client.ts";
import { product, type TestShopper } from "../../test/factories.ts";
import { as, createDeviceKey, createTestContext, signIn, type TestContext } from "../../test/harness.ts";
import { type PaymentHarness, startPaymentHarness } from "../../test/payments.ts";
import { idempotencyKeyOf } from "../payments/charge.ts";

/**
 * What the visit tests share: an app with the payment simulator behind it,
 * two stores with door, gate and camera keys, and the steps a shopper takes
 * through them.
 */

export let ctx: TestContext;
export let pay: PaymentHarness;
export let admin: ReturnType<typeof as>;
export let storeA: string;
export let storeB: string;
export let doorA: string;
export let doorB: string;
export let gateA: string;
export let gateB: string;
export let workerA: string;
/** 27.90 kr: three of them are the finding's 83.70. */
export let tea: { id: string; barcode: string };
export let oats: { id: string; barcode: string };

export type Reply = Awaited<ReturnType<FastifyInstance["inject"]>>;
/** The status, code and detail of an answer. */
export const body = (res: Reply) => [res.statusCode, res.json().code, res.json().detail];

/** An entry code for the store, as the phone gets it. */
export async function entryCode(who: TestShopper, storeId: string) {
  const res = await who.call({ method: "POST", url: "/api/v1/sessions/entry", payload: { store_id: storeId } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { session_id: string; session_token: string; store_id: string };
}

/** The door scanner with `key` reading an entry code. */
export const door = (code: { session_id: string; session_token: string; store_id: string }, key: string) =>
  ctx.app.inject({
    method: "POST",
    url: "/api/v1/sessions/door/scan",
    headers: { authorization: `Device ${key}` },
    payload: code,
  });

/** Through the door of the store; returns the visit's id. */
export async function enter(who: TestShopper, storeId = storeA) {
  const code = await entryCode(who, storeId);
  expect((await door(code, storeId === storeA ? doorA : doorB)).statusCode).toBe(200);
  return code.session_id;
}

/** One scan in a visit. */
export const scan = (who: TestShopper, visit: string, barcode = tea.barcode) =>
  who.call({ method: "POST", url: "/api/v1/cart/scan", payload: { session_id: visit, barcode } });

/** The same barcode scanned `times` times. */
export async function scanned(who: TestShopper, visit: string, times: number, barcode = tea.barcode) {
  for (let i = 0; i < times; i++) expect((await scan(who, visit, barcode)).statusCode).toBe(200);
}

/** The gate with `gateKey` reading the shopper's exit code. */
export async function exitAt(who: TestShopper, gateKey: string) {
  const code = await who.call({ method: "GET", url: "/api/v1/exit/token" });
  expect(code.statusCode, code.body).toBe(200);
  return ctx.app.inject({
    method: "POST",
    url: "/api/v1/exit/scan",
    headers: { authorization: `Device ${gateKey}` },
    payload: { token: code.json().token },
  });
}

/** The shopper pays. */
export const checkout = (who: TestShopper) =>
  who.call({ method: "POST", url: "/api/v1/checkout", payload: { user_id: who.id } });

/** The shopper's visits through the door, oldest first. */
export const visitsOf = (who: TestShopper) =>
  queryRows<{ id: string; store_id: string; state: string }>(
    ctx.app.db,
    sql`select id, store_id, state from shopping_sessions where customer_id = ${who.id} and door_opened_at is not null
        order by door_opened_at`,
  );

/** A visit's state. */
export const stateOf = async (visit: string) =>
  (await queryRows<{ state: string }>(ctx.app.db, sql`select state from shopping_sessions where id = ${visit}`))[0]!
    .state;

/** What the provider holds and captured for a visit's first charge. */
export const charged = async (visit: string, attempt = 1) =>
  (await pay.intentsFor(`${idempotencyKeyOf(visit, attempt)}-authorize`)).map((i) => [i.amount, i.amount_received]);

/**
 * Starts the app with the payment simulator, two stores with their device
 * keys, and two products, for the test file that calls it.
 */
export function useVisitsApp(): void {
  beforeAll(async () => {
    pay = await startPaymentHarness();
    ctx = await createTestContext({ STRIPE_SECRET_KEY: pay.simulator.secretKey, STRIPE_API_BASE: pay.apiBase });
    const cookie = (await signIn(ctx.app)).cookie;
    admin = as(ctx.app, cookie);
    storeA = (await admin.post("/api/v1/stores/", { name: "Butik A" })).json().id;
    storeB = (await admin.post("/api/v1/stores/", { name: "Butik B" })).json().id;
    [doorA, doorB, gateA, gateB, workerA] = (
      await Promise.all([
        createDeviceKey(ctx.app, storeA, "door_scanner"),
        createDeviceKey(ctx.app, storeB, "door_scanner"),
        createDeviceKey(ctx.app, storeA, "exit_gate"),
        createDeviceKey(ctx.app, storeB, "exit_gate"),
        createDeviceKey(ctx.app, storeA, "camera_worker"),
      ])
    ).map((k) => k.key) as [string, string, string, string, string];
    expect(
      (await admin.post(`/api/v1/stores/${storeA}/modules/ai_product_recognition`, { enabled: true })).statusCode,
    ).toBe(200);
    tea = await product(ctx.app, cookie, 27.9, 12);
    oats = await product(ctx.app, cookie, 24.9, 12);
  });
  afterEach(() => pay.control("/faults", {}));
  afterAll(async () => {
    await ctx?.close();
    await pay?.close();
  });
}
