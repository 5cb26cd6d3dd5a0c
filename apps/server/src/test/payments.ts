import { randomUUID } from "node:crypto";
import { createPaymentSimulator, type PaymentSimulator } from "../../../../tools/payment-simulator/simulator.ts";
import type { PaymentProvider } from "../platform/payments/provider.ts";
import { createStripeProvider, type StripeProviderOptions } from "../platform/payments/stripe-provider.ts";

/**
 * Tests of the payment provider: the payment simulator on a free loopback
 * port, the real `stripe` package pointed at it, and the simulator's control
 * API read over HTTP as any test would.
 */
export type PaymentHarness = {
  simulator: PaymentSimulator;
  apiBase: string;
  controlUrl: string;
  cardPageUrl: string;
  provider(opts?: Partial<StripeProviderOptions>): PaymentProvider;
  control<T = Record<string, unknown>>(path: string, body?: unknown): Promise<T>;
  /** PaymentIntents the simulator made under a key. */
  intentsFor(key: string): Promise<Array<{ id: string; status: string; amount: number; amount_received: number }>>;
  /** A customer with a visa card on file (or the card given). */
  shopperWithCard(paymentMethod?: string): Promise<{ customerId: string; paymentMethodId: string }>;
  close(): Promise<void>;
};

/** Starts the payment simulator on a free port; the app under test points STRIPE_API_BASE at `apiBase`. */
export async function startPaymentHarness(): Promise<PaymentHarness> {
  const simulator = createPaymentSimulator();
  const { apiBase, controlUrl, cardPageUrl } = await simulator.listen();
  const provider = (opts: Partial<StripeProviderOptions> = {}) =>
    createStripeProvider({ secretKey: simulator.secretKey, apiBase, timeoutMs: 5000, ...opts });
  const control = async <T>(path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${controlUrl}${path}`, {
      method: body === undefined ? "GET" : "POST",
      ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    });
    if (!res.ok) throw new Error(`control ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  const base = provider();
  return {
    simulator,
    apiBase,
    controlUrl,
    cardPageUrl,
    provider,
    control,
    async intentsFor(key) {
      const list = await control<{ data: Awaited<ReturnType<PaymentHarness["intentsFor"]>> }>(
        `/payment_intents?idempotency_key=${encodeURIComponent(key)}`,
      );
      return list.data;
    },
    async shopperWithCard(paymentMethod = "pm_card_visa") {
      const customer = await base.ensureCustomer({ shopperId: randomUUID() });
      if (customer.status !== "ok") throw new Error(`no customer: ${JSON.stringify(customer)}`);
      const saved = await base.saveCard({ customerId: customer.customerId, paymentMethodId: paymentMethod });
      if (saved.status !== "saved") throw new Error(`no card: ${JSON.stringify(saved)}`);
      return { customerId: customer.customerId, paymentMethodId: saved.card.paymentMethodId };
    },
    close: () => simulator.close(),
  };
}
