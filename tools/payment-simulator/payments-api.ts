import { invalidParam, noSuch, refused } from "./errors.ts";
import { allowedTypes, checkRedirectRule, customerParam, paymentMethodParam } from "./lookups.ts";
import { type Charge, type Ctx, newId, type PaymentIntent, type Refund, type Reply, type Store } from "./objects.ts";
import { Params } from "./params.ts";
import { cardError, chargeJson, expand, paymentIntentJson, paymentMethodJson, refundJson } from "./render.ts";

/** PaymentIntents (authorise, capture, cancel), their charges, and refunds. */

const PI_EXPAND = ["customer", "payment_method", "latest_charge"];
const REFUND_EXPAND = ["charge", "payment_intent"];
const MAX_AMOUNT = 99_999_999;
/** Stripe's smallest charge per currency, in minor units (3 kr in Sweden). */
const MINIMUM: Record<string, number> = { sek: 300, nok: 300, dkk: 250, eur: 50, usd: 50, gbp: 30 };

const PI_PARAMS = [
  "amount",
  "currency",
  "customer",
  "payment_method",
  "capture_method",
  "confirm",
  "off_session",
  "metadata",
  "description",
  "allowed_payment_method_types",
  "payment_method_types",
  "automatic_payment_methods",
  "return_url",
  "statement_descriptor_suffix",
  "receipt_email",
];

function intent(store: Store, id: string, param = "id"): PaymentIntent {
  const pi = store.paymentIntents.get(id);
  if (!pi) throw noSuch("payment_intent", id, param);
  return pi;
}

export function createPaymentIntent(ctx: Ctx): Reply {
  const p = new Params(ctx.form, PI_PARAMS);
  const paths = p.expand(PI_EXPAND);
  const amount = p.int("amount", { min: 1, max: MAX_AMOUNT }, true)!;
  const currency = p.str("currency", true).toLowerCase();
  if (!/^[a-z]{3}$/.test(currency)) throw invalidParam(`Invalid currency: ${currency}`, "currency");
  const minimum = MINIMUM[currency] ?? 50;
  if (amount < minimum) {
    throw invalidParam(
      `Amount must be at least ${(minimum / 100).toFixed(2)} ${currency}`,
      "amount",
      "amount_too_small",
    );
  }
  const captureMethod = p.oneOf("capture_method", ["automatic", "automatic_async", "manual"] as const);
  const confirm = p.bool("confirm") ?? false;
  const offSessionValue = p.oneOf("off_session", ["true", "false", "one_off", "recurring"] as const);
  const offSession = offSessionValue !== undefined && offSessionValue !== "false";
  if (offSession && !confirm) throw invalidParam("off_session may be set only when confirm=true.", "off_session");
  const types = allowedTypes(p);
  checkRedirectRule(p, types, "PaymentIntent");
  const customerId = p.str("customer");
  const customer = customerId ? customerParam(ctx.store, customerId) : null;
  const pmId = p.str("payment_method");
  const pm = pmId ? paymentMethodParam(ctx.store, pmId) : null;
  const pi: PaymentIntent = {
    id: newId("pi"),
    created: ctx.store.seconds(),
    amount,
    currency,
    customer: customer?.id ?? null,
    paymentMethod: pm?.id ?? null,
    captureMethod: captureMethod ?? "automatic_async",
    status: pm ? "requires_confirmation" : "requires_payment_method",
    amountCapturable: 0,
    amountReceived: 0,
    latestCharge: null,
    lastError: null,
    canceledAt: null,
    cancellationReason: null,
    description: p.nullableStr("description") ?? null,
    metadata: p.metadata() ?? {},
    allowedTypes: types,
    idempotencyKey: ctx.idempotencyKey,
  };
  ctx.store.paymentIntents.set(pi.id, pi);
  if (confirm) confirmPayment(ctx, pi, offSession);
  return { status: 200, body: expand(ctx.store, paymentIntentJson(pi), paths) };
}

export function retrievePaymentIntent(ctx: Ctx): Reply {
  const paths = new Params(ctx.form, []).expand(PI_EXPAND);
  return { status: 200, body: expand(ctx.store, paymentIntentJson(intent(ctx.store, ctx.id)), paths) };
}

export function confirmPaymentIntent(ctx: Ctx): Reply {
  const p = new Params(ctx.form, ["payment_method", "off_session", "return_url"]);
  const paths = p.expand(PI_EXPAND);
  const offSession = p.oneOf("off_session", ["true", "false", "one_off", "recurring"] as const);
  const pi = intent(ctx.store, ctx.id);
  if (pi.status !== "requires_payment_method" && pi.status !== "requires_confirmation") {
    throw unexpectedState(pi, "confirmed", ["requires_payment_method", "requires_confirmation"]);
  }
  const pmId = p.str("payment_method");
  if (pmId) pi.paymentMethod = paymentMethodParam(ctx.store, pmId).id;
  confirmPayment(ctx, pi, offSession !== undefined && offSession !== "false");
  return { status: 200, body: expand(ctx.store, paymentIntentJson(pi), paths) };
}

const unexpectedState = (pi: PaymentIntent, done: string, allowed: string[]) =>
  refused(
    `This PaymentIntent could not be ${done} because it has a status of ${pi.status}. ` +
      `Only a PaymentIntent with one of these statuses may be ${done}: ${allowed.join(", ")}.`,
    { code: "payment_intent_unexpected_state", payment_intent: paymentIntentJson(pi) },
  );

/** Asks the card's issuer: a charge (approved or failed) is made for every attempt. */
function confirmPayment(ctx: Ctx, pi: PaymentIntent, offSession: boolean) {
  const store = ctx.store;
  if (!pi.paymentMethod) {
    throw refused("You cannot confirm this PaymentIntent because it's missing a payment method.", {
      code: "payment_intent_unexpected_state",
      payment_intent: paymentIntentJson(pi),
    });
  }
  const pm = paymentMethodParam(store, pi.paymentMethod);
  if (pm.spent) {
    throw refused(
      "This PaymentMethod was detached from a Customer or used once without one, and cannot be used again.",
      { param: "payment_method" },
    );
  }
  if (pm.customer && pm.customer !== pi.customer) {
    throw refused(`The PaymentMethod ${pm.id} belongs to another Customer than this PaymentIntent's.`, {
      param: "payment_method",
    });
  }
  if (!pm.customer) pm.spent = true;
  const card = pm.card.outcome;
  if (card.kind === "authenticate" && !offSession) {
    pi.status = "requires_action";
    return;
  }
  const decline =
    card.kind === "decline"
      ? { code: card.code, declineCode: card.declineCode, message: card.message }
      : card.kind === "authenticate"
        ? {
            code: "authentication_required",
            declineCode: "authentication_required",
            message: "Your card was declined. This transaction requires authentication.",
          }
        : null;
  const manual = pi.captureMethod === "manual";
  const charge: Charge = {
    id: newId("ch"),
    created: store.seconds(),
    amount: pi.amount,
    amountCaptured: decline || manual ? 0 : pi.amount,
    amountRefunded: 0,
    captured: !decline && !manual,
    currency: pi.currency,
    customer: pi.customer,
    paymentIntent: pi.id,
    paymentMethod: pm.id,
    status: decline ? "failed" : "succeeded",
    failureCode: decline?.code ?? null,
    declineCode: decline?.declineCode ?? null,
    failureMessage: decline?.message ?? null,
    idempotencyKey: ctx.idempotencyKey,
  };
  store.charges.set(charge.id, charge);
  pi.latestCharge = charge.id;
  if (decline) {
    pi.status = "requires_payment_method";
    pi.lastError = {
      type: "card_error",
      charge: charge.id,
      code: decline.code,
      decline_code: decline.declineCode,
      message: decline.message,
      payment_method: paymentMethodJson(pm),
    };
    throw cardError(decline, {
      charge: charge.id,
      payment_intent: paymentIntentJson(pi),
      payment_method: paymentMethodJson(pm),
    });
  }
  pi.lastError = null;
  pi.status = manual ? "requires_capture" : "succeeded";
  pi.amountCapturable = manual ? pi.amount : 0;
  pi.amountReceived = manual ? 0 : pi.amount;
}

export function capturePaymentIntent(ctx: Ctx): Reply {
  const p = new Params(ctx.form, ["amount_to_capture", "metadata", "statement_descriptor_suffix"]);
  const paths = p.expand(PI_EXPAND);
  const amount = p.int("amount_to_capture", { min: 1, max: MAX_AMOUNT });
  const metadata = p.metadata();
  const pi = intent(ctx.store, ctx.id);
  if (pi.status !== "requires_capture") throw unexpectedState(pi, "captured", ["requires_capture"]);
  const toCapture = amount ?? pi.amountCapturable;
  if (toCapture > pi.amountCapturable) {
    throw refused(
      `The amount to capture (${toCapture}) must be less than or equal to the amount capturable (${pi.amountCapturable}).`,
      { code: "amount_too_large", param: "amount_to_capture", payment_intent: paymentIntentJson(pi) },
    );
  }
  const charge = ctx.store.charges.get(pi.latestCharge!)!;
  charge.captured = true;
  charge.amountCaptured = toCapture;
  pi.status = "succeeded";
  pi.amountReceived = toCapture;
  pi.amountCapturable = 0;
  if (metadata) pi.metadata = { ...pi.metadata, ...metadata };
  return { status: 200, body: expand(ctx.store, paymentIntentJson(pi), paths) };
}

const CANCELABLE = ["requires_payment_method", "requires_capture", "requires_confirmation", "requires_action"];

export function cancelPaymentIntent(ctx: Ctx): Reply {
  const p = new Params(ctx.form, ["cancellation_reason"]);
  const paths = p.expand(PI_EXPAND);
  const reason = p.oneOf("cancellation_reason", [
    "abandoned",
    "duplicate",
    "fraudulent",
    "requested_by_customer",
  ] as const);
  const pi = intent(ctx.store, ctx.id);
  if (!CANCELABLE.includes(pi.status)) throw unexpectedState(pi, "canceled", CANCELABLE);
  // The hold on the card is released: nothing of an uncaptured charge is ever paid.
  pi.status = "canceled";
  pi.canceledAt = ctx.store.seconds();
  pi.cancellationReason = reason ?? null;
  pi.amountCapturable = 0;
  return { status: 200, body: expand(ctx.store, paymentIntentJson(pi), paths) };
}

export function retrieveCharge(ctx: Ctx): Reply {
  const paths = new Params(ctx.form, []).expand(["customer", "payment_intent"]);
  const ch = ctx.store.charges.get(ctx.id);
  if (!ch) throw noSuch("charge", ctx.id);
  const json = chargeJson(ch, ctx.store.paymentMethods.get(ch.paymentMethod));
  return { status: 200, body: expand(ctx.store, json, paths) };
}

/** Never more than was captured: each refund takes from what is left. */
export function createRefund(ctx: Ctx): Reply {
  const p = new Params(ctx.form, ["payment_intent", "charge", "amount", "reason", "metadata"]);
  const paths = p.expand(REFUND_EXPAND);
  const piId = p.str("payment_intent");
  const chargeId = p.str("charge");
  if (!piId === !chargeId) throw invalidParam("Give exactly one of payment_intent or charge.", "payment_intent");
  const amount = p.int("amount", { min: 1, max: MAX_AMOUNT });
  const reason = p.oneOf("reason", ["duplicate", "fraudulent", "requested_by_customer"] as const);
  const metadata = p.metadata() ?? {};
  let charge: Charge | undefined;
  if (piId) {
    const pi = intent(ctx.store, piId, "payment_intent");
    if (pi.status !== "succeeded")
      throw refused(`This PaymentIntent (${pi.id}) does not have a successful charge to refund.`);
    charge = ctx.store.charges.get(pi.latestCharge!);
  } else {
    charge = ctx.store.charges.get(chargeId!);
    if (!charge) throw noSuch("charge", chargeId!, "charge");
    if (charge.status !== "succeeded" || !charge.captured)
      throw refused(`Charge ${charge.id} has no captured amount to refund.`);
  }
  const ch = charge!;
  const left = ch.amountCaptured - ch.amountRefunded;
  if (left === 0) {
    throw refused(`Charge ${ch.id} has already been refunded.`, { code: "charge_already_refunded" });
  }
  const take = amount ?? left;
  if (take > left) {
    throw refused(`Refund amount (${take}) is greater than unrefunded amount on charge (${left}).`, {
      code: "amount_too_large",
      param: "amount",
    });
  }
  ch.amountRefunded += take;
  const refund: Refund = {
    id: newId("re"),
    created: ctx.store.seconds(),
    amount: take,
    charge: ch.id,
    paymentIntent: ch.paymentIntent,
    currency: ch.currency,
    reason: reason ?? null,
    metadata,
    idempotencyKey: ctx.idempotencyKey,
  };
  ctx.store.refunds.set(refund.id, refund);
  return { status: 200, body: expand(ctx.store, refundJson(refund), paths) };
}

export function retrieveRefund(ctx: Ctx): Reply {
  const paths = new Params(ctx.form, []).expand(REFUND_EXPAND);
  const re = ctx.store.refunds.get(ctx.id);
  if (!re) throw noSuch("refund", ctx.id);
  return { status: 200, body: expand(ctx.store, refundJson(re), paths) };
}
