import { gtinCheckDigit } from "@glide/contracts";
import { expect } from "vitest";
import { shopper as newShopper, type TestShopper } from "../../test/factories.ts";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";
import { type PaymentHarness, startPaymentHarness } from "../../test/payments.ts";

/**
 * What the tests of the shopper's card and checkout routes share: one app per
 * test file (opened by `openCheckoutRouteTests`) paying at the payment
 * simulator, a store selling milk, and shoppers without a card.
 */
export let ctx: TestContext;
export let pay: PaymentHarness;
export let admin: ReturnType<typeof as>;
export let store: string;
/** The milk's barcode. */
export const milk = `731000000401${gtinCheckDigit("731000000401")}`;

/** An answer as the checks below read it. */
export type Reply = Awaited<ReturnType<TestContext["app"]["inject"]>>;

/** A shopper of their own, with no card on file yet. */
export const shopper = (): Promise<TestShopper> =>
  newShopper(ctx.app, { card: null, name: "Sam", birthDate: "1985-03-03" });

/** Saves the card `payment_method` through the API. */
export const saveCard = (who: TestShopper, payment_method: string) =>
  who.call({ method: "PUT", url: "/api/v1/payment-method", payload: { payment_method } });

/** Checks an answer's status and its whole `{ code, detail }` body. */
export function expectRefusal(res: Reply, status: number, code: string, detail: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toEqual({ code, detail });
}

/** The card the simulator's visa test card shows as. */
export const visa = { card: { brand: "visa", last4: "4242" } };

/** Opens this test file's app, the payment simulator, the store and its milk (its `beforeAll`). */
export async function openCheckoutRouteTests(): Promise<void> {
  pay = await startPaymentHarness();
  ctx = await createTestContext({ STRIPE_SECRET_KEY: pay.simulator.secretKey, STRIPE_API_BASE: pay.apiBase });
  admin = as(ctx.app, (await signIn(ctx.app)).cookie);
  store = (await admin.post("/api/v1/stores/", { name: "Hörnbutiken" })).json().id;
  const res = await admin.post("/api/v1/products/", { sku: "cr-milk", name: "Mjölk", price: 17.9, barcode: milk });
  expect(res.statusCode, res.body).toBe(201);
}

/** Closes the app and the simulator (its `afterAll`). */
export async function closeCheckoutRouteTests(): Promise<void> {
  await ctx?.close();
  await pay?.close();
}
