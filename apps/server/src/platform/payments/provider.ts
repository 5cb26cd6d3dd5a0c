/**
 * The payment provider as the rest of the server sees it: a customer per
 * shopper, one saved card, and at the exit an authorisation that is later
 * captured at the final amount (or cancelled), refunds after that. Amounts
 * are öre (SEK minor units). Every call that moves money takes an
 * idempotency key the caller derives from its own ids: repeating a call with
 * the same key and the same input never moves money twice.
 *
 * Every operation answers a result, never throws for what the provider said
 * (a programming error, such as a negative amount, still throws):
 * - its success ("ok", "saved", "removed", "authorized", "captured", "canceled", "refunded");
 * - "declined": the card's issuer said no (Stripe's code and decline code);
 * - "requires_action": the shopper must take part (3-D Secure), so an off-session charge cannot go on;
 * - "unavailable": no answer, or no definite one (timeout, connection lost, the provider's own
 *   error, the same key still in progress). Money may or may not have moved: settle it later by
 *   repeating the call with the SAME key and the same input, never with a new key;
 * - "rejected": the provider refused the request as made (wrong state, more than is left, unknown id,
 *   bad credentials); nothing was done;
 * - "key_reused": the key was used before with other input. Something was done under it, so this
 *   is no proof that nothing was charged.
 */

/** What the provider keeps of a card: only these reach us. */
export type SavedCard = {
  paymentMethodId: string;
  /** As the provider names it: "visa", "mastercard", … */
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
};

export type Declined = {
  status: "declined";
  /** e.g. card_declined, expired_card. */
  code: string;
  /** The issuer's reason, e.g. generic_decline, insufficient_funds; null when none was given. */
  declineCode: string | null;
  message: string;
  /** The PaymentIntent or SetupIntent that was declined, when the provider made one. */
  intentId: string | null;
};
export type RequiresAction = { status: "requires_action"; code: string; message: string; intentId: string | null };
export type Unavailable = {
  status: "unavailable";
  reason: "timeout" | "network" | "provider_error" | "in_progress" | "rate_limited";
  message: string;
};
export type Rejected = { status: "rejected"; code: string; message: string };
export type KeyReused = { status: "key_reused"; message: string };
export type PaymentFailure = Declined | RequiresAction | Unavailable | Rejected | KeyReused;

export type Authorized = {
  status: "authorized";
  paymentIntentId: string;
  /** What may be captured. */
  amountOre: number;
  card: { brand: string; last4: string } | null;
  /**
   * The provider answered from its record of this key: the first answer again,
   * as it was then (a later capture or cancel does not show here).
   */
  replayed: boolean;
};
export type Captured = { status: "captured"; paymentIntentId: string; amountOre: number; replayed: boolean };
export type Canceled = { status: "canceled"; paymentIntentId: string };
export type Refunded = { status: "refunded"; refundId: string; amountOre: number; replayed: boolean };

export interface PaymentProvider {
  /**
   * The shopper's customer at the provider: `customerId` when it still exists,
   * else a new one carrying our shopper id in its metadata (`shopper_id`) and
   * nothing personal: the provider needs no name or e-mail to charge a card.
   */
  ensureCustomer(input: {
    shopperId: string;
    customerId?: string | null;
  }): Promise<{ status: "ok"; customerId: string; created: boolean } | PaymentFailure>;

  /**
   * Saves a card for payments without the shopper present (a SetupIntent,
   * confirmed now): `paymentMethodId` is what the card page produced, or a
   * test id such as pm_card_visa. The card it `replaces` is removed after
   * the new one is saved.
   */
  saveCard(input: {
    customerId: string;
    paymentMethodId: string;
    replaces?: string | null;
    idempotencyKey?: string;
  }): Promise<{ status: "saved"; card: SavedCard } | PaymentFailure>;

  /** Removes a saved card of this customer; a card that is already gone counts as removed. */
  removeCard(input: { customerId: string; paymentMethodId: string }): Promise<{ status: "removed" } | PaymentFailure>;

  /** Holds `amountOre` on the saved card without the shopper present (captured later). */
  authorize(input: {
    customerId: string;
    paymentMethodId: string;
    amountOre: number;
    /** ISO 4217, in either case ("SEK"): the store's currency; amountOre is in its minor unit. */
    currency: string;
    idempotencyKey: string;
    description?: string;
    metadata?: Record<string, string>;
  }): Promise<Authorized | PaymentFailure>;

  /** Takes the final amount (at most what was authorised); the rest of the hold is released. */
  capture(input: {
    paymentIntentId: string;
    amountOre: number;
    idempotencyKey: string;
  }): Promise<Captured | PaymentFailure>;

  /** Releases an authorisation that will not be captured. */
  cancel(input: { paymentIntentId: string; idempotencyKey: string }): Promise<Canceled | PaymentFailure>;

  /** Pays back part or all of a captured payment; never more than is left of it. */
  refund(input: {
    paymentIntentId: string;
    amountOre: number;
    idempotencyKey: string;
    reason?: "duplicate" | "fraudulent" | "requested_by_customer";
  }): Promise<Refunded | PaymentFailure>;
}
