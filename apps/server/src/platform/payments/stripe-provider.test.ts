import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PaymentHarness, startPaymentHarness } from "../../test/payments.ts";
import type { PaymentProvider } from "./provider.ts";

let h: PaymentHarness;
let provider: PaymentProvider;
beforeAll(async () => {
  h = await startPaymentHarness();
  provider = h.provider();
});
afterAll(() => h.close());

const key = () => `test:${randomUUID()}`;

describe("a customer per shopper", () => {
  it("is made once, with our shopper id in its metadata and nothing personal", async () => {
    const shopperId = randomUUID();
    const first = await provider.ensureCustomer({ shopperId });
    expect(first).toMatchObject({ status: "ok", created: true });
    if (first.status !== "ok") return;
    const again = await provider.ensureCustomer({ shopperId, customerId: first.customerId });
    expect(again).toEqual({ status: "ok", customerId: first.customerId, created: false });
    const found = await h.control<{ data: Array<{ id: string; email: string | null }> }>(
      `/customers?metadata[shopper_id]=${shopperId}`,
    );
    expect(found.data).toEqual([expect.objectContaining({ id: first.customerId, email: null })]);
  });

  it("is one customer when two requests of a new shopper ask at once", async () => {
    const shopperId = randomUUID();
    const both = await Promise.all([provider.ensureCustomer({ shopperId }), provider.ensureCustomer({ shopperId })]);
    const ids = both.map((r) => (r.status === "ok" ? r.customerId : r.status));
    expect(ids[0]).toMatch(/^cus_/);
    expect(ids[1]).toBe(ids[0]);
    const found = await h.control<{ count: number }>(`/customers?metadata[shopper_id]=${shopperId}`);
    expect(found.count).toBe(1);
  });

  it("is made anew when the one we knew was deleted at the provider", async () => {
    const shopperId = randomUUID();
    const first = await provider.ensureCustomer({ shopperId });
    if (first.status !== "ok") throw new Error(first.status);
    h.simulator.store.customers.get(first.customerId)!.deleted = true;
    const next = await provider.ensureCustomer({ shopperId, customerId: first.customerId });
    expect(next).toMatchObject({ status: "ok", created: true });
    expect(next.status === "ok" && next.customerId).not.toBe(first.customerId);
  });

  it("refuses an id that is no customer id without asking the provider", async () => {
    expect(await provider.ensureCustomer({ shopperId: "x", customerId: "../v1/charges" })).toMatchObject({
      status: "rejected",
      code: "invalid_id",
    });
  });
});

describe("the saved card", () => {
  it.each([
    ["pm_card_visa", "visa", "4242"],
    ["pm_card_mastercard", "mastercard", "4444"],
    ["pm_card_chargeDeclined", "visa", "0002"],
  ])("%s is saved and answers its brand and last four", async (pm, brand, last4) => {
    const customer = await provider.ensureCustomer({ shopperId: randomUUID() });
    if (customer.status !== "ok") throw new Error(customer.status);
    const saved = await provider.saveCard({ customerId: customer.customerId, paymentMethodId: pm });
    expect(saved).toMatchObject({ status: "saved", card: { brand, last4 } });
    if (saved.status !== "saved") return;
    // Like Stripe's test mode, a test id stands for a new PaymentMethod, now on this customer.
    expect(saved.card.paymentMethodId).toMatch(/^pm_(?!card_)/);
    expect(h.simulator.store.paymentMethods.get(saved.card.paymentMethodId)?.customer).toBe(customer.customerId);
  });

  it("replacing a card removes the old one only after the new one is on file", async () => {
    const { customerId, paymentMethodId: old } = await h.shopperWithCard("pm_card_visa");
    const refused = await provider.saveCard({
      customerId,
      paymentMethodId: "pm_card_chargeDeclinedExpiredCard",
      replaces: old,
    });
    expect(refused).toMatchObject({
      status: "declined",
      code: "expired_card",
      intentId: expect.stringMatching(/^seti_/),
    });
    expect(h.simulator.store.paymentMethods.get(old)?.customer).toBe(customerId);

    const saved = await provider.saveCard({ customerId, paymentMethodId: "pm_card_mastercard", replaces: old });
    expect(saved).toMatchObject({ status: "saved", card: { brand: "mastercard" } });
    expect(h.simulator.store.paymentMethods.get(old)?.customer).toBeNull();
  });

  it("a card that always asks for 3-D Secure needs the shopper's action", async () => {
    const customer = await provider.ensureCustomer({ shopperId: randomUUID() });
    if (customer.status !== "ok") throw new Error(customer.status);
    const saved = await provider.saveCard({
      customerId: customer.customerId,
      paymentMethodId: "pm_card_authenticationRequired",
    });
    expect(saved).toMatchObject({ status: "requires_action", intentId: expect.stringMatching(/^seti_/) });
  });

  it("another customer's card cannot be saved, an unknown one neither", async () => {
    const { paymentMethodId: theirs } = await h.shopperWithCard();
    const mine = await provider.ensureCustomer({ shopperId: randomUUID() });
    if (mine.status !== "ok") throw new Error(mine.status);
    expect(await provider.saveCard({ customerId: mine.customerId, paymentMethodId: theirs })).toMatchObject({
      status: "rejected",
    });
    expect(await provider.saveCard({ customerId: mine.customerId, paymentMethodId: "pm_nonexistent1" })).toMatchObject({
      status: "rejected",
      code: "resource_missing",
    });
    expect(await provider.saveCard({ customerId: mine.customerId, paymentMethodId: "4242424242424242" })).toMatchObject(
      { status: "rejected", code: "invalid_id" },
    );
  });

  it("is removed, a second removal is done too, and another customer's card is left alone", async () => {
    const { customerId, paymentMethodId } = await h.shopperWithCard();
    const other = await h.shopperWithCard();
    expect(await provider.removeCard({ customerId, paymentMethodId: other.paymentMethodId })).toMatchObject({
      status: "rejected",
      code: "not_this_customer",
    });
    expect(h.simulator.store.paymentMethods.get(other.paymentMethodId)?.customer).toBe(other.customerId);
    expect(await provider.removeCard({ customerId, paymentMethodId })).toEqual({ status: "removed" });
    expect(h.simulator.store.paymentMethods.get(paymentMethodId)?.customer).toBeNull();
    expect(await provider.removeCard({ customerId, paymentMethodId })).toEqual({ status: "removed" });
    // A removed card can no longer pay.
    const charge = await provider.authorize({
      customerId,
      paymentMethodId,
      amountOre: 1000,
      currency: "sek",
      idempotencyKey: key(),
    });
    expect(charge.status).toBe("rejected");
  });
});
