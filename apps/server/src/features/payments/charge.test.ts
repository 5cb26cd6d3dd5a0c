import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type PaymentHarness, startPaymentHarness } from "../../test/payments.ts";
import { type ChargePort, type ChargeRequest, chargeWith } from "./charge.ts";

/**
 * One charge on a saved card, as the checkout, the spot checks and staff
 * make it: through the real `stripe` package against the payment simulator,
 * each of the provider's answers read as paid, a definite no, or no final
 * answer yet.
 */
let pay: PaymentHarness;
let port: ChargePort;

beforeAll(async () => {
  pay = await startPaymentHarness();
  port = chargeWith(pay.provider({ timeoutMs: 5000, maxNetworkRetries: 0 }));
});
afterEach(() => pay.control("/faults", {}));
afterAll(() => pay?.close());

/** A charge of `amountOre` on `card`: a card on file (saved with the customer), or a test card's id given as is. */
async function chargeOf(card: string, opts: { saved?: boolean; amountOre?: number } = {}): Promise<ChargeRequest> {
  const saved = opts.saved ?? true;
  const holder = saved ? await pay.shopperWithCard(card) : await customerOnly();
  return {
    customer: holder.customerId,
    paymentMethod: saved ? holder.paymentMethodId : card,
    amountOre: opts.amountOre ?? 12_345,
    currency: "SEK",
    idempotencyKey: `charge-test-${randomUUID()}`,
    description: "Kassabutiken, besök",
    metadata: { order_id: randomUUID() },
  };
}

async function customerOnly() {
  const customer = await pay.provider().ensureCustomer({ shopperId: randomUUID() });
  if (customer.status !== "ok") throw new Error(JSON.stringify(customer));
  return { customerId: customer.customerId, paymentMethodId: "" };
}

/** The one PaymentIntent made under a charge's key. */
async function intentOf(request: ChargeRequest) {
  const intents = await pay.intentsFor(`${request.idempotencyKey}-authorize`);
  expect(intents).toHaveLength(1);
  return intents[0]!;
}

describe("a charge on a saved card", () => {
  it("is paid: held, then captured at the amount, naming the card's brand and last four digits", async () => {
    for (const [card, brand, last4] of [
      ["pm_card_visa", "visa", "4242"],
      ["pm_card_mastercard", "mastercard", "4444"],
    ] as const) {
      const request = await chargeOf(card);
      const outcome = await port.charge(request);
      const intent = await intentOf(request);
      expect(outcome).toEqual({ kind: "paid", intentId: intent.id, brand, last4 });
      expect(intent).toMatchObject({ status: "succeeded", amount: 12_345, amount_received: 12_345 });
    }
  });

  it("asked again with its key is the same payment, not a second one", async () => {
    const request = await chargeOf("pm_card_visa");
    const first = await port.charge(request);
    const again = await port.charge(request);
    expect(again).toEqual(first);
    expect((await intentOf(request)).amount_received).toBe(12_345);
  });

  it.each([
    ["a generic decline", "pm_card_chargeCustomerFail", "generic_decline"],
    ["too little money on the card", "pm_card_chargeDeclinedInsufficientFunds", "insufficient_funds"],
  ])("is declined for %s, with the issuer's reason and the declined intent", async (_, card, code) => {
    const request = await chargeOf(card);
    const outcome = await port.charge(request);
    const intent = await intentOf(request);
    expect(outcome).toEqual({ kind: "declined", code, intentId: intent.id });
    expect(intent.amount_received).toBe(0);
  });

  it("is declined when the card wants the shopper to confirm it, as nobody is at the card", async () => {
    const request = await chargeOf("pm_card_authenticationRequired", { saved: false });
    const outcome = await port.charge(request);
    expect(outcome).toEqual({
      kind: "declined",
      code: "authentication_required",
      intentId: (await intentOf(request)).id,
    });
  });

  it("is declined, naming no intent, when the provider refuses it as made (a card that is not this customer's)", async () => {
    const other = await pay.shopperWithCard("pm_card_visa");
    const request = { ...(await chargeOf("pm_card_visa")), paymentMethod: other.paymentMethodId };
    expect(await port.charge(request)).toEqual({ kind: "declined", code: "invalid_request", intentId: null });
    for (const intent of await pay.intentsFor(`${request.idempotencyKey}-authorize`))
      expect(intent.amount_received).toBe(0);
  });

  it("is declined when the amount is below what the provider takes", async () => {
    const request = await chargeOf("pm_card_visa", { amountOre: 100 });
    expect(await port.charge(request)).toEqual({ kind: "declined", code: "amount_too_small", intentId: null });
  });

  it("has no final answer when its key was used with another amount: nothing is guessed, the key settles it", async () => {
    const request = await chargeOf("pm_card_visa");
    await port.charge(request);
    const changed = await port.charge({ ...request, amountOre: request.amountOre + 100 });
    expect(changed).toEqual({ kind: "unavailable", reason: "key_reused" });
    expect((await intentOf(request)).amount_received).toBe(12_345);
  });

  it("has no final answer when the provider does not answer the hold, and is made once when asked again", async () => {
    const request = await chargeOf("pm_card_visa");
    await pay.control("/faults", { mode: "error", times: 1, path: "/v1/payment_intents" });
    expect(await port.charge(request)).toEqual({ kind: "unavailable", reason: "provider_error" });
    expect(await port.charge(request)).toMatchObject({ kind: "paid" });
    expect((await intentOf(request)).amount_received).toBe(12_345);
  });

  it("has no final answer when the hold is made and its capture goes unanswered; asked again it captures that hold", async () => {
    const request = await chargeOf("pm_card_visa");
    // Only the capture (`/v1/payment_intents/{id}/capture`); the hold goes through.
    await pay.control("/faults", { mode: "error", times: 1, path: "/v1/payment_intents/" });
    expect(await port.charge(request)).toMatchObject({ kind: "unavailable" });
    const held = await intentOf(request);
    expect(held.amount_received).toBe(0);
    expect(await port.charge(request)).toEqual({ kind: "paid", intentId: held.id, brand: "visa", last4: "4242" });
    expect(await intentOf(request)).toMatchObject({ id: held.id, amount_received: 12_345 });
  });
});
