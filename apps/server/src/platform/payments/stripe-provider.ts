import Stripe from "stripe";
import type {
  Authorized,
  Canceled,
  Captured,
  PaymentFailure,
  PaymentProvider,
  Refunded,
  SavedCard,
} from "./provider.ts";

/** Stripe's API through the official `stripe` package; tests and the demo point it at the payment simulator. */
export type StripeProviderOptions = {
  secretKey: string;
  /** Scheme, host and port of the API (the simulator's); null means Stripe's own. */
  apiBase?: string | null;
  /** How long one request may take before it counts as unavailable. */
  timeoutMs?: number;
  /**
   * Retries the package makes itself on a lost connection, a 409 or a 5xx,
   * always with the same idempotency key.
   */
  maxNetworkRetries?: number;
};

const ids = {
  customer: /^cus_[A-Za-z0-9]+$/,
  paymentMethod: /^pm_[A-Za-z0-9_]+$/,
  paymentIntent: /^pi_[A-Za-z0-9_]+$/,
};

function wholeOre(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new RangeError(`amount must be whole öre above 0: ${amount}`);
}

const badId = (what: string, id: string): PaymentFailure => ({
  status: "rejected",
  code: "invalid_id",
  message: `Not a ${what} id: ${JSON.stringify(id.slice(0, 60))}`,
});

const replayed = (r: { lastResponse?: { headers?: Record<string, string> } }) =>
  r.lastResponse?.headers?.["idempotent-replayed"] === "true";

function cardOf(pm: string | Stripe.PaymentMethod | null): { brand: string; last4: string } | null {
  if (!pm || typeof pm === "string" || !pm.card) return null;
  return { brand: pm.card.brand, last4: pm.card.last4 };
}

/** What the provider said, as one of our outcomes; anything of unknown effect is "unavailable". */
export function paymentFailure(err: unknown): PaymentFailure {
  const E = Stripe.errors;
  if (!(err instanceof E.StripeError)) throw err;
  const message = err.message;
  if (err instanceof E.StripeCardError) {
    const intentId = err.payment_intent?.id ?? err.setup_intent?.id ?? null;
    if (err.code === "authentication_required") return { status: "requires_action", code: err.code, message, intentId };
    return {
      status: "declined",
      code: err.code ?? "card_declined",
      declineCode: err.decline_code ?? null,
      message,
      intentId,
    };
  }
  if (err instanceof E.StripeIdempotencyError) return { status: "key_reused", message };
  if (err instanceof E.StripeConnectionError) {
    const timedOut = (err.detail as { code?: string } | undefined)?.code === "ETIMEDOUT" || /timeout/i.test(message);
    return { status: "unavailable", reason: timedOut ? "timeout" : "network", message };
  }
  if (err instanceof E.StripeRateLimitError) return { status: "unavailable", reason: "rate_limited", message };
  if (err.statusCode === 409) return { status: "unavailable", reason: "in_progress", message };
  if (err instanceof E.StripeAuthenticationError) return { status: "rejected", code: "authentication", message };
  if (err instanceof E.StripePermissionError) return { status: "rejected", code: "permission", message };
  if (err instanceof E.StripeInvalidRequestError) {
    return { status: "rejected", code: err.code ?? "invalid_request", message };
  }
  return { status: "unavailable", reason: "provider_error", message };
}

const isMissing = (err: unknown) => err instanceof Stripe.errors.StripeError && err.code === "resource_missing";

async function attempt<T>(call: () => Promise<T | PaymentFailure>): Promise<T | PaymentFailure> {
  try {
    return await call();
  } catch (err) {
    return paymentFailure(err);
  }
}

export function createStripeProvider(opts: StripeProviderOptions): PaymentProvider {
  const base = opts.apiBase ? new URL(opts.apiBase) : null;
  const stripe = new Stripe(opts.secretKey, {
    ...(base && {
      host: base.hostname.replace(/^\[(.*)\]$/, "$1"),
      port: base.port || (base.protocol === "https:" ? 443 : 80),
      protocol: base.protocol === "https:" ? "https" : "http",
    }),
    timeout: opts.timeoutMs ?? 15_000,
    maxNetworkRetries: opts.maxNetworkRetries ?? 1,
    telemetry: false,
  });

  const provider: PaymentProvider = {
    async ensureCustomer({ shopperId, customerId }) {
      if (customerId && !ids.customer.test(customerId)) return badId("customer", customerId);
      return attempt(async () => {
        if (customerId) {
          try {
            const existing = await stripe.customers.retrieve(customerId);
            if (!existing.deleted) return { status: "ok" as const, customerId: existing.id, created: false };
          } catch (err) {
            if (!isMissing(err)) throw err;
          }
        }
        // Two requests making the shopper's first customer at once make one; after a deleted
        // customer the key names it, so the replay of the old creation is not taken for a new one.
        const key = customerId ? `customer:${shopperId}:after:${customerId}` : `customer:${shopperId}`;
        const customer = await stripe.customers.create(
          { metadata: { shopper_id: shopperId } },
          { idempotencyKey: key },
        );
        return { status: "ok" as const, customerId: customer.id, created: true };
      });
    },

    async saveCard({ customerId, paymentMethodId, replaces, idempotencyKey }) {
      if (!ids.customer.test(customerId)) return badId("customer", customerId);
      if (!ids.paymentMethod.test(paymentMethodId)) return badId("PaymentMethod", paymentMethodId);
      return attempt(async () => {
        const intent = await stripe.setupIntents.create(
          {
            customer: customerId,
            payment_method: paymentMethodId,
            confirm: true,
            usage: "off_session",
            allowed_payment_method_types: ["card"],
            expand: ["payment_method"],
          },
          idempotencyKey ? { idempotencyKey } : undefined,
        );
        if (intent.status === "requires_action") {
          return {
            status: "requires_action" as const,
            code: "authentication_required",
            message: "The card asks the shopper to authenticate before it can be saved.",
            intentId: intent.id,
          };
        }
        const pm = intent.payment_method;
        if (intent.status !== "succeeded" || !pm || typeof pm === "string" || !pm.card) {
          const e = intent.last_setup_error;
          return e
            ? {
                status: "declined" as const,
                code: e.code ?? "card_declined",
                declineCode: e.decline_code ?? null,
                message: e.message ?? "The card was not saved.",
                intentId: intent.id,
              }
            : {
                status: "unavailable" as const,
                reason: "provider_error" as const,
                message: `SetupIntent ${intent.status}`,
              };
        }
        const card: SavedCard = {
          paymentMethodId: pm.id,
          brand: pm.card.brand,
          last4: pm.card.last4,
          expMonth: pm.card.exp_month,
          expYear: pm.card.exp_year,
        };
        // The old card goes only once the new one is on file; if that fails it merely stays unused.
        if (replaces && replaces !== pm.id) await provider.removeCard({ customerId, paymentMethodId: replaces });
        return { status: "saved" as const, card };
      });
    },

    async removeCard({ customerId, paymentMethodId }) {
      if (!ids.paymentMethod.test(paymentMethodId)) return badId("PaymentMethod", paymentMethodId);
      return attempt(async () => {
        let pm: Stripe.PaymentMethod;
        try {
          pm = await stripe.paymentMethods.retrieve(paymentMethodId);
        } catch (err) {
          if (isMissing(err)) return { status: "removed" as const };
          throw err;
        }
        const owner = typeof pm.customer === "string" ? pm.customer : (pm.customer?.id ?? null);
        // Already detached: a repeated removal (say, after a lost answer) is done, not an error.
        if (!owner) return { status: "removed" as const };
        if (owner !== customerId) {
          return {
            status: "rejected" as const,
            code: "not_this_customer",
            message: "The card belongs to another customer.",
          };
        }
        await stripe.paymentMethods.detach(paymentMethodId);
        return { status: "removed" as const };
      });
    },

    async authorize({ customerId, paymentMethodId, amountOre, currency, idempotencyKey, description, metadata }) {
      wholeOre(amountOre);
      if (!ids.customer.test(customerId)) return badId("customer", customerId);
      if (!ids.paymentMethod.test(paymentMethodId)) return badId("PaymentMethod", paymentMethodId);
      return attempt<Authorized>(async () => {
        const pi = await stripe.paymentIntents.create(
          {
            amount: amountOre,
            currency: currency.toLowerCase(),
            customer: customerId,
            payment_method: paymentMethodId,
            allowed_payment_method_types: ["card"],
            capture_method: "manual",
            confirm: true,
            off_session: true,
            expand: ["payment_method"],
            ...(description ? { description } : {}),
            ...(metadata ? { metadata } : {}),
          },
          { idempotencyKey },
        );
        if (pi.status === "requires_capture") {
          return {
            status: "authorized",
            paymentIntentId: pi.id,
            amountOre: pi.amount_capturable,
            card: cardOf(pi.payment_method),
            replayed: replayed(pi),
          };
        }
        if (pi.status === "requires_action") {
          const message = "The card asks the shopper to authenticate this payment.";
          return { status: "requires_action", code: "authentication_required", message, intentId: pi.id };
        }
        const e = pi.last_payment_error;
        if (pi.status === "requires_payment_method" && e) {
          const message = e.message ?? "The card was declined.";
          const code = e.code ?? "card_declined";
          return { status: "declined", code, declineCode: e.decline_code ?? null, message, intentId: pi.id };
        }
        return { status: "unavailable", reason: "provider_error", message: `PaymentIntent ${pi.id} is ${pi.status}` };
      });
    },

    async capture({ paymentIntentId, amountOre, idempotencyKey }) {
      wholeOre(amountOre);
      if (!ids.paymentIntent.test(paymentIntentId)) return badId("PaymentIntent", paymentIntentId);
      return attempt<Captured>(async () => {
        const pi = await stripe.paymentIntents.capture(
          paymentIntentId,
          { amount_to_capture: amountOre },
          { idempotencyKey },
        );
        if (pi.status !== "succeeded") {
          const message = `PaymentIntent ${pi.id} is ${pi.status} after capture`;
          return { status: "unavailable", reason: "provider_error", message };
        }
        return { status: "captured", paymentIntentId: pi.id, amountOre: pi.amount_received, replayed: replayed(pi) };
      });
    },

    async cancel({ paymentIntentId, idempotencyKey }) {
      if (!ids.paymentIntent.test(paymentIntentId)) return badId("PaymentIntent", paymentIntentId);
      return attempt<Canceled>(async () => {
        const pi = await stripe.paymentIntents.cancel(paymentIntentId, {}, { idempotencyKey });
        return { status: "canceled", paymentIntentId: pi.id };
      });
    },

    async refund({ paymentIntentId, amountOre, idempotencyKey, reason }) {
      wholeOre(amountOre);
      if (!ids.paymentIntent.test(paymentIntentId)) return badId("PaymentIntent", paymentIntentId);
      return attempt<Refunded>(async () => {
        const refund = await stripe.refunds.create(
          { payment_intent: paymentIntentId, amount: amountOre, ...(reason ? { reason } : {}) },
          { idempotencyKey },
        );
        if (refund.status === "failed" || refund.status === "canceled") {
          const code = refund.failure_reason ?? `refund_${refund.status}`;
          return { status: "rejected", code, message: `Refund ${refund.id} ${refund.status}` };
        }
        return { status: "refunded", refundId: refund.id, amountOre: refund.amount, replayed: replayed(refund) };
      });
    },
  };
  return provider;
}
