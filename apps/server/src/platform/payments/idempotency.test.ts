import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type PaymentHarness, startPaymentHarness } from "../../test/payments.ts";
import type { PaymentProvider } from "./provider.ts";

let h: PaymentHarness;
let provider: PaymentProvider;
beforeAll(async () => {
  h = await startPaymentHarness();
  provider = h.provider();
});
afterEach(() => h.control("/faults", {}));
afterAll(() => h.close());

const key = () => `session:${randomUUID()}`;
type Stats = { executions: number; replays: number; conflicts: number; mismatches: number; in_progress: boolean };
const stats = (k: string) => h.control<Stats>(`/idempotency?key=${encodeURIComponent(k)}`);

describe("one idempotency key, one charge", () => {
  it("the same key twice is one PaymentIntent, the second answer replayed", async () => {
    const { customerId, paymentMethodId } = await h.shopperWithCard();
    const k = key();
    const input = { customerId, paymentMethodId, amountOre: 2500, currency: "sek", idempotencyKey: k };
    const first = await provider.authorize(input);
    const second = await provider.authorize(input);
    expect(first).toMatchObject({ status: "authorized", replayed: false });
    expect(second).toMatchObject({ status: "authorized", replayed: true });
    expect(second.status === "authorized" && second.paymentIntentId).toBe(
      first.status === "authorized" && first.paymentIntentId,
    );
    expect(await h.intentsFor(k)).toHaveLength(1);
    expect(await stats(k)).toMatchObject({ executions: 1, replays: 1 });
  });

  it("two keys are two PaymentIntents (the other side of the rule)", async () => {
    const { customerId, paymentMethodId } = await h.shopperWithCard();
    const [a, b] = [key(), key()];
    const first = await provider.authorize({
      customerId,
      paymentMethodId,
      amountOre: 2500,
      currency: "sek",
      idempotencyKey: a,
    });
    const second = await provider.authorize({
      customerId,
      paymentMethodId,
      amountOre: 2500,
      currency: "sek",
      idempotencyKey: b,
    });
    expect(first.status === "authorized" && first.paymentIntentId).not.toBe(
      second.status === "authorized" && second.paymentIntentId,
    );
    expect([await h.intentsFor(a), await h.intentsFor(b)].map((l) => l.length)).toEqual([1, 1]);
  });

  it("the same key with another amount is refused, and charges nothing more", async () => {
    const { customerId, paymentMethodId } = await h.shopperWithCard();
    const k = key();
    await provider.authorize({ customerId, paymentMethodId, amountOre: 2500, currency: "sek", idempotencyKey: k });
    const other = await provider.authorize({
      customerId,
      paymentMethodId,
      amountOre: 2600,
      currency: "sek",
      idempotencyKey: k,
    });
    expect(other).toMatchObject({ status: "key_reused" });
    expect(await h.intentsFor(k)).toEqual([expect.objectContaining({ amount: 2500 })]);
    expect(await stats(k)).toMatchObject({ executions: 1, mismatches: 1 });
  });

  it("a key is bound to its endpoint: the authorisation's key cannot capture", async () => {
    const { customerId, paymentMethodId } = await h.shopperWithCard();
    const k = key();
    const auth = await provider.authorize({
      customerId,
      paymentMethodId,
      amountOre: 2500,
      currency: "sek",
      idempotencyKey: k,
    });
    if (auth.status !== "authorized") throw new Error(auth.status);
    const capture = await provider.capture({
      paymentIntentId: auth.paymentIntentId,
      amountOre: 2500,
      idempotencyKey: k,
    });
    expect(capture).toMatchObject({ status: "key_reused" });
    expect(h.simulator.store.paymentIntents.get(auth.paymentIntentId)?.status).toBe("requires_capture");
  });

  it("a decline is kept under its key: the repeat is the same declined PaymentIntent, not a second attempt", async () => {
    const { customerId, paymentMethodId } = await h.shopperWithCard("pm_card_chargeDeclined");
    const k = key();
    const input = { customerId, paymentMethodId, amountOre: 2500, currency: "sek", idempotencyKey: k };
    const [first, second] = [await provider.authorize(input), await provider.authorize(input)];
    expect(first).toMatchObject({ status: "declined", declineCode: "generic_decline" });
    expect(second).toEqual(first);
    const charges = await h.control<{ count: number }>(`/charges?idempotency_key=${encodeURIComponent(k)}`);
    expect(charges.count).toBe(1);
  });

  it("a request refused for its parameters keeps nothing: the key then works with corrected ones", async () => {
    const { customerId, paymentMethodId } = await h.shopperWithCard();
    const k = key();
    const small = await provider.authorize({
      customerId,
      paymentMethodId,
      amountOre: 100,
      currency: "sek",
      idempotencyKey: k,
    });
    expect(small).toMatchObject({ status: "rejected", code: "amount_too_small" });
    const fixed = await provider.authorize({
      customerId,
      paymentMethodId,
      amountOre: 300,
      currency: "sek",
      idempotencyKey: k,
    });
    expect(fixed).toMatchObject({ status: "authorized", replayed: false });
    expect(await h.intentsFor(k)).toHaveLength(1);
  });
});

describe("concurrent requests with one key", () => {
  it("50 at once make one PaymentIntent and all learn its id", async () => {
    const { customerId, paymentMethodId } = await h.shopperWithCard();
    const k = key();
    // The first holds the key for a while, so the others surely arrive while it runs.
    await h.control("/faults", { delay_ms: 300, times: 1, path: "/v1/payment_intents" });
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        provider.authorize({ customerId, paymentMethodId, amountOre: 7300, currency: "sek", idempotencyKey: k }),
      ),
    );
    const ids = new Set(answers.map((a) => (a.status === "authorized" ? a.paymentIntentId : a.status)));
    expect([...ids]).toEqual([expect.stringMatching(/^pi_/)]);
    expect(answers.filter((a) => a.status === "authorized" && !a.replayed)).toHaveLength(1);
    expect(await h.intentsFor(k)).toHaveLength(1);
    const s = await stats(k);
    expect(s.executions).toBe(1);
    // They did overlap: some were turned away while the first was running (and retried by the package).
    expect(s.conflicts).toBeGreaterThan(0);
  });

  it("without the package's retries, the others are told to come back, and nothing runs twice", async () => {
    const { customerId, paymentMethodId } = await h.shopperWithCard();
    const hasty = h.provider({ maxNetworkRetries: 0 });
    const k = key();
    await h.control("/faults", { delay_ms: 300, times: 1, path: "/v1/payment_intents" });
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        hasty.authorize({ customerId, paymentMethodId, amountOre: 7300, currency: "sek", idempotencyKey: k }),
      ),
    );
    const authorized = answers.filter((a) => a.status === "authorized");
    expect(authorized).toHaveLength(1);
    expect(answers.filter((a) => a.status === "unavailable" && a.reason === "in_progress")).toHaveLength(49);
    expect(await h.intentsFor(k)).toHaveLength(1);
    // Settled later with the same key: the same PaymentIntent.
    const later = await hasty.authorize({
      customerId,
      paymentMethodId,
      amountOre: 7300,
      currency: "sek",
      idempotencyKey: k,
    });
    expect(later).toMatchObject({ status: "authorized", replayed: true });
    expect(later.status === "authorized" && later.paymentIntentId).toBe(
      authorized[0]!.status === "authorized" && authorized[0]!.paymentIntentId,
    );
  });

  it("concurrent captures of one authorisation with one key capture once", async () => {
    const { customerId, paymentMethodId } = await h.shopperWithCard();
    const auth = await provider.authorize({
      customerId,
      paymentMethodId,
      amountOre: 5000,
      currency: "sek",
      idempotencyKey: key(),
    });
    if (auth.status !== "authorized") throw new Error(auth.status);
    const k = key();
    await h.control("/faults", { delay_ms: 200, times: 1, path: "/v1/payment_intents" });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        provider.capture({ paymentIntentId: auth.paymentIntentId, amountOre: 4000, idempotencyKey: k }),
      ),
    );
    expect(answers.every((a) => a.status === "captured" && a.amountOre === 4000)).toBe(true);
    expect(await stats(k)).toMatchObject({ executions: 1 });
    expect(h.simulator.store.paymentIntents.get(auth.paymentIntentId)?.amountReceived).toBe(4000);
  });
});
