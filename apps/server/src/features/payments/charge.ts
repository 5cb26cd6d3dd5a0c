import type { FastifyInstance } from "fastify";
import { AppError } from "../../platform/errors.ts";
import type { PaymentFailure, PaymentProvider } from "../../platform/payments/provider.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** The payment provider, or null when none is configured (no STRIPE_SECRET_KEY). */
    payments: PaymentProvider | null;
  }
}

/** The app's payment provider; a store without one answers 503 in the shopper's words. */
export function paymentsOf(app: FastifyInstance): PaymentProvider {
  if (!app.payments)
    throw new AppError(503, "payments_not_configured", "Betalning är inte igång i den här butiken just nu.");
  return app.payments;
}

/**
 * One charge on the shopper's saved card, made exactly once by its key: a
 * checkout, a spot check's extra charge, a staff charge of an unpaid visit.
 */
export interface ChargeRequest {
  /** The provider's customer and the card on file. */
  customer: string;
  paymentMethod: string;
  amountOre: number;
  /** The store's currency as stored ("SEK"). */
  currency: string;
  /** The same key is the same charge, however often it is sent. */
  idempotencyKey: string;
  description: string;
  metadata: Record<string, string>;
}

/** What came of a charge: paid, a definite no, or no final answer yet. */
export type ChargeOutcome =
  | { kind: "paid"; intentId: string; brand: string | null; last4: string | null }
  | { kind: "declined"; code: string; intentId: string | null }
  /** No answer, or not a final one: the same key settles it later. */
  | { kind: "unavailable"; reason: string };

/** The charging side of the payment provider, as the money features use it (tests pass their own). */
export interface ChargePort {
  charge(request: ChargeRequest): Promise<ChargeOutcome>;
}

/** The key of a visit's charge attempt: the same attempt is the same charge at the provider. */
export const idempotencyKeyOf = (sessionId: string, attempt: number) => `checkout-${sessionId}-${attempt}`;

/** What a failure means for the visit: a definite no (a new try is a new charge), or unknown (same key later). */
function outcomeOf(failure: PaymentFailure, intentId: string | null = null): ChargeOutcome {
  switch (failure.status) {
    case "declined":
      return { kind: "declined", code: failure.declineCode ?? failure.code, intentId: failure.intentId ?? intentId };
    case "requires_action":
      // Nobody is at the card to confirm it: as good as a decline for an automatic payment.
      return { kind: "declined", code: failure.code, intentId: failure.intentId ?? intentId };
    case "rejected":
      // Refused as made and nothing done (a card removed meanwhile, say): the next try starts afresh.
      return { kind: "declined", code: failure.code, intentId };
    case "unavailable":
      return { kind: "unavailable", reason: failure.reason };
    case "key_reused":
      // Something was done under this key with other input: never guess; settle it with the same key.
      return { kind: "unavailable", reason: "key_reused" };
  }
}

/**
 * A charge on the payment provider: hold the amount on the saved card, then
 * capture it, each step under its own key derived from the charge's, so
 * repeating the whole charge repeats neither.
 */
export function chargeWith(provider: PaymentProvider): ChargePort {
  return {
    async charge(request: ChargeRequest): Promise<ChargeOutcome> {
      const held = await provider.authorize({
        customerId: request.customer,
        paymentMethodId: request.paymentMethod,
        amountOre: request.amountOre,
        currency: request.currency,
        idempotencyKey: `${request.idempotencyKey}-authorize`,
        description: request.description,
        metadata: request.metadata,
      });
      if (held.status !== "authorized") return outcomeOf(held);
      const captured = await provider.capture({
        paymentIntentId: held.paymentIntentId,
        amountOre: request.amountOre,
        idempotencyKey: `${request.idempotencyKey}-capture`,
      });
      if (captured.status !== "captured") return outcomeOf(captured, held.paymentIntentId);
      return {
        kind: "paid",
        intentId: held.paymentIntentId,
        brand: held.card?.brand ?? null,
        last4: held.card?.last4 ?? null,
      };
    },
  };
}
