import { createHash } from "node:crypto";
import { ApiError } from "./errors.ts";
import type { Charge, Customer, PaymentIntent, PaymentMethod, Refund, SetupIntent, Store } from "./objects.ts";

/** Each object as Stripe's API shows it, `expand[]`, and card errors with what Stripe attaches to them. */

export type Json = Record<string, unknown>;

export function customerJson(c: Customer): Json {
  if (c.deleted) return { id: c.id, object: "customer", deleted: true };
  return {
    id: c.id,
    object: "customer",
    address: null,
    balance: 0,
    created: c.created,
    currency: null,
    default_source: null,
    delinquent: false,
    description: c.description,
    email: c.email,
    invoice_prefix: c.id.slice(4, 12).toUpperCase(),
    invoice_settings: {
      custom_fields: null,
      default_payment_method: c.defaultPaymentMethod,
      footer: null,
      rendering_options: null,
    },
    livemode: false,
    metadata: c.metadata,
    name: c.name,
    phone: null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: "none",
    test_clock: null,
  };
}

export function cardJson(pm: PaymentMethod): Json {
  return {
    brand: pm.card.brand,
    checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: pm.cvcGiven ? "pass" : null },
    country: "US",
    display_brand: pm.card.brand,
    exp_month: pm.expMonth,
    exp_year: pm.expYear,
    fingerprint: createHash("sha256").update(pm.card.number).digest("base64url").slice(0, 16),
    funding: "credit",
    generated_from: null,
    last4: pm.card.number.slice(-4),
    networks: { available: [pm.card.brand], preferred: null },
    regulated_status: "unregulated",
    three_d_secure_usage: { supported: true },
    wallet: null,
  };
}

export function paymentMethodJson(pm: PaymentMethod): Json {
  return {
    id: pm.id,
    object: "payment_method",
    allow_redisplay: "unspecified",
    billing_details: {
      address: { city: null, country: null, line1: null, line2: null, postal_code: null, state: null },
      email: null,
      name: pm.billingName,
      phone: null,
      tax_id: null,
    },
    card: cardJson(pm),
    created: pm.created,
    customer: pm.customer,
    livemode: false,
    metadata: pm.metadata,
    type: "card",
  };
}

export function setupIntentJson(si: SetupIntent): Json {
  return {
    id: si.id,
    object: "setup_intent",
    allowed_payment_method_types: si.allowedTypes,
    application: null,
    automatic_payment_methods: null,
    cancellation_reason: si.cancellationReason,
    client_secret: `${si.id}_secret_${si.id.slice(5, 17)}`,
    created: si.created,
    customer: si.customer,
    description: si.description,
    flow_directions: null,
    last_setup_error: si.lastError,
    latest_attempt: null,
    livemode: false,
    mandate: null,
    metadata: si.metadata,
    next_action: si.status === "requires_action" ? { type: "use_stripe_sdk", use_stripe_sdk: {} } : null,
    on_behalf_of: null,
    payment_method: si.paymentMethod,
    payment_method_options: { card: { mandate_options: null, network: null, request_three_d_secure: "automatic" } },
    payment_method_types: ["card"],
    single_use_mandate: null,
    status: si.status,
    usage: si.usage,
  };
}

export function paymentIntentJson(pi: PaymentIntent): Json {
  return {
    id: pi.id,
    object: "payment_intent",
    allowed_payment_method_types: pi.allowedTypes,
    amount: pi.amount,
    amount_capturable: pi.amountCapturable,
    amount_details: { tip: {} },
    amount_received: pi.amountReceived,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: pi.canceledAt,
    cancellation_reason: pi.cancellationReason,
    capture_method: pi.captureMethod,
    client_secret: `${pi.id}_secret_${pi.id.slice(3, 15)}`,
    confirmation_method: "automatic",
    created: pi.created,
    currency: pi.currency,
    customer: pi.customer,
    description: pi.description,
    excluded_payment_method_types: null,
    last_payment_error: pi.lastError,
    latest_charge: pi.latestCharge,
    livemode: false,
    metadata: pi.metadata,
    next_action: pi.status === "requires_action" ? { type: "use_stripe_sdk", use_stripe_sdk: {} } : null,
    on_behalf_of: null,
    payment_method: pi.paymentMethod,
    payment_method_options: {
      card: { installments: null, mandate_options: null, network: null, request_three_d_secure: "automatic" },
    },
    payment_method_types: ["card"],
    processing: null,
    receipt_email: null,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: pi.status,
    transfer_data: null,
    transfer_group: null,
  };
}

export function chargeJson(ch: Charge, pm: PaymentMethod | undefined): Json {
  const failed = ch.status === "failed";
  return {
    id: ch.id,
    object: "charge",
    amount: ch.amount,
    amount_captured: ch.amountCaptured,
    amount_refunded: ch.amountRefunded,
    balance_transaction: null,
    captured: ch.captured,
    created: ch.created,
    currency: ch.currency,
    customer: ch.customer,
    description: null,
    disputed: false,
    failure_code: ch.failureCode,
    failure_message: ch.failureMessage,
    livemode: false,
    metadata: {},
    outcome: {
      network_status: failed ? "declined_by_network" : "approved_by_network",
      reason: ch.declineCode,
      risk_level: "normal",
      seller_message: failed ? "The bank did not return any further details with this decline." : "Payment complete.",
      type: failed ? "issuer_declined" : "authorized",
    },
    paid: !failed,
    payment_intent: ch.paymentIntent,
    payment_method: ch.paymentMethod,
    payment_method_details: pm ? { card: cardJson(pm), type: "card" } : null,
    refunded: ch.amountCaptured > 0 && ch.amountRefunded === ch.amountCaptured,
    status: ch.status,
  };
}

export function refundJson(re: Refund): Json {
  return {
    id: re.id,
    object: "refund",
    amount: re.amount,
    balance_transaction: null,
    charge: re.charge,
    created: re.created,
    currency: re.currency,
    destination_details: { card: { type: "refund" }, type: "card" },
    metadata: re.metadata,
    payment_intent: re.paymentIntent,
    reason: re.reason,
    receipt_number: null,
    source_transfer_reversal: null,
    status: "succeeded",
    transfer_reversal: null,
  };
}

/** Any object by id, as its JSON (for `expand[]`). */
export function objectJson(store: Store, id: string): Json | null {
  const pm = (pmId: string) => store.paymentMethods.get(pmId);
  if (id.startsWith("cus_")) return mapJson(store.customers.get(id), customerJson);
  if (id.startsWith("pm_")) return mapJson(pm(id), paymentMethodJson);
  if (id.startsWith("seti_")) return mapJson(store.setupIntents.get(id), setupIntentJson);
  if (id.startsWith("pi_")) return mapJson(store.paymentIntents.get(id), paymentIntentJson);
  if (id.startsWith("ch_")) return mapJson(store.charges.get(id), (c) => chargeJson(c, pm(c.paymentMethod)));
  if (id.startsWith("re_")) return mapJson(store.refunds.get(id), refundJson);
  return null;
}
const mapJson = <T>(v: T | undefined, f: (v: T) => Json) => (v === undefined ? null : f(v));

/** Replaces ids named by dotted `expand[]` paths with their objects. */
export function expand(store: Store, json: Json, paths: string[]): Json {
  for (const path of paths) {
    const parts = path.split(".");
    let node: Json = json;
    for (let i = 0; i < parts.length; i++) {
      const key = parts[i]!;
      let value = node[key];
      if (typeof value === "string") {
        value = objectJson(store, value) ?? value;
        node[key] = value;
      }
      if (i < parts.length - 1) {
        if (!value || typeof value !== "object") break;
        node = value as Json;
      }
    }
  }
  return json;
}

/** A card error (402) with the objects Stripe attaches to it. */
export function cardError(
  fields: { code: string; declineCode: string | null; message: string },
  attach: Record<string, unknown>,
): ApiError {
  return new ApiError(
    402,
    {
      type: "card_error",
      code: fields.code,
      ...(fields.declineCode ? { decline_code: fields.declineCode } : {}),
      message: fields.message,
      ...attach,
    },
    true,
  );
}
