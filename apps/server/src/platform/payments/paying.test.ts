import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PaymentHarness, startPaymentHarness } from "../../test/payments.ts";
import type { PaymentProvider } from "./provider.ts";

/** Paying at the exit with a saved card: authorise, capture, cancel, declines, refunds. */

let h: PaymentHarness;
let provider: PaymentProvider;
beforeAll(async () => {
  h = await startPaymentHarness();
  provider = h.provider();
});
afterAll(() => h.close());

const key = () => `test:${randomUUID()}`;

describe("paying at the exit", () => {
  it("authorises, then captures less than was held; the rest is released", async () => {
    const { customerId, paymentMethodId } = await h.shopperWithCard();
    const auth = await provider.authorize({
      currency: "sek",
      customerId,
      paymentMethodId,
      amountOre: 12_345,
      idempotencyKey: key(),
    });
    expect(auth).toMatchObject({
      status: "authorized",
      amountOre: 12_345,
      card: { brand: "visa", last4: "4242" },
      replayed: false,
    });
    if (auth.status !== "authorized") return;
    const pi = h.simulator.store.paymentIntents.get(auth.paymentIntentId)!;
    expect(pi).toMatchObject({
      captureMethod: "manual",
      status: "requires_capture",
      currency: "sek",
      customer: customerId,
    });

    const captured = await provider.capture({
      paymentIntentId: auth.paymentIntentId,
      amountOre: 12_000,
      idempotencyKey: key(),
    });
    expect(captured).toMatchObject({ status: "captured", amountOre: 12_000 });
    expect(pi).toMatchObject({ status: "succeeded", amountReceived: 12_000, amountCapturable: 0 });
  });

  it("captures the whole amount but not one öre more", async () => {
    const { customerId, paymentMethodId } = await h.shopperWithCard();
    const auth = await provider.authorize({
      currency: "sek",
      customerId,
      paymentMethodId,
      amountOre: 5000,
      idempotencyKey: key(),
    });
    if (auth.status !== "authorized") throw new Error(auth.status);
    const over = await provider.capture({
      paymentIntentId: auth.paymentIntentId,
      amountOre: 5001,
      idempotencyKey: key(),
    });
    expect(over).toMatchObject({ status: "rejected", code: "amount_too_large" });
    const all = await provider.capture({
      paymentIntentId: auth.paymentIntentId,
      amountOre: 5000,
      idempotencyKey: key(),
    });
    expect(all).toMatchObject({ status: "captured", amountOre: 5000 });
    // Captured once: another capture (with another key) is refused, the same key is the same capture.
    const twice = await provider.capture({
      paymentIntentId: auth.paymentIntentId,
      amountOre: 5000,
      idempotencyKey: key(),
    });
    expect(twice).toMatchObject({ status: "rejected", code: "payment_intent_unexpected_state" });
  });

  it("a capture repeated with its key is the same capture", async () => {
    const { customerId, paymentMethodId } = await h.shopperWithCard();
    const auth = await provider.authorize({
      currency: "sek",
      customerId,
      paymentMethodId,
      amountOre: 800,
      idempotencyKey: key(),
    });
    if (auth.status !== "authorized") throw new Error(auth.status);
    const k = key();
    const first = await provider.capture({ paymentIntentId: auth.paymentIntentId, amountOre: 700, idempotencyKey: k });
    const second = await provider.capture({ paymentIntentId: auth.paymentIntentId, amountOre: 700, idempotencyKey: k });
    expect(first).toMatchObject({ status: "captured", amountOre: 700, replayed: false });
    expect(second).toMatchObject({ status: "captured", amountOre: 700, replayed: true });
  });

  it("cancels an authorisation, which then cannot be captured", async () => {
    const { customerId, paymentMethodId } = await h.shopperWithCard();
    const auth = await provider.authorize({
      currency: "sek",
      customerId,
      paymentMethodId,
      amountOre: 900,
      idempotencyKey: key(),
    });
    if (auth.status !== "authorized") throw new Error(auth.status);
    expect(await provider.cancel({ paymentIntentId: auth.paymentIntentId, idempotencyKey: key() })).toEqual({
      status: "canceled",
      paymentIntentId: auth.paymentIntentId,
    });
    expect(
      await provider.capture({ paymentIntentId: auth.paymentIntentId, amountOre: 900, idempotencyKey: key() }),
    ).toMatchObject({ status: "rejected", code: "payment_intent_unexpected_state" });
  });

  it("refuses an amount below Stripe's smallest SEK charge (3 kr), and takes exactly that", async () => {
    const { customerId, paymentMethodId } = await h.shopperWithCard();
    const small = await provider.authorize({
      currency: "sek",
      customerId,
      paymentMethodId,
      amountOre: 299,
      idempotencyKey: key(),
    });
    expect(small).toMatchObject({ status: "rejected", code: "amount_too_small" });
    const least = await provider.authorize({
      currency: "sek",
      customerId,
      paymentMethodId,
      amountOre: 300,
      idempotencyKey: key(),
    });
    expect(least).toMatchObject({ status: "authorized", amountOre: 300 });
  });

  it("throws on amounts that are no whole positive öre (a bug of the caller, not an answer)", async () => {
    const { customerId, paymentMethodId } = await h.shopperWithCard();
    for (const amountOre of [0, -100, 10.5]) {
      await expect(
        provider.authorize({ currency: "sek", customerId, paymentMethodId, amountOre, idempotencyKey: key() }),
      ).rejects.toThrow(RangeError);
    }
  });
});

describe("declines", () => {
  it.each([
    ["pm_card_chargeDeclined", "card_declined", "generic_decline"],
    ["pm_card_chargeDeclinedInsufficientFunds", "card_declined", "insufficient_funds"],
  ])("%s is declined at the exit with Stripe's code", async (pm, code, declineCode) => {
    const { customerId, paymentMethodId } = await h.shopperWithCard(pm);
    const k = key();
    const result = await provider.authorize({
      currency: "sek",
      customerId,
      paymentMethodId,
      amountOre: 4200,
      idempotencyKey: k,
    });
    expect(result).toMatchObject({ status: "declined", code, declineCode, intentId: expect.stringMatching(/^pi_/) });
    const charges = await h.control<{ data: Array<{ status: string; decline_code: string }> }>(
      `/charges?idempotency_key=${encodeURIComponent(k)}`,
    );
    expect(charges.data).toEqual([expect.objectContaining({ status: "failed", decline_code: declineCode })]);
  });

  it("the same cards typed on the card page decline the same way", async () => {
    const customer = await provider.ensureCustomer({ shopperId: randomUUID() });
    if (customer.status !== "ok") throw new Error(customer.status);
    const pm = await cardFromPage("4000 0000 0000 9995");
    const saved = await provider.saveCard({ customerId: customer.customerId, paymentMethodId: pm });
    expect(saved).toMatchObject({ status: "saved", card: { brand: "visa", last4: "9995" } });
    if (saved.status !== "saved") return;
    const result = await provider.authorize({
      currency: "sek",
      customerId: customer.customerId,
      paymentMethodId: saved.card.paymentMethodId,
      amountOre: 4200,
      idempotencyKey: key(),
    });
    expect(result).toMatchObject({ status: "declined", declineCode: "insufficient_funds" });
  });

  it("the card that approves is not declined (the other side of the rule)", async () => {
    const pm = await cardFromPage("4242424242424242");
    const customer = await provider.ensureCustomer({ shopperId: randomUUID() });
    if (customer.status !== "ok") throw new Error(customer.status);
    const saved = await provider.saveCard({ customerId: customer.customerId, paymentMethodId: pm });
    if (saved.status !== "saved") throw new Error(saved.status);
    const result = await provider.authorize({
      currency: "sek",
      customerId: customer.customerId,
      paymentMethodId: saved.card.paymentMethodId,
      amountOre: 4200,
      idempotencyKey: key(),
    });
    expect(result.status).toBe("authorized");
  });

  it("a card asking for 3-D Secure cannot be charged with the shopper away: requires action", async () => {
    const customer = await provider.ensureCustomer({ shopperId: randomUUID() });
    if (customer.status !== "ok") throw new Error(customer.status);
    // A test id stands for a fresh, unsaved PaymentMethod of that card, which may pay once.
    const result = await provider.authorize({
      currency: "sek",
      customerId: customer.customerId,
      paymentMethodId: "pm_card_authenticationRequired",
      amountOre: 1000,
      idempotencyKey: key(),
    });
    expect(result).toMatchObject({ status: "requires_action", code: "authentication_required" });
  });
});

describe("refunds", () => {
  async function captured(amountOre: number) {
    const { customerId, paymentMethodId } = await h.shopperWithCard();
    const auth = await provider.authorize({
      currency: "sek",
      customerId,
      paymentMethodId,
      amountOre,
      idempotencyKey: key(),
    });
    if (auth.status !== "authorized") throw new Error(auth.status);
    const cap = await provider.capture({ paymentIntentId: auth.paymentIntentId, amountOre, idempotencyKey: key() });
    if (cap.status !== "captured") throw new Error(cap.status);
    return auth.paymentIntentId;
  }

  it("never pays back more than was captured, in parts or at once", async () => {
    const pi = await captured(10_000);
    expect(await provider.refund({ paymentIntentId: pi, amountOre: 10_001, idempotencyKey: key() })).toMatchObject({
      status: "rejected",
      code: "amount_too_large",
    });
    expect(await provider.refund({ paymentIntentId: pi, amountOre: 4000, idempotencyKey: key() })).toMatchObject({
      status: "refunded",
      amountOre: 4000,
    });
    expect(await provider.refund({ paymentIntentId: pi, amountOre: 6001, idempotencyKey: key() })).toMatchObject({
      status: "rejected",
      code: "amount_too_large",
    });
    expect(await provider.refund({ paymentIntentId: pi, amountOre: 6000, idempotencyKey: key() })).toMatchObject({
      status: "refunded",
      amountOre: 6000,
    });
    expect(await provider.refund({ paymentIntentId: pi, amountOre: 1, idempotencyKey: key() })).toMatchObject({
      status: "rejected",
      code: "charge_already_refunded",
    });
    const refunds = await h.control<{ data: Array<{ amount: number }> }>(`/refunds?payment_intent=${pi}`);
    expect(refunds.data.map((r) => r.amount).sort()).toEqual([4000, 6000]);
  });

  it("a refund repeated with its key pays back once", async () => {
    const pi = await captured(2000);
    const k = key();
    const first = await provider.refund({ paymentIntentId: pi, amountOre: 1500, idempotencyKey: k });
    const again = await provider.refund({ paymentIntentId: pi, amountOre: 1500, idempotencyKey: k });
    expect(first).toMatchObject({ status: "refunded", replayed: false });
    expect(again).toMatchObject({ status: "refunded", replayed: true });
    expect(again.status === "refunded" && first.status === "refunded" && again.refundId).toBe(
      first.status === "refunded" && first.refundId,
    );
    const refunds = await h.control<{ count: number }>(`/refunds?payment_intent=${pi}`);
    expect(refunds.count).toBe(1);
  });

  it("only what was captured can be refunded: not an authorisation that was only held", async () => {
    const { customerId, paymentMethodId } = await h.shopperWithCard();
    const auth = await provider.authorize({
      currency: "sek",
      customerId,
      paymentMethodId,
      amountOre: 1000,
      idempotencyKey: key(),
    });
    if (auth.status !== "authorized") throw new Error(auth.status);
    expect(
      await provider.refund({ paymentIntentId: auth.paymentIntentId, amountOre: 500, idempotencyKey: key() }),
    ).toMatchObject({ status: "rejected" });
  });
});

/** Types a card on the hosted card page and follows it back to the return address. */
async function cardFromPage(number: string): Promise<string> {
  const res = await fetch(`${h.cardPageUrl}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ number, exp: "12/39", cvc: "123", return_url: "http://shop.test/betalkort" }),
    redirect: "manual",
  });
  expect(res.status).toBe(303);
  const back = new URL(res.headers.get("location")!);
  return back.searchParams.get("payment_method")!;
}
