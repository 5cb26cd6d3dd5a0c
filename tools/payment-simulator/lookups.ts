import { cardByAlias, type TestCard } from "./cards.ts";
import { invalidParam, noSuch, refused } from "./errors.ts";
import { type Customer, newId, type PaymentMethod, type Store } from "./objects.ts";
import type { Params } from "./params.ts";

/** Objects named by parameters, and the rules more than one endpoint keeps. */

/** A live customer named by a parameter. */
export function customerParam(store: Store, id: string, param = "customer"): Customer {
  const c = store.customers.get(id);
  if (!c || c.deleted) throw noSuch("customer", id, param);
  return c;
}

/** A PaymentMethod id; a `pm_card_*` test id stands for a fresh PaymentMethod of that card, as in Stripe's test mode. */
export function paymentMethodParam(store: Store, id: string, param = "payment_method"): PaymentMethod {
  const test = cardByAlias(id);
  if (test) return newPaymentMethod(store, { card: test, expMonth: 12, expYear: currentYear(store) + 3, cvc: true });
  const pm = store.paymentMethods.get(id);
  if (!pm) throw noSuch("PaymentMethod", id, param);
  return pm;
}

const currentYear = (store: Store) => new Date(store.seconds() * 1000).getUTCFullYear();

export function newPaymentMethod(
  store: Store,
  p: { card: TestCard; expMonth: number; expYear: number; cvc: boolean; name?: string | null },
): PaymentMethod {
  const pm: PaymentMethod = {
    id: newId("pm"),
    created: store.seconds(),
    card: p.card,
    expMonth: p.expMonth,
    expYear: p.expYear,
    cvcGiven: p.cvc,
    customer: null,
    spent: false,
    billingName: p.name ?? null,
    metadata: {},
  };
  store.paymentMethods.set(pm.id, pm);
  return pm;
}

/** Attaching: once per customer; a detached or once-used PaymentMethod is spent. */
export function attach(pm: PaymentMethod, customer: Customer) {
  if (pm.spent) {
    throw refused(
      "This PaymentMethod was detached from a Customer or used once without one, and cannot be used again.",
      { param: "payment_method" },
    );
  }
  if (pm.customer && pm.customer !== customer.id) {
    throw refused("The payment method you provided has already been attached to a customer.", {
      param: "payment_method",
    });
  }
  pm.customer = customer.id;
}

/**
 * The payment method types an intent allows: `allowed_payment_method_types`
 * (this API version's name) or `payment_method_types` (older versions); null
 * when neither is given. Only cards are simulated.
 */
export function allowedTypes(p: Params): string[] | null {
  const given = p.strings("allowed_payment_method_types");
  const legacy = p.strings("payment_method_types");
  const types = given.length ? given : legacy;
  for (const t of types) {
    const param = given.length ? "allowed_payment_method_types" : "payment_method_types";
    if (t !== "card") throw invalidParam(`The payment method type "${t}" is not simulated.`, param);
  }
  return types.length ? types : null;
}

/**
 * Stripe's rule for intents confirmed on the server: without a list of
 * allowed payment method types, methods that redirect the customer might be
 * chosen, so a return_url is needed unless redirects are turned off.
 */
export function checkRedirectRule(p: Params, types: string[] | null, what: string) {
  if (!p.bool("confirm") || types || p.str("return_url")) return;
  const automatic = p.hash("automatic_payment_methods");
  if (automatic?.allow_redirects === "never") return;
  throw invalidParam(
    `This ${what} may use payment methods that redirect the customer, so confirming it needs a return_url. ` +
      "Give allowed_payment_method_types, or automatic_payment_methods[allow_redirects]=never, to use no such method.",
    "return_url",
  );
}
