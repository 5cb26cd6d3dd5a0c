import { checkoutResponseSchema, gtinCheckDigit, type Receipt, receiptSchema } from "@glide/contracts";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect } from "vitest";
import { queryRows } from "../../db/client.ts";
import { SOLD_WHEN_FOOD_WAS_12, type TestShopper } from "../../test/factories.ts";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";
import { type PaymentHarness, startPaymentHarness } from "../../test/payments.ts";
import { type SmtpSink, startSmtpSink } from "../../test/smtp-sink.ts";

/**
 * What the receipt e-mail tests share: a checkout paid at the payment
 * simulator, and a real SMTP server on loopback that receives the mail and
 * parses it.
 */

export let ctx: TestContext;
export let pay: PaymentHarness;
export let sink: SmtpSink;
let smtpPort: number;
export let store: string;
/** Milk at 12 % VAT. */
export const milk = `731000000501${gtinCheckDigit("731000000501")}`;
/** Soap at 25 % VAT. */
export const soap = `731000000502${gtinCheckDigit("731000000502")}`;
/** The sender the app is told to write from. */
export const FROM = "Hörnbutiken <kvitto@butik.example>";

/** The SMTP server back up at the address it had, after a test closed it. */
export async function restartSink(): Promise<void> {
  sink = await startSmtpSink(smtpPort);
}

/** Through the door with two milk (12 %) and one soap (25 %), then pay. */
export async function buy(
  who: TestShopper,
  on: { ctx: TestContext; store: string } = { ctx, store },
): Promise<Receipt> {
  const entry = await who.call({ method: "POST", url: "/api/v1/sessions/entry", payload: { store_id: on.store } });
  const visit = entry.json().session_id as string;
  await on.ctx.app.db.execute(
    sql`update shopping_sessions set door_opened_at = now(), entry_used_at = now(), state = 'in_store' where id = ${visit}`,
  );
  for (const barcode of [milk, milk, soap]) {
    const res = await who.call({ method: "POST", url: "/api/v1/cart/scan", payload: { session_id: visit, barcode } });
    expect(res.statusCode, res.body).toBe(200);
  }
  const paid = await who.call({ method: "POST", url: "/api/v1/checkout", payload: { user_id: who.id } });
  expect(paid.statusCode, paid.body).toBe(200);
  return checkoutResponseSchema.parse(paid.json()).receipt!;
}

/** The receipt as the shopper's receipt page reads it later. */
export async function receiptPage(who: TestShopper, id: string): Promise<Receipt> {
  const res = await who.call({ method: "GET", url: `/api/v1/receipts/${id}` });
  expect(res.statusCode, res.body).toBe(200);
  return receiptSchema.parse(res.json());
}

export type OutboxRow = {
  state: string;
  attempts: number;
  last_error: string | null;
  to_address: string;
  due_in_ms: number;
};
/** The receipt mail rows of one order, and how long until each is due again. */
export async function outbox(orderId: string): Promise<OutboxRow[]> {
  return queryRows<OutboxRow>(
    ctx.app.db,
    sql`select state, attempts, last_error, to_address,
          (extract(epoch from next_attempt_at - now()) * 1000)::int as due_in_ms
        from receipt_mails where order_id = ${orderId}`,
  );
}

/** Time passes: the row's backoff is over. */
export const dueNow = (orderId: string) =>
  ctx.app.db.execute(sql`update receipt_mails set next_attempt_at = now() where order_id = ${orderId}`);

/** Runs the app's own sender now and waits for it. */
export async function runSender(): Promise<void> {
  ctx.app.receiptMails.kick();
  await ctx.app.receiptMails.idle();
}

/** A time as the receipt prints it, in Swedish time. */
export const stockholm = (iso: string) => new Date(iso).toLocaleString("sv-SE", { timeZone: "Europe/Stockholm" });

/**
 * Starts the payment simulator, an SMTP server and an app that sends through
 * it, with a store and two products, for the test file that calls it.
 */
export function useMailingApp(): void {
  beforeAll(async () => {
    pay = await startPaymentHarness();
    sink = await startSmtpSink();
    smtpPort = Number(new URL(sink.url).port);
    ctx = await createTestContext(
      { STRIPE_SECRET_KEY: pay.simulator.secretKey, STRIPE_API_BASE: pay.apiBase, SMTP_URL: sink.url, MAIL_FROM: FROM },
      // The receipts here are worked out with food at 12 %.
      { saleClock: () => SOLD_WHEN_FOOD_WAS_12 },
    );
    const admin = as(ctx.app, (await signIn(ctx.app)).cookie);
    const created = await admin.post("/api/v1/stores/", {
      name: "Hörnbutiken",
      legal_name: "Hörnbutiken i Lund AB",
      organization_number: "5560360793",
      address: "Storgatan 1",
      postal_code: "222 22",
      city: "Lund",
    });
    expect(created.statusCode, created.body).toBe(201);
    store = created.json().id;
    for (const [sku, name, price, vat_rate, barcode] of [
      ["rm-milk", "Mjölk", 17.9, 12, milk],
      ["rm-soap", "Tvål", 34.5, 25, soap],
    ] as const) {
      const res = await admin.post("/api/v1/products/", { sku, name, price, vat_rate, barcode });
      expect(res.statusCode, res.body).toBe(201);
    }
  });
  afterAll(async () => {
    await ctx?.close();
    await sink?.close();
    await pay?.close();
  });
}
