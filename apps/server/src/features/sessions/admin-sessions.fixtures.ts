import { randomUUID } from "node:crypto";
import { gtinCheckDigit, type SessionDetail, type SessionRow } from "@glide/contracts";
import { afterAll, beforeAll, expect } from "vitest";
import { shopper as newShopper } from "../../test/factories.ts";
import { as, createDeviceKey, createTestContext, signIn, type TestContext } from "../../test/harness.ts";
import { type PaymentHarness, startPaymentHarness } from "../../test/payments.ts";

/**
 * What the console's Sessions tests share: two stores, their door and gate
 * keys, two products, the admins who look, and shoppers who walk in.
 */

export let ctx: TestContext;
export let pay: PaymentHarness;
export let platform: ReturnType<typeof as>;
export let storeAdmin: ReturnType<typeof as>;
export let storeAdminCookie: string;
export let platformCookie: string;
export let storeA: string;
export let storeB: string;
/** The door scanner key of each store. */
export const doorKeys: Record<string, string> = {};
export let gateKeyA: string;
/** Barcode of the juice the shoppers scan. */
export const juice = `731000000601${gtinCheckDigit("731000000601")}`;
/** Barcode of the bread the shoppers scan. */
export const bread = `731000000602${gtinCheckDigit("731000000602")}`;

/** A shopper with a card on file who walks into `storeId` through its door scanner. */
export async function shopper(name: string) {
  const { id: customerId, call } = await newShopper(ctx.app, { name });
  const issue = async (storeId: string) => {
    const entry = await call({ method: "POST", url: "/api/v1/sessions/entry", payload: { store_id: storeId } });
    expect(entry.statusCode, entry.body).toBe(200);
    return entry.json() as { session_id: string; session_token: string };
  };
  const enter = async (storeId: string) => {
    const { session_id, session_token } = await issue(storeId);
    const door = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/sessions/door/scan",
      headers: { authorization: `Device ${doorKeys[storeId]}` },
      payload: { session_id, session_token, store_id: storeId },
    });
    expect(door.statusCode, door.body).toBe(200);
    return session_id;
  };
  const scan = async (sessionId: string, barcode: string, scanId = randomUUID()) => {
    const res = await call({
      method: "POST",
      url: "/api/v1/cart/scan",
      payload: { session_id: sessionId, barcode, scan_id: scanId },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { item: { id: string; quantity: number } };
  };
  return { customerId, call, issue, enter, scan };
}

/** A visit's detail as the console reads it. */
export const detailOf = async (id: string, who = platform) => {
  const res = await who.get(`/api/v1/admin/sessions/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as SessionDetail;
};
/** The console's list of visits for a query, and its total. */
export const list = async (query: string, who = platform) => {
  const res = await who.get(`/api/v1/admin/sessions?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return { rows: res.json() as SessionRow[], total: Number(res.headers["x-total-count"]) };
};

/**
 * Starts the app with the payment simulator, two stores with door keys, two
 * products, and a platform and a store admin signed in, for the test file that
 * calls it.
 */
export function useSessionsConsole(): void {
  beforeAll(async () => {
    pay = await startPaymentHarness();
    ctx = await createTestContext({ STRIPE_SECRET_KEY: pay.simulator.secretKey, STRIPE_API_BASE: pay.apiBase });
    platformCookie = (await signIn(ctx.app)).cookie;
    platform = as(ctx.app, platformCookie);
    storeA = (await platform.post("/api/v1/stores/", { name: "Sessionsbutiken" })).json().id;
    storeB = (await platform.post("/api/v1/stores/", { name: "Grannbutiken" })).json().id;
    storeAdminCookie = (await signIn(ctx.app, "store_admin", [storeA])).cookie;
    storeAdmin = as(ctx.app, storeAdminCookie);
    doorKeys[storeA] = (await createDeviceKey(ctx.app, storeA, "door_scanner")).key;
    doorKeys[storeB] = (await createDeviceKey(ctx.app, storeB, "door_scanner")).key;
    gateKeyA = (await createDeviceKey(ctx.app, storeA, "exit_gate")).key;
    for (const [sku, name, price, barcode] of [
      ["ses-juice", "Apelsinjuice", 24.9, juice],
      ["ses-bread", "Surdegsbröd", 39.5, bread],
    ] as const) {
      const res = await platform.post("/api/v1/products/", { sku, name, price, barcode });
      expect(res.statusCode, res.body).toBe(201);
    }
  });
  afterAll(async () => {
    await ctx?.close();
    await pay?.close();
  });
}
