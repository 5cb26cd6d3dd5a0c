import type { PaymentFailure, PaymentProvider } from "../../platform/payments/provider.ts";
import type { ChargeOutcome, ChargePort, ChargeRequest } from "./checkout.service.ts";

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
 * A checkout's charge on the payment provider: hold the amount on the saved
 * card, then capture it, each step under its own key derived from the
 * checkout's, so repeating the whole charge repeats neither.
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
