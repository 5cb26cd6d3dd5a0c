import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import { checkoutResponseSchema, gtinCheckDigit, type Receipt, receiptSchema } from "@glide/contracts";
import { sql } from "drizzle-orm";
import Fastify, { type InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/client.ts";
import { customers } from "../../db/schema/index.ts";
import { clearExpired } from "../../platform/housekeeping.ts";
import { createSmtpMailer } from "../../platform/mail.ts";
import { type SmtpSink, startSmtpSink } from "../../platform/mail-testing.ts";
import { type PaymentHarness, startPaymentHarness } from "../../platform/payments/testing.ts";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";
import { issueTokens } from "../shopper-auth/shopper-tokens.ts";
import { receiptMailExpiry } from "./receipt-mail.outbox.ts";
import {
  RECEIPT_MAIL_GIVE_UP_MS,
  retryDelayMs,
  sendDueReceiptMails,
  startReceiptMails,
} from "./receipt-mail.sender.ts";

/**
 * The receipt e-mail end to end: a checkout paid at the payment simulator,
 * and a real SMTP server on loopback that receives the mail and parses it.
 */

let ctx: TestContext;
let pay: PaymentHarness;
let sink: SmtpSink;
let smtpPort: number;
let store: string;
const milk = `731000000501${gtinCheckDigit("731000000501")}`;
const soap = `731000000502${gtinCheckDigit("731000000502")}`;
const FROM = "Hörnbutiken <kvitto@butik.example>";

type Reply = Awaited<ReturnType<TestContext["app"]["inject"]>>;
type Shopper = { id: string; call: (opts: Omit<InjectOptions, "headers">) => Promise<Reply> };

/** A signed-in shopper with a visa card on file, and the e-mail given through the API when `email` is set. */
async function shopper(email: string | null, on: TestContext = ctx): Promise<Shopper> {
  const tag = randomBytes(6).toString("hex");
  const [customer] = await on.app.db
    .insert(customers)
    .values({
      personalNumberHash: `rm-${tag}`,
      personalNumberSealed: `rm-${tag}`,
      name: "Sam",
      birthDate: "1985-03-03",
    })
    .returning();
  const { access_token } = await issueTokens(on.app.db, on.app.shopperKeys.jwt, customer!);
  const who: Shopper = {
    id: customer!.id,
    call: (opts) => on.app.inject({ ...opts, headers: { authorization: `Bearer ${access_token}` } } as InjectOptions),
  };
  const card = await who.call({
    method: "PUT",
    url: "/api/v1/payment-method",
    payload: { payment_method: "pm_card_visa" },
  });
  expect(card.statusCode, card.body).toBe(200);
  if (email) {
    const set = await who.call({ method: "PUT", url: "/api/v1/profile/email", payload: { email } });
    expect(set.statusCode, set.body).toBe(200);
  }
  return who;
}

/** Through the door with two milk (12 %) and one soap (25 %), then pay. */
async function buy(who: Shopper, on: { ctx: TestContext; store: string } = { ctx, store }): Promise<Receipt> {
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
async function receiptPage(who: Shopper, id: string): Promise<Receipt> {
  const res = await who.call({ method: "GET", url: `/api/v1/receipts/${id}` });
  expect(res.statusCode, res.body).toBe(200);
  return receiptSchema.parse(res.json());
}

type OutboxRow = { state: string; attempts: number; last_error: string | null; to_address: string; due_in_ms: number };
async function outbox(orderId: string): Promise<OutboxRow[]> {
  return queryRows<OutboxRow>(
    ctx.app.db,
    sql`select state, attempts, last_error, to_address,
          (extract(epoch from next_attempt_at - now()) * 1000)::int as due_in_ms
        from receipt_mails where order_id = ${orderId}`,
  );
}

/** Time passes: the row's backoff is over. */
const dueNow = (orderId: string) =>
  ctx.app.db.execute(sql`update receipt_mails set next_attempt_at = now() where order_id = ${orderId}`);

/** Runs the app's own sender now and waits for it. */
async function runSender(): Promise<void> {
  ctx.app.receiptMails.kick();
  await ctx.app.receiptMails.idle();
}

const stockholm = (iso: string) => new Date(iso).toLocaleString("sv-SE", { timeZone: "Europe/Stockholm" });

beforeAll(async () => {
  pay = await startPaymentHarness();
  sink = await startSmtpSink();
  smtpPort = Number(new URL(sink.url).port);
  ctx = await createTestContext({
    STRIPE_SECRET_KEY: pay.simulator.secretKey,
    STRIPE_API_BASE: pay.apiBase,
    SMTP_URL: sink.url,
    MAIL_FROM: FROM,
  });
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

describe("the receipt e-mail", () => {
  it("reaches the shopper's address after a paid checkout: subject, seller, time, lines, VAT, total, card", async () => {
    const before = sink.messages.length;
    const sam = await shopper("sam@example.se");
    const receipt = await buy(sam);
    const [mail] = (await sink.received(before + 1)).slice(before);

    expect(mail?.envelopeTo).toEqual(["sam@example.se"]);
    expect(mail?.from?.value).toEqual([{ name: "Hörnbutiken", address: "kvitto@butik.example" }]);
    expect(mail?.subject).toBe(`Kvitto från Hörnbutiken nr ${receipt.number}`);
    const text = mail?.text ?? "";
    for (const [label, amount] of [
      ["2 x Mjölk", "35,80 kr"],
      ["1 x Tvål", "34,50 kr"],
      ["Totalt", "70,30 kr"],
    ]) {
      expect(text).toMatch(new RegExp(`^${label} +${amount}$`, "m"));
    }
    // 35,80 kr at 12 %: 3,84 kr VAT on 31,96 kr; 34,50 kr at 25 %: 6,90 kr on 27,60 kr.
    expect(text).toContain("Moms 12 %: 3,84 kr (netto 31,96 kr, brutto 35,80 kr)");
    expect(text).toContain("Moms 25 %: 6,90 kr (netto 27,60 kr, brutto 34,50 kr)");
    expect(receipt.vat).toEqual([
      { rate: 0.25, amount: 6.9, net: 27.6, gross: 34.5 },
      { rate: 0.12, amount: 3.84, net: 31.96, gross: 35.8 },
    ]);
    for (const part of [
      "Hörnbutiken i Lund AB",
      "Org.nr 556036-0793",
      "Storgatan 1, 222 22 Lund",
      `Datum: ${stockholm(receipt.paid_at)}`,
      `Kvitto nr ${receipt.number}`,
      "Betalt med kort: Visa **** 4242",
    ]) {
      expect(text).toContain(part);
    }
    const html = mail?.html || "";
    for (const part of [
      "2 x Mjölk",
      "35,80 kr",
      "70,30 kr",
      "3,84 kr",
      "31,96 kr",
      "Org.nr 556036-0793",
      "Visa **** 4242",
    ]) {
      expect(html).toContain(part);
    }
    await ctx.app.receiptMails.idle();
    expect(await outbox(receipt.id)).toMatchObject([{ state: "sent", attempts: 1, last_error: null }]);
  });

  it("goes once: paying the same visit again answers the same receipt and sends nothing more", async () => {
    const sam = await shopper("once@example.se");
    const before = sink.messages.length;
    const receipt = await buy(sam);
    await sink.received(before + 1);
    const again = await sam.call({ method: "POST", url: "/api/v1/checkout", payload: { user_id: sam.id } });
    expect(again.json().receipt.id).toBe(receipt.id);
    await dueNow(receipt.id);
    await runSender();
    expect(sink.messages.length).toBe(before + 1);
    expect(await outbox(receipt.id)).toMatchObject([{ state: "sent", attempts: 1 }]);
  });

  it("is not sent when the shopper has given no e-mail, or has removed it", async () => {
    const before = sink.messages.length;
    const none = await buy(await shopper(null));
    const removed = await shopper("gone@example.se");
    const cleared = await removed.call({ method: "PUT", url: "/api/v1/profile/email", payload: { email: null } });
    expect(cleared.json()).toEqual({ name: "Sam", email: null });
    const afterRemoval = await buy(removed);
    await runSender();
    expect(await outbox(none.id)).toEqual([]);
    expect(await outbox(afterRemoval.id)).toEqual([]);
    expect(sink.messages.length).toBe(before);
  });

  it("the receipt says it was e-mailed when a mail was queued for it; not without an address, nor once given up", async () => {
    const sam = await shopper("told@example.se");
    const mailed = await buy(sam);
    expect(mailed.emailed).toBe(true);
    expect((await receiptPage(sam, mailed.id)).emailed).toBe(true);
    await ctx.app.receiptMails.idle();
    expect((await receiptPage(sam, mailed.id)).emailed).toBe(true);

    const quiet = await shopper(null);
    const unmailed = await buy(quiet);
    expect(unmailed.emailed).toBe(false);
    expect((await receiptPage(quiet, unmailed.id)).emailed).toBe(false);

    // A mail the server refused for good never reached the shopper: the receipt stops saying it did.
    sink.refuseWith(554);
    const refusedTo = await shopper("refused@example.se");
    let refused: Receipt;
    try {
      refused = await buy(refusedTo);
      await ctx.app.receiptMails.idle();
    } finally {
      sink.refuseWith(null);
    }
    expect(await outbox(refused.id)).toMatchObject([{ state: "failed" }]);
    expect((await receiptPage(refusedTo, refused.id)).emailed).toBe(false);
  });

  it("a slow SMTP server does not hold up the checkout: it answers while the mail is still in flight", async () => {
    const before = sink.messages.length;
    const sam = await shopper("slow@example.se");
    const held = sink.hold();
    let receipt: Receipt;
    try {
      receipt = await buy(sam);
      // The server has the whole message and has not answered yet: the checkout did not wait for it.
      await held.holding;
      expect(sink.messages.length).toBe(before);
      expect(await outbox(receipt.id)).toMatchObject([{ state: "pending", attempts: 1 }]);
    } finally {
      held.release();
    }
    await sink.received(before + 1);
    await ctx.app.receiptMails.idle();
    expect(await outbox(receipt.id)).toMatchObject([{ state: "sent" }]);
  });

  it("a server that answers 451: the checkout succeeds, the mail waits with backoff, and goes once it is accepted", async () => {
    const before = sink.messages.length;
    const sam = await shopper("later@example.se");
    sink.refuseWith(451);
    let receipt: Receipt;
    try {
      receipt = await buy(sam);
      await ctx.app.receiptMails.idle();
      const [row] = await outbox(receipt.id);
      expect(row).toMatchObject({ state: "pending", attempts: 1 });
      expect(row?.last_error).toContain("451");
      expect(row?.last_error).not.toContain("later@");
      // The next try waits out the backoff: a run now leaves it alone.
      expect(row?.due_in_ms).toBeGreaterThan(retryDelayMs(1) - 5000);
      await runSender();
      expect(await outbox(receipt.id)).toMatchObject([{ state: "pending", attempts: 1 }]);
    } finally {
      sink.refuseWith(null);
    }
    expect(sink.messages.length).toBe(before);

    await dueNow(receipt.id);
    await runSender();
    const [mail] = (await sink.received(before + 1)).slice(before);
    expect(mail?.subject).toBe(`Kvitto från Hörnbutiken nr ${receipt.number}`);
    expect(await outbox(receipt.id)).toMatchObject([{ state: "sent", attempts: 2, last_error: null }]);
    await dueNow(receipt.id);
    await runSender();
    expect(sink.messages.length).toBe(before + 1);
  });

  it("a server that is down: the checkout succeeds, and the mail goes when it is back at the same address", async () => {
    await sink.close();
    let receipt: Receipt;
    try {
      receipt = await buy(await shopper("down@example.se"));
      await ctx.app.receiptMails.idle();
      const [row] = await outbox(receipt.id);
      expect(row).toMatchObject({ state: "pending", attempts: 1 });
      expect(row?.last_error).toMatch(/ECONNREFUSED/);
      await dueNow(receipt.id);
      await runSender();
      expect(await outbox(receipt.id)).toMatchObject([{ state: "pending", attempts: 2 }]);
    } finally {
      sink = await startSmtpSink(smtpPort);
    }
    await dueNow(receipt.id);
    await runSender();
    const [mail] = await sink.received(1);
    expect(mail?.envelopeTo).toEqual(["down@example.se"]);
    expect(await outbox(receipt.id)).toMatchObject([{ state: "sent", attempts: 3 }]);
  });

  it("a refusal for good (554) is not tried again", async () => {
    const before = sink.messages.length;
    sink.refuseWith(554);
    let receipt: Receipt;
    try {
      receipt = await buy(await shopper("never@example.se"));
      await ctx.app.receiptMails.idle();
    } finally {
      sink.refuseWith(null);
    }
    expect(await outbox(receipt.id)).toMatchObject([{ state: "failed", attempts: 1 }]);
    await dueNow(receipt.id);
    await runSender();
    expect(await outbox(receipt.id)).toMatchObject([{ state: "failed", attempts: 1 }]);
    expect(sink.messages.length).toBe(before);
  });

  it("is given up after days without a server that takes it, and not before", async () => {
    const before = sink.messages.length;
    const sam = await shopper("old@example.se");
    sink.refuseWith(451);
    let receipt: Receipt;
    try {
      receipt = await buy(sam);
      await ctx.app.receiptMails.idle();
    } finally {
      sink.refuseWith(null);
    }
    const mailer = createSmtpMailer({ url: sink.url, from: FROM });
    // Runs with a clock days ahead; the row is not due on the real clock, so the app's own sender leaves it alone.
    const queued = Date.now();
    const at = (ms: number) => () => new Date(queued + ms);
    try {
      expect(await sendDueReceiptMails({ db: ctx.app.db, mailer, now: at(RECEIPT_MAIL_GIVE_UP_MS + 60_000) })).toEqual({
        sent: 0,
        retrying: 0,
        failed: 1,
      });
      const [given] = await outbox(receipt.id);
      expect(given).toMatchObject({ state: "failed", attempts: 1 });
      expect(given?.last_error).toMatch(/451.*given up/);

      await ctx.app.db.execute(sql`update receipt_mails set state = 'pending' where order_id = ${receipt.id}`);
      expect(await sendDueReceiptMails({ db: ctx.app.db, mailer, now: at(RECEIPT_MAIL_GIVE_UP_MS - 60_000) })).toEqual({
        sent: 1,
        retrying: 0,
        failed: 0,
      });
      await sink.received(before + 1);
      expect(await outbox(receipt.id)).toMatchObject([{ state: "sent", attempts: 2 }]);
    } finally {
      mailer.close();
    }
  });

  it("the outbox forgets the address a month after the mail was queued; the order stays", async () => {
    const kept = await buy(await shopper("kept@example.se"));
    const old = await buy(await shopper("old-copy@example.se"));
    await ctx.app.receiptMails.idle();
    await ctx.app.db.execute(
      sql`update receipt_mails set created_at = now() - interval '29 days' where order_id = ${kept.id}`,
    );
    await ctx.app.db.execute(
      sql`update receipt_mails set created_at = now() - interval '31 days' where order_id = ${old.id}`,
    );
    expect(await clearExpired(ctx.app.db, [receiptMailExpiry])).toEqual({ receipt_mails: 1 });
    expect(await outbox(old.id)).toEqual([]);
    expect(await outbox(kept.id)).toHaveLength(1);
    const orders = await queryRows<{ n: number }>(
      ctx.app.db,
      sql`select count(*)::int as n from orders where id = ${old.id} and state = 'paid'`,
    );
    expect(orders[0]?.n).toBe(1);
  });
});

describe("without SMTP_URL", () => {
  it("queues no receipt mail, and the receipt does not say it was e-mailed, even with an address on file", async () => {
    const bare = await createTestContext({ STRIPE_SECRET_KEY: pay.simulator.secretKey, STRIPE_API_BASE: pay.apiBase });
    try {
      const staff = as(bare.app, (await signIn(bare.app)).cookie);
      const shop = (await staff.post("/api/v1/stores/", { name: "Utan post" })).json().id as string;
      for (const [sku, name, price, vat_rate, barcode] of [
        ["rm-milk", "Mjölk", 17.9, 12, milk],
        ["rm-soap", "Tvål", 34.5, 25, soap],
      ] as const) {
        const res = await staff.post("/api/v1/products/", { sku, name, price, vat_rate, barcode });
        expect(res.statusCode, res.body).toBe(201);
      }
      const sam = await shopper("no-server@example.se", bare);
      const receipt = await buy(sam, { ctx: bare, store: shop });
      expect(receipt.emailed).toBe(false);
      expect((await receiptPage(sam, receipt.id)).emailed).toBe(false);
      const rows = await queryRows<{ n: number }>(
        bare.app.db,
        sql`select count(*)::int as n from receipt_mails where order_id = ${receipt.id}`,
      );
      expect(rows[0]?.n).toBe(0);
    } finally {
      await bare.close();
    }
  });

  it("sends nothing, and says so once in the log", async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const bare = Fastify({ logger: { level: "info", stream } });
    bare.decorate("db", ctx.app.db);
    startReceiptMails(bare, null);
    await bare.ready();
    for (let i = 0; i < 3; i++) bare.receiptMails.kick();
    await bare.receiptMails.idle();
    await bare.close();
    expect(lines.filter((line) => line.includes("SMTP_URL is not set"))).toHaveLength(1);
  });
});
