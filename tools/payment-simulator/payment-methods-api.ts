import { cardByNumber, luhnValid } from "./cards.ts";
import { ApiError, invalidParam, missingParam, refused } from "./errors.ts";
import { attach, customerParam, newPaymentMethod, paymentMethodParam } from "./lookups.ts";
import type { Ctx, PaymentMethod, Reply, Store } from "./objects.ts";
import { Params } from "./params.ts";
import { cardError, expand, paymentMethodJson } from "./render.ts";

/** PaymentMethods: a card as typed, attached to a customer or detached for good. */

const PM_EXPAND = ["customer"];

/** Checks typed card details as Stripe does before it makes a PaymentMethod (card errors, 402). */
export function createCardPaymentMethod(
  store: Store,
  card: { number: string; expMonth: string; expYear: string; cvc: string; name?: string | null },
): PaymentMethod {
  const fail = (code: string, message: string, param: string) =>
    new ApiError(402, { type: "card_error", code, message, param }, false);
  const number = card.number.replace(/[\s-]/g, "");
  if (!luhnValid(number)) throw fail("incorrect_number", "Your card number is incorrect.", "card[number]");
  const test = cardByNumber(number);
  if (!test) {
    throw new ApiError(
      402,
      {
        type: "card_error",
        code: "card_declined",
        decline_code: "test_mode_live_card",
        message: "Your card was declined. This is a test environment, and the card is not one of its test cards.",
      },
      false,
    );
  }
  const month = /^\d{1,2}$/.test(card.expMonth) ? Number(card.expMonth) : Number.NaN;
  if (!(month >= 1 && month <= 12))
    throw fail("invalid_expiry_month", "Your card's expiration month is invalid.", "card[exp_month]");
  let year = /^\d{2}$|^\d{4}$/.test(card.expYear) ? Number(card.expYear) : Number.NaN;
  if (year < 100) year += 2000;
  const now = new Date(store.seconds() * 1000);
  const [y, m] = [now.getUTCFullYear(), now.getUTCMonth() + 1];
  if (!(year >= y && year <= y + 50))
    throw fail("invalid_expiry_year", "Your card's expiration year is invalid.", "card[exp_year]");
  if (year === y && month < m)
    throw fail("invalid_expiry_month", "Your card's expiration month is invalid.", "card[exp_month]");
  if (card.cvc !== "" && !/^\d{3,4}$/.test(card.cvc))
    throw fail("invalid_cvc", "Your card's security code is invalid.", "card[cvc]");
  return newPaymentMethod(store, { card: test, expMonth: month, expYear: year, cvc: card.cvc !== "", name: card.name });
}

export function createPaymentMethod(ctx: Ctx): Reply {
  const p = new Params(ctx.form, ["type", "card", "billing_details", "metadata"]);
  const paths = p.expand(PM_EXPAND);
  if (p.str("type", true) !== "card") throw invalidParam("Only card PaymentMethods are simulated.", "type");
  const card = p.hash("card");
  if (!card) throw missingParam("card");
  const field = (name: string, required: boolean) => {
    const v = card[name];
    if (v === undefined && required) throw missingParam(`card[${name}]`);
    if (v !== undefined && typeof v !== "string") throw invalidParam("Invalid string", `card[${name}]`);
    return v ?? "";
  };
  const billing = p.hash("billing_details");
  const name = typeof billing?.name === "string" ? billing.name : null;
  const pm = createCardPaymentMethod(ctx.store, {
    number: field("number", true),
    expMonth: field("exp_month", true),
    expYear: field("exp_year", true),
    cvc: field("cvc", false),
    name,
  });
  pm.metadata = p.metadata() ?? {};
  return { status: 200, body: expand(ctx.store, paymentMethodJson(pm), paths) };
}

export function retrievePaymentMethod(ctx: Ctx): Reply {
  const paths = new Params(ctx.form, []).expand(PM_EXPAND);
  const pm = paymentMethodParam(ctx.store, ctx.id, "id");
  return { status: 200, body: expand(ctx.store, paymentMethodJson(pm), paths) };
}

export function attachPaymentMethod(ctx: Ctx): Reply {
  const p = new Params(ctx.form, ["customer"]);
  const paths = p.expand(PM_EXPAND);
  const customer = customerParam(ctx.store, p.str("customer", true));
  const pm = paymentMethodParam(ctx.store, ctx.id, "id");
  const card = pm.card.outcome;
  if (card.kind === "decline" && card.atSetup) {
    throw cardError(
      { code: card.code, declineCode: card.declineCode, message: card.message },
      {
        payment_method: paymentMethodJson(pm),
      },
    );
  }
  attach(pm, customer);
  return { status: 200, body: expand(ctx.store, paymentMethodJson(pm), paths) };
}

export function detachPaymentMethod(ctx: Ctx): Reply {
  const paths = new Params(ctx.form, []).expand(PM_EXPAND);
  const pm = paymentMethodParam(ctx.store, ctx.id, "id");
  if (!pm.customer)
    throw refused("The payment method you provided is not attached to a customer so detachment is impossible.");
  const customer = ctx.store.customers.get(pm.customer);
  if (customer?.defaultPaymentMethod === pm.id) customer.defaultPaymentMethod = null;
  pm.customer = null;
  pm.spent = true;
  return { status: 200, body: expand(ctx.store, paymentMethodJson(pm), paths) };
}
