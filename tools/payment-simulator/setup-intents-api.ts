import { noSuch, refused } from "./errors.ts";
import { allowedTypes, attach, checkRedirectRule, customerParam, paymentMethodParam } from "./lookups.ts";
import { type Ctx, newId, type Reply, type SetupIntent, type Store } from "./objects.ts";
import { Params } from "./params.ts";
import { cardError, expand, paymentMethodJson, setupIntentJson } from "./render.ts";

/** SetupIntents: saving a card for payments without the shopper present. */

const SI_EXPAND = ["customer", "payment_method"];

const SI_PARAMS = [
  "customer",
  "payment_method",
  "confirm",
  "usage",
  "allowed_payment_method_types",
  "payment_method_types",
  "metadata",
  "description",
  "automatic_payment_methods",
  "return_url",
];

export function createSetupIntent(ctx: Ctx): Reply {
  const p = new Params(ctx.form, SI_PARAMS);
  const paths = p.expand(SI_EXPAND);
  const types = allowedTypes(p);
  checkRedirectRule(p, types, "SetupIntent");
  const usage = p.oneOf("usage", ["on_session", "off_session"] as const) ?? "off_session";
  const confirm = p.bool("confirm") ?? false;
  const customerId = p.str("customer");
  const customer = customerId ? customerParam(ctx.store, customerId) : null;
  const pmId = p.str("payment_method");
  const pm = pmId ? paymentMethodParam(ctx.store, pmId) : null;
  const si: SetupIntent = {
    id: newId("seti"),
    created: ctx.store.seconds(),
    customer: customer?.id ?? null,
    paymentMethod: pm?.id ?? null,
    status: pm ? "requires_confirmation" : "requires_payment_method",
    usage,
    allowedTypes: types,
    lastError: null,
    cancellationReason: null,
    description: p.nullableStr("description") ?? null,
    metadata: p.metadata() ?? {},
  };
  ctx.store.setupIntents.set(si.id, si);
  if (confirm) confirmSetup(ctx.store, si);
  return { status: 200, body: expand(ctx.store, setupIntentJson(si), paths) };
}

export function retrieveSetupIntent(ctx: Ctx): Reply {
  const paths = new Params(ctx.form, []).expand(SI_EXPAND);
  const si = ctx.store.setupIntents.get(ctx.id);
  if (!si) throw noSuch("setup_intent", ctx.id);
  return { status: 200, body: expand(ctx.store, setupIntentJson(si), paths) };
}

export function confirmSetupIntent(ctx: Ctx): Reply {
  const p = new Params(ctx.form, ["payment_method", "return_url"]);
  const paths = p.expand(SI_EXPAND);
  const si = ctx.store.setupIntents.get(ctx.id);
  if (!si) throw noSuch("setup_intent", ctx.id);
  if (si.status !== "requires_payment_method" && si.status !== "requires_confirmation") {
    throw refused(`You cannot confirm this SetupIntent because it has a status of ${si.status}.`, {
      code: "setup_intent_unexpected_state",
      setup_intent: setupIntentJson(si),
    });
  }
  const pmId = p.str("payment_method");
  if (pmId) si.paymentMethod = paymentMethodParam(ctx.store, pmId).id;
  confirmSetup(ctx.store, si);
  return { status: 200, body: expand(ctx.store, setupIntentJson(si), paths) };
}

export function cancelSetupIntent(ctx: Ctx): Reply {
  const p = new Params(ctx.form, ["cancellation_reason"]);
  const paths = p.expand(SI_EXPAND);
  const reason = p.oneOf("cancellation_reason", ["abandoned", "duplicate", "requested_by_customer"] as const);
  const si = ctx.store.setupIntents.get(ctx.id);
  if (!si) throw noSuch("setup_intent", ctx.id);
  if (si.status === "succeeded" || si.status === "canceled") {
    throw refused(`You cannot cancel this SetupIntent because it has a status of ${si.status}.`, {
      code: "setup_intent_unexpected_state",
      setup_intent: setupIntentJson(si),
    });
  }
  si.status = "canceled";
  si.cancellationReason = reason ?? null;
  return { status: 200, body: expand(ctx.store, setupIntentJson(si), paths) };
}

/** Saving checks the card (never funds): a card refused at setup fails here, 3-D Secure asks for action. */
function confirmSetup(store: Store, si: SetupIntent) {
  if (!si.paymentMethod) {
    throw refused("You cannot confirm this SetupIntent because it's missing a payment method.", {
      code: "setup_intent_unexpected_state",
    });
  }
  const pm = paymentMethodParam(store, si.paymentMethod);
  const customer = si.customer ? customerParam(store, si.customer) : null;
  const card = pm.card.outcome;
  if (card.kind === "decline" && card.atSetup) {
    si.status = "requires_payment_method";
    si.lastError = {
      type: "card_error",
      code: card.code,
      decline_code: card.declineCode,
      message: card.message,
      payment_method: paymentMethodJson(pm),
    };
    si.paymentMethod = null;
    throw cardError(
      { code: card.code, declineCode: card.declineCode, message: card.message },
      { setup_intent: setupIntentJson(si), payment_method: paymentMethodJson(pm) },
    );
  }
  if (card.kind === "authenticate") {
    si.status = "requires_action";
    return;
  }
  if (customer) attach(pm, customer);
  si.status = "succeeded";
  si.lastError = null;
}
