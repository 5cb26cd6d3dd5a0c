import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type PaymentHarness, startPaymentHarness } from "../../test/payments.ts";

let h: PaymentHarness;
beforeAll(async () => {
  h = await startPaymentHarness();
});
afterEach(() => h.control("/faults", {}));
afterAll(() => h.close());

const key = () => `session:${randomUUID()}`;
const inProgress = async (k: string) =>
  (await h.control<{ in_progress: boolean }>(`/idempotency?key=${encodeURIComponent(k)}`)).in_progress;
async function until(check: () => Promise<boolean>) {
  for (let i = 0; i < 100 && !(await check()); i++) await new Promise((r) => setTimeout(r, 50));
}

describe("a provider that answers too late", () => {
  it("is unavailable past the timeout; the same key later settles the one PaymentIntent it made", async () => {
    const { customerId, paymentMethodId } = await h.shopperWithCard();
    const provider = h.provider({ timeoutMs: 300, maxNetworkRetries: 0 });
    const k = key();
    const input = { customerId, paymentMethodId, amountOre: 9900, currency: "sek", idempotencyKey: k };
    await h.control("/faults", { delay_ms: 1500, times: 1, path: "/v1/payment_intents" });

    const late = await provider.authorize(input);
    expect(late).toMatchObject({ status: "unavailable", reason: "timeout" });
    // The provider is still at it: asking again now is turned away, and runs nothing.
    expect(await inProgress(k)).toBe(true);
    expect(await provider.authorize(input)).toMatchObject({ status: "unavailable", reason: "in_progress" });

    await until(async () => !(await inProgress(k)));
    const settled = await provider.authorize(input);
    expect(settled).toMatchObject({ status: "authorized", replayed: true, amountOre: 9900 });
    const intents = await h.intentsFor(k);
    expect(intents.map((i) => i.id)).toEqual([settled.status === "authorized" && settled.paymentIntentId]);
  });

  it("a slow answer within the timeout is simply the answer", async () => {
    const { customerId, paymentMethodId } = await h.shopperWithCard();
    const provider = h.provider({ timeoutMs: 2000, maxNetworkRetries: 0 });
    await h.control("/faults", { delay_ms: 300, times: 1, path: "/v1/payment_intents" });
    const result = await provider.authorize({
      customerId,
      paymentMethodId,
      amountOre: 9900,
      currency: "sek",
      idempotencyKey: key(),
    });
    expect(result).toMatchObject({ status: "authorized", replayed: false });
  });

  it("a capture that timed out is settled with its key: captured once", async () => {
    const { customerId, paymentMethodId } = await h.shopperWithCard();
    const provider = h.provider({ timeoutMs: 300, maxNetworkRetries: 0 });
    const auth = await provider.authorize({
      customerId,
      paymentMethodId,
      amountOre: 5000,
      currency: "sek",
      idempotencyKey: key(),
    });
    if (auth.status !== "authorized") throw new Error(auth.status);
    const k = key();
    await h.control("/faults", { delay_ms: 1000, times: 1, path: "/v1/payment_intents" });
    const input = { paymentIntentId: auth.paymentIntentId, amountOre: 4500, idempotencyKey: k };
    expect(await provider.capture(input)).toMatchObject({ status: "unavailable", reason: "timeout" });
    await until(async () => !(await inProgress(k)));
    expect(await provider.capture(input)).toMatchObject({ status: "captured", amountOre: 4500, replayed: true });
    expect(h.simulator.store.paymentIntents.get(auth.paymentIntentId)?.amountReceived).toBe(4500);
  });
});

describe("a provider that drops the connection or fails", () => {
  it("one dropped connection is retried by the package with the same key: one PaymentIntent", async () => {
    const { customerId, paymentMethodId } = await h.shopperWithCard();
    const k = key();
    await h.control("/faults", { mode: "drop", times: 1, path: "/v1/payment_intents" });
    const result = await h
      .provider({ maxNetworkRetries: 0 })
      .authorize({ customerId, paymentMethodId, amountOre: 1200, currency: "sek", idempotencyKey: k });
    expect(result).toMatchObject({ status: "authorized", replayed: false });
    expect(await h.intentsFor(k)).toHaveLength(1);
  });

  it("connections dropped before the request runs: unavailable, and nothing was charged", async () => {
    const { customerId, paymentMethodId } = await h.shopperWithCard();
    const k = key();
    await h.control("/faults", { mode: "drop", path: "/v1/payment_intents" });
    const result = await h
      .provider()
      .authorize({ customerId, paymentMethodId, amountOre: 1200, currency: "sek", idempotencyKey: k });
    expect(result).toMatchObject({ status: "unavailable", reason: "network" });
    expect(await h.intentsFor(k)).toHaveLength(0);
  });

  it("answers lost after the charge: unavailable, one PaymentIntent, and the same key finds it", async () => {
    const { customerId, paymentMethodId } = await h.shopperWithCard();
    const k = key();
    const input = { customerId, paymentMethodId, amountOre: 1200, currency: "sek", idempotencyKey: k };
    await h.control("/faults", { mode: "drop_after", path: "/v1/payment_intents" });
    expect(await h.provider().authorize(input)).toMatchObject({ status: "unavailable", reason: "network" });
    const made = await h.intentsFor(k);
    expect(made).toHaveLength(1);

    await h.control("/faults", {});
    const settled = await h.provider().authorize(input);
    expect(settled).toMatchObject({ status: "authorized", replayed: true, paymentIntentId: made[0]!.id });
    expect(await h.intentsFor(k)).toHaveLength(1);
  });

  it("a 500 is retried by the package with the same key when retries are on, and unavailable when off", async () => {
    const { customerId, paymentMethodId } = await h.shopperWithCard();
    const [retried, once] = [key(), key()];
    await h.control("/faults", { mode: "error", times: 1, path: "/v1/payment_intents" });
    const withRetry = await h
      .provider({ maxNetworkRetries: 1 })
      .authorize({ customerId, paymentMethodId, amountOre: 1500, currency: "sek", idempotencyKey: retried });
    expect(withRetry).toMatchObject({ status: "authorized" });
    expect(await h.intentsFor(retried)).toHaveLength(1);

    await h.control("/faults", { mode: "error", times: 1, path: "/v1/payment_intents" });
    const input = { customerId, paymentMethodId, amountOre: 1500, currency: "sek", idempotencyKey: once };
    const noRetry = await h.provider({ maxNetworkRetries: 0 }).authorize(input);
    expect(noRetry).toMatchObject({ status: "unavailable", reason: "provider_error" });
    expect(await h.intentsFor(once)).toHaveLength(0);
    expect(await h.provider({ maxNetworkRetries: 0 }).authorize(input)).toMatchObject({ status: "authorized" });
  });

  it("faults reach only the paths they name", async () => {
    const { customerId, paymentMethodId } = await h.shopperWithCard();
    await h.control("/faults", { mode: "error", path: "/v1/refunds" });
    const result = await h
      .provider({ maxNetworkRetries: 0 })
      .authorize({ customerId, paymentMethodId, amountOre: 1500, currency: "sek", idempotencyKey: key() });
    expect(result.status).toBe("authorized");
  });

  it("a wrong secret key is rejected, not unavailable: nothing to settle later", async () => {
    const { customerId, paymentMethodId } = await h.shopperWithCard();
    const result = await h
      .provider({ secretKey: "sk_test_wrong" })
      .authorize({ customerId, paymentMethodId, amountOre: 1500, currency: "sek", idempotencyKey: key() });
    expect(result).toMatchObject({ status: "rejected", code: "authentication" });
  });
});
