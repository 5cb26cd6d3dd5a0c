import { Writable } from "node:stream";
import type { Receipt } from "@glide/contracts";
import { sql } from "drizzle-orm";
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { queryRows } from "../../db/client.ts";
import { SOLD_WHEN_FOOD_WAS_12, shopper } from "../../test/factories.ts";
import { as, createTestContext, signIn } from "../../test/harness.ts";
import {
  buy,
  ctx,
  dueNow,
  milk,
  outbox,
  pay,
  receiptPage,
  runSender,
  sink,
  soap,
  stockholm,
  useMailingApp,
} from "./receipt-mail.fixtures.ts";
import { startReceiptMails } from "./receipt-mail.sender.ts";

/**
 * The receipt e-mail end to end: what reaches the shopper, once, only with an
 * address, what the receipt says about it, and a server without SMTP_URL.
 */
useMailingApp();

describe("the receipt e-mail", () => {
  it("reaches the shopper's address after a paid checkout: subject, seller, time, lines, VAT, total, card", async () => {
    const before = sink.messages.length;
    const sam = await shopper(ctx.app, { email: "sam@example.se" });
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
    const sam = await shopper(ctx.app, { email: "once@example.se" });
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
    const none = await buy(await shopper(ctx.app));
    const removed = await shopper(ctx.app, { name: "Sam", email: "gone@example.se" });
    const cleared = await removed.call({ method: "PUT", url: "/api/v1/profile/email", payload: { email: null } });
    expect(cleared.json()).toEqual({ name: "Sam", email: null });
    const afterRemoval = await buy(removed);
    await runSender();
    expect(await outbox(none.id)).toEqual([]);
    expect(await outbox(afterRemoval.id)).toEqual([]);
    expect(sink.messages.length).toBe(before);
  });

  it("the receipt says it was e-mailed when a mail was queued for it; not without an address, nor once given up", async () => {
    const sam = await shopper(ctx.app, { email: "told@example.se" });
    const mailed = await buy(sam);
    expect(mailed.emailed).toBe(true);
    expect((await receiptPage(sam, mailed.id)).emailed).toBe(true);
    await ctx.app.receiptMails.idle();
    expect((await receiptPage(sam, mailed.id)).emailed).toBe(true);

    const quiet = await shopper(ctx.app);
    const unmailed = await buy(quiet);
    expect(unmailed.emailed).toBe(false);
    expect((await receiptPage(quiet, unmailed.id)).emailed).toBe(false);

    // A mail the server refused for good never reached the shopper: the receipt stops saying it did.
    sink.refuseWith(554);
    const refusedTo = await shopper(ctx.app, { email: "refused@example.se" });
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
});

describe("without SMTP_URL", () => {
  it("queues no receipt mail, and the receipt does not say it was e-mailed, even with an address on file", async () => {
    const bare = await createTestContext(
      { STRIPE_SECRET_KEY: pay.simulator.secretKey, STRIPE_API_BASE: pay.apiBase },
      { saleClock: () => SOLD_WHEN_FOOD_WAS_12 },
    );
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
      const sam = await shopper(bare.app, { email: "no-server@example.se" });
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
