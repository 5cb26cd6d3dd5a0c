import { randomUUID } from "node:crypto";
import { chargeWith, idempotencyKeyOf } from "../features/payments/charge.ts";
import type { PaymentProvider } from "../platform/payments/provider.ts";
import type { DemoHistory } from "./demo-history.ts";

/** Requests to the provider at once: enough to hide a loopback round trip, few enough for Stripe's test-mode rate limit. */
const WIDTH = 8;

/**
 * The demo's past made real at the payment provider (the payment simulator
 * under npm start), through the same port the live paths use: each shopper a
 * customer with a card saved (payment-method.service.ts), each order charged
 * as the checkout charges (chargeWith: authorised, then captured), each
 * refund asked as the console's refund asks it. The provider's ids replace
 * the plan's made-up ones, so staff can refund a seeded order afterwards.
 * Runs before the seed's transaction: no transaction waits on the provider.
 *
 * The plan's ids are the same on every fresh seed, and a provider (the
 * simulator with its state file, or Stripe for 24 hours) remembers keys: the
 * keys carry this seed's own nonce as well, so a seed after a database reset
 * is never taken for a repeat of the last one with other cards.
 */
export async function payDemoHistory(
  provider: PaymentProvider,
  history: DemoHistory,
  stores: { id: string; name: string; currency: string }[],
): Promise<void> {
  const seed = randomUUID();
  const fail = (what: string, answer: unknown) =>
    new Error(`Demo data: the payment provider refused ${what}: ${JSON.stringify(answer)}`);

  await inParallel(history.shoppers, async (shopper) => {
    const customer = await provider.ensureCustomer({ shopperId: shopper.id });
    if (customer.status !== "ok") throw fail(`a customer for shopper ${shopper.id}`, customer);
    // The test cards of the brands the plan drew (the simulator has no American Express: a Visa then).
    const card = shopper.card_brand === "mastercard" ? "pm_card_mastercard" : "pm_card_visa";
    const saved = await provider.saveCard({ customerId: customer.customerId, paymentMethodId: card });
    if (saved.status !== "saved") throw fail(`a card for shopper ${shopper.id}`, saved);
    shopper.payment_customer_id = customer.customerId;
    shopper.payment_method_id = saved.card.paymentMethodId;
    shopper.card_brand = saved.card.brand;
    shopper.card_last4 = saved.card.last4;
  });

  const charges = chargeWith(provider);
  await inParallel(
    history.visits.filter((v) => v.order),
    async (visit) => {
      const order = visit.order!;
      const shopper = history.shoppers[visit.shopper]!;
      const store = stores[visit.store]!;
      const paid = await charges.charge({
        customer: shopper.payment_customer_id,
        paymentMethod: shopper.payment_method_id,
        amountOre: order.totalOre,
        currency: store.currency,
        idempotencyKey: `demo-${seed}-${idempotencyKeyOf(visit.id, 1)}`,
        description: `${store.name}, besök ${visit.id}`,
        metadata: { order_id: order.id, session_id: visit.id, store_id: store.id },
      });
      if (paid.kind !== "paid") throw fail(`the payment of order ${order.id}`, paid);
      order.intentId = paid.intentId;
      const refund = order.refund;
      if (!refund) return;
      const refunded = await provider.refund({
        paymentIntentId: paid.intentId,
        amountOre: refund.amountOre,
        idempotencyKey: `demo-${seed}-refund-${refund.id}`,
        reason: "requested_by_customer",
      });
      if (refunded.status !== "refunded") throw fail(`refund ${refund.id}`, refunded);
      refund.providerId = refunded.refundId;
    },
  );
}

/** `work` for each item, `WIDTH` at a time; the first failure fails the whole and nothing more is begun. */
async function inParallel<T>(items: T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(WIDTH, items.length) }, async () => {
      try {
        while (next < items.length) await work(items[next++]!);
      } catch (err) {
        next = items.length;
        throw err;
      }
    }),
  );
}
