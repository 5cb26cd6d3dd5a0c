import { randomBytes } from "node:crypto";
import type { TestCard } from "./cards.ts";
import type { FormObject } from "./form.ts";

/** What the simulator keeps (shown in Stripe's JSON shape by render.ts). */

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export function newId(prefix: string, length = 24): string {
  const bytes = randomBytes(length);
  let out = "";
  for (const b of bytes) out += ALPHABET[b % ALPHABET.length];
  return `${prefix}_${out}`;
}

export type Metadata = Record<string, string>;

export type Customer = {
  id: string;
  created: number;
  email: string | null;
  name: string | null;
  description: string | null;
  metadata: Metadata;
  defaultPaymentMethod: string | null;
  deleted: boolean;
};

export type PaymentMethod = {
  id: string;
  created: number;
  card: TestCard;
  expMonth: number;
  expYear: number;
  cvcGiven: boolean;
  customer: string | null;
  /** Detached, or used once without a customer: Stripe refuses it from then on. */
  spent: boolean;
  billingName: string | null;
  metadata: Metadata;
};

type LastError = Record<string, unknown> | null;

export type SetupIntent = {
  id: string;
  created: number;
  customer: string | null;
  paymentMethod: string | null;
  status: "requires_payment_method" | "requires_confirmation" | "requires_action" | "succeeded" | "canceled";
  usage: "on_session" | "off_session";
  /** As the request allowed them; null when it named none. */
  allowedTypes: string[] | null;
  lastError: LastError;
  cancellationReason: string | null;
  description: string | null;
  metadata: Metadata;
};

export type PaymentIntent = {
  id: string;
  created: number;
  amount: number;
  currency: string;
  customer: string | null;
  paymentMethod: string | null;
  captureMethod: "automatic" | "automatic_async" | "manual";
  status:
    | "requires_payment_method"
    | "requires_confirmation"
    | "requires_action"
    | "requires_capture"
    | "succeeded"
    | "canceled";
  amountCapturable: number;
  amountReceived: number;
  latestCharge: string | null;
  lastError: LastError;
  canceledAt: number | null;
  cancellationReason: string | null;
  description: string | null;
  metadata: Metadata;
  /** As the request allowed them; null when it named none. */
  allowedTypes: string[] | null;
  /** The key of the request that made it, for the control API's counts. */
  idempotencyKey: string | null;
};

export type Charge = {
  id: string;
  created: number;
  amount: number;
  amountCaptured: number;
  amountRefunded: number;
  captured: boolean;
  currency: string;
  customer: string | null;
  paymentIntent: string;
  paymentMethod: string;
  status: "succeeded" | "failed";
  failureCode: string | null;
  declineCode: string | null;
  failureMessage: string | null;
  idempotencyKey: string | null;
};

export type Refund = {
  id: string;
  created: number;
  amount: number;
  charge: string;
  paymentIntent: string;
  currency: string;
  reason: string | null;
  metadata: Metadata;
  idempotencyKey: string | null;
};

export function createStore(now: () => number) {
  return {
    seconds: () => Math.floor(now() / 1000),
    customers: new Map<string, Customer>(),
    paymentMethods: new Map<string, PaymentMethod>(),
    setupIntents: new Map<string, SetupIntent>(),
    paymentIntents: new Map<string, PaymentIntent>(),
    charges: new Map<string, Charge>(),
    refunds: new Map<string, Refund>(),
  };
}
export type Store = ReturnType<typeof createStore>;

/** One API request as an endpoint sees it: the parameters, the id in its path, its idempotency key. */
export type Ctx = { store: Store; form: FormObject; id: string; idempotencyKey: string | null; now: () => number };
export type Reply = { status: number; body: Record<string, unknown> };
