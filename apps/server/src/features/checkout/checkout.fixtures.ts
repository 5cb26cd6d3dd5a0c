import { randomBytes } from "node:crypto";
import { gtinCheckDigit } from "@glide/contracts";
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import { queryRows } from "../../db/client.ts";
import { AppError } from "../../platform/errors.ts";
import { shopper as newShopper, SOLD_WHEN_FOOD_WAS_12 } from "../../test/factories.ts";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";
import { type PaymentHarness, startPaymentHarness } from "../../test/payments.ts";
import { type ChargePort, chargeWith } from "../payments/charge.ts";
import type { SessionChange } from "../sessions/session-events.ts";
import { checkout } from "./checkout.service.ts";

/**
 * What the tests of the checkout use case share: one app per test file
 * (opened by `openCheckoutTests`) with the payment simulator beside it, a
 * store with a full seller's address, products at each VAT rate, and
 * shoppers whose card is on file at the simulator.
 */
/** A barcode: the 12 digits given and their check digit. */
export const ean = (body12: string) => body12 + gtinCheckDigit(body12);

export let ctx: TestContext;
export let pay: PaymentHarness;
export let admin: ReturnType<typeof as>;
export let store: string;
/** The products' barcodes: coffee at 25 %, bread at 12 %, paper at 6 %, and snus (age-limited). */
export const barcodes = {
  coffee: ean("731000000301"), // 25 %
  bread: ean("731000000302"), // 12 %
  paper: ean("731000000303"), // 6 %
  snus: ean("731000000304"),
};
/** The products' ids, by the same names. */
export const productIds: Record<string, string> = {};

/** A shopper as the use case is called for: their token and customer id. */
export type Shopper = { token: string; customerId: string };

/** A shopper born on `birthDate` with `card` on file at the simulator (null: none). */
export async function shopper(card: string | null = "pm_card_visa", birthDate = "1990-05-01"): Promise<Shopper> {
  const cardOnFile = card ? await pay.shopperWithCard(card) : undefined;
  const who = await newShopper(ctx.app, {
    card: null,
    name: "Alva Kund",
    birthDate,
    ...(cardOnFile ? { cardOnFile } : {}),
  });
  return { token: who.token, customerId: who.id };
}

/** A visit of `who` in `storeId`, through the door. */
export async function visit(who: Shopper, storeId = store): Promise<string> {
  const res = await ctx.app.inject({
    method: "POST",
    url: "/api/v1/sessions/entry",
    headers: { authorization: `Bearer ${who.token}` },
    payload: { store_id: storeId },
  });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().session_id as string;
  await ctx.app.db.execute(
    sql`update shopping_sessions set door_opened_at = now(), entry_used_at = now(), state = 'in_store' where id = ${id}`,
  );
  return id;
}

/** `times` scans of `barcode` into the visit's cart. */
export async function scan(who: Shopper, sessionId: string, barcode: string, times = 1) {
  for (let i = 0; i < times; i++) {
    const res = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/cart/scan",
      headers: { authorization: `Bearer ${who.token}` },
      payload: { session_id: sessionId, barcode },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
}

/** The checkout use case for `who`, charging at the simulator. */
export const run = (who: Shopper, opts: { timeoutMs?: number } = {}) =>
  checkout({
    db: ctx.app.db,
    payments: chargeWith(pay.provider({ timeoutMs: opts.timeoutMs ?? 5000, maxNetworkRetries: 0 })),
    customerId: who.customerId,
    // Bread is food: its receipts here are worked out at the 12 % of before 2026-04-01.
    now: () => SOLD_WHEN_FOOD_WAS_12,
  });

/** The AppError a call ends in. */
export async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

/** The visit's row: when it was checked out. */
export const sessionRow = async (id: string) =>
  (
    await queryRows<{ checked_out_at: Date | null }>(
      ctx.app.db,
      sql`select checked_out_at from shopping_sessions where id = ${id}`,
    )
  )[0]!;

/** Opens this test file's app, the payment simulator, the store and its products (its `beforeAll`). */
export async function openCheckoutTests(): Promise<void> {
  [ctx, pay] = await Promise.all([createTestContext(), startPaymentHarness()]);
  admin = as(ctx.app, (await signIn(ctx.app)).cookie);
  const created = await admin.post("/api/v1/stores/", {
    name: "Kassabutiken",
    legal_name: "Kassabutiken AB",
    organization_number: "556677-8899",
    address: "Kungsgatan 3",
    postal_code: "111 43",
    city: "Stockholm",
  });
  expect(created.statusCode, created.body).toBe(201);
  store = created.json().id;
  for (const [key, fields] of Object.entries({
    coffee: { name: "Kaffe", price: 59.9, vat_category: "standard" },
    bread: { name: "Limpa", price: 34.5, vat_category: "food" },
    paper: { name: "Dagstidning", price: 28, vat_category: "books_newspapers" },
    snus: { name: "Snus", price: 55, vat_category: "standard" },
  })) {
    const res = await admin.post("/api/v1/products/", {
      sku: `co-${key}-${randomBytes(3).toString("hex")}`,
      barcode: barcodes[key as keyof typeof barcodes],
      ...fields,
    });
    expect(res.statusCode, res.body).toBe(201);
    productIds[key] = res.json().id;
  }
}

/** Closes the app and the simulator (its `afterAll`). */
export async function closeCheckoutTests(): Promise<void> {
  await ctx?.close();
  await pay?.close();
}

/** The visit's timeline of payment, oldest first. */
export const paymentEvents = (sessionId: string) =>
  queryRows<{ kind: string; source: string; detail: Record<string, unknown> }>(
    ctx.app.db,
    sql`select kind, source, detail from session_events
        where session_id = ${sessionId} and kind in ('checkout', 'charged', 'charge_failed', 'unsettled') order by id`,
  );

/** A checkout that also keeps what it told the Sessions screens. */
export function runTold(who: Shopper, opts: { now?: () => Date; payments?: ChargePort; timeoutMs?: number } = {}) {
  const told: SessionChange[] = [];
  const answer = checkout({
    db: ctx.app.db,
    payments: opts.payments ?? chargeWith(pay.provider({ timeoutMs: opts.timeoutMs ?? 5000, maxNetworkRetries: 0 })),
    customerId: who.customerId,
    announce: async (change) => {
      told.push(change);
    },
    now: opts.now ?? (() => SOLD_WHEN_FOOD_WAS_12),
  });
  return { answer, told };
}

/** The real provider behind a port that counts the charges asked of it. */
export function countingPort() {
  const port = chargeWith(pay.provider({ timeoutMs: 5000, maxNetworkRetries: 0 }));
  const counted = { calls: 0 };
  const counting: ChargePort = {
    charge: (request) => {
      counted.calls++;
      return port.charge(request);
    },
  };
  return { port: counting, counted };
}

/** The visit's order, if it has one. */
export const orderOfVisit = async (sessionId: string) =>
  (
    await queryRows<{ id: string; state: string; attempt: number; vat_ore: number }>(
      ctx.app.db,
      sql`select id, state, attempt, vat_ore from orders where session_id = ${sessionId}`,
    )
  )[0];
