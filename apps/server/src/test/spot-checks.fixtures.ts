import { randomUUID } from "node:crypto";
import { spotCheckSchema } from "@glide/contracts";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { queryRows, sql } from "../db/client.ts";
import { signExitToken } from "../features/exit/exit-token.ts";
import { useSpotCheckRandom } from "../features/spot-checks/exit-draw.ts";
import { deriveKey } from "../platform/crypto.ts";
import { printedVoucher, product, SOLD_WHEN_FOOD_WAS_12, shop, shopper, type TestShopper } from "./factories.ts";
import { as, createDeviceKey, createTestContext, signIn, type TestContext } from "./harness.ts";
import { type PaymentHarness, startPaymentHarness } from "./payments.ts";

/**
 * What the spot check tests share: an app with the payment simulator behind
 * it, a store with an exit gate, shoppers who have been here before, a visit
 * the gate picked for a check, and the decision staff send.
 */

export let ctx: TestContext;
export let pay: PaymentHarness;
export let admin: ReturnType<typeof as>;
export let cookie: string;
export let adminId: string;
export let store: string;
export let otherStore: string;
export let gateKey: string;
export let soap: Awaited<ReturnType<typeof product>>;
/** How to put back the draw that flaggedVisit fixed; the hook does it after each test. */
let restoreRandom: (() => void) | null = null;
/** The app's secret key, so the tests can sign exit codes as the app does. */
export const SECRET = "b".repeat(64);

/** The store's share of exits that are checked. */
export const setShare = async (share: number) => {
  const res = await admin.put(`/api/v1/settings/stores/${store}`, { settings: { store: { spot_check_share: share } } });
  expect(res.statusCode, res.body).toBe(200);
};

/** Out through the gate with the exit code, as the gate would read it. */
export async function exit(_who: TestShopper, visit: string) {
  const { token } = signExitToken(deriveKey(SECRET, "exit-token"), { sessionId: visit, storeId: store });
  const res = await ctx.app.inject({
    method: "POST",
    url: "/api/v1/exit/scan",
    headers: { authorization: `Device ${gateKey}` },
    payload: { token },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { res, token };
}

/** How many spot checks a visit has. */
export const flagged = async (visit: string) =>
  (
    await queryRows<{ n: number }>(
      ctx.app.db,
      sql`select count(*)::int as n from spot_checks where session_id = ${visit}`,
    )
  )[0]!.n;

/** A shopper with one visit out through the gate already, so the next can be drawn. */
export async function returningShopper() {
  const who = await shopper(ctx.app);
  await exit(who, await shop(ctx.app, who, store, [[soap.barcode, 1]]));
  return who;
}

/** A visit the gate picked for a check, and that check as the console lists it. */
export async function flaggedVisit(units = 2, voucherKronor = 0) {
  restoreRandom = useSpotCheckRandom(() => 0);
  await setShare(0.2);
  const who = await returningShopper();
  const visit = await shop(ctx.app, who, store, [[soap.barcode, units]]);
  if (voucherKronor > 0) {
    // A pant machine's voucher pays part of the cart; the card pays the rest at the gate.
    const barcode = await printedVoucher(ctx.app, store, voucherKronor);
    const res = await who.call({
      method: "POST",
      url: "/api/v1/cart/vouchers",
      payload: { session_id: visit, barcode },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  await exit(who, visit);
  const list = (await admin.get(`/api/v1/admin/spot-checks?store_id=${store}&state=pending&limit=200`)).json();
  const check = spotCheckSchema.parse(list.find((c: { session_id: string }) => c.session_id === visit));
  return { who, visit, check };
}
/** Staff record a spot check's outcome. */
export const decide = (id: string, body: Record<string, unknown>, who = admin) =>
  who.put(`/api/v1/admin/spot-checks/${id}/outcome`, { idempotency_key: randomUUID(), ...body });

/** A check as the console lists it (every store, newest first). */
export async function checkOf(id: string) {
  const list = (await admin.get("/api/v1/admin/spot-checks?limit=200")).json() as Array<{ id: string }>;
  return spotCheckSchema.parse(list.find((c) => c.id === id));
}

/** An order's total and VAT in öre. */
export const orderOf = async (orderId: string) =>
  (
    await queryRows<{ total_ore: number; vat_ore: number }>(
      ctx.app.db,
      sql`select total_ore, vat_ore from orders where id = ${orderId}`,
    )
  )[0]!;

/**
 * Starts the app with the payment simulator, two stores, an exit gate key and
 * a product, and puts the draw back after each test, for the test file that
 * calls it.
 */
export function useSpotChecksApp(): void {
  beforeAll(async () => {
    pay = await startPaymentHarness();
    ctx = await createTestContext(
      { STRIPE_SECRET_KEY: pay.simulator.secretKey, STRIPE_API_BASE: pay.apiBase, SECRET_KEY: SECRET },
      // Items added at a check are worked out with food at 12 %, the rate at this moment.
      { saleClock: () => SOLD_WHEN_FOOD_WAS_12 },
    );
    const me = await signIn(ctx.app);
    cookie = me.cookie;
    adminId = me.id;
    admin = as(ctx.app, cookie);
    store = (await admin.post("/api/v1/stores/", { name: "Kollbutiken" })).json().id;
    otherStore = (await admin.post("/api/v1/stores/", { name: "Annan butik" })).json().id;
    gateKey = (await createDeviceKey(ctx.app, store, "exit_gate")).key;
    soap = await product(ctx.app, cookie, 24.5);
  });
  afterEach(() => restoreRandom?.());
  afterAll(async () => {
    await ctx?.close();
    await pay?.close();
  });
}
