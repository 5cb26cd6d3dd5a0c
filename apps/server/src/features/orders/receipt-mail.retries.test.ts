import type { Receipt } from "@glide/contracts";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "../../db/client.ts";
import { clearExpired } from "../../platform/housekeeping.ts";
import { createSmtpMailer } from "../../platform/mail.ts";
import { shopper } from "../../test/factories.ts";
import {
  buy,
  ctx,
  dueNow,
  FROM,
  outbox,
  restartSink,
  runSender,
  sink,
  useMailingApp,
} from "./receipt-mail.fixtures.ts";
import { receiptMailExpiry } from "./receipt-mail.outbox.ts";
import { RECEIPT_MAIL_GIVE_UP_MS, retryDelayMs, sendDueReceiptMails } from "./receipt-mail.sender.ts";

/**
 * The receipt e-mail when the SMTP server is slow, refuses, or is down:
 * backoff, giving up, and the outbox forgetting the address.
 */
useMailingApp();

describe("the receipt e-mail", () => {
  it("a slow SMTP server does not hold up the checkout: it answers while the mail is still in flight", async () => {
    const before = sink.messages.length;
    const sam = await shopper(ctx.app, { email: "slow@example.se" });
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
    const sam = await shopper(ctx.app, { email: "later@example.se" });
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
      receipt = await buy(await shopper(ctx.app, { email: "down@example.se" }));
      await ctx.app.receiptMails.idle();
      const [row] = await outbox(receipt.id);
      expect(row).toMatchObject({ state: "pending", attempts: 1 });
      expect(row?.last_error).toMatch(/ECONNREFUSED/);
      await dueNow(receipt.id);
      await runSender();
      expect(await outbox(receipt.id)).toMatchObject([{ state: "pending", attempts: 2 }]);
    } finally {
      await restartSink();
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
      receipt = await buy(await shopper(ctx.app, { email: "never@example.se" }));
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

  it("a run stops before its next mail when the instance is closing, and hands back what it took, due at once", async () => {
    // Three mails waiting with one refusal each, made due now.
    sink.refuseWith(451);
    const receipts: Receipt[] = [];
    try {
      for (const who of ["first", "second", "third"]) {
        receipts.push(await buy(await shopper(ctx.app, { email: `closing-${who}@example.se` })));
        await ctx.app.receiptMails.idle();
      }
    } finally {
      sink.refuseWith(null);
    }
    for (const receipt of receipts) await dueNow(receipt.id);
    const mine = async () => (await Promise.all(receipts.map((r) => outbox(r.id)))).flat();
    const mailer = createSmtpMailer({ url: sink.url, from: FROM });
    try {
      // Closing before the run takes any: nothing is taken.
      expect(await sendDueReceiptMails({ db: ctx.app.db, mailer, stopping: () => true })).toEqual({
        sent: 0,
        retrying: 0,
        failed: 0,
      });
      expect((await mine()).map((row) => [row.state, row.attempts])).toEqual(receipts.map(() => ["pending", 1]));
      // Closing while the first mail is with the server: that one is finished, the others are handed back.
      const before = sink.messages.length;
      let closing = false;
      const held = sink.hold();
      const run = sendDueReceiptMails({ db: ctx.app.db, mailer, stopping: () => closing });
      await held.holding;
      closing = true;
      held.release();
      expect(await run).toEqual({ sent: 1, retrying: 0, failed: 0 });
      expect(sink.messages.length).toBe(before + 1);
    } finally {
      mailer.close();
    }
    const rows = await mine();
    const waiting = rows.filter((row) => row.state === "pending");
    expect(rows.length - waiting.length).toBeLessThanOrEqual(1);
    for (const row of waiting) {
      expect(row.attempts).toBe(1);
      expect(row.due_in_ms).toBeLessThanOrEqual(0);
    }
    // Any instance's next run sends them.
    await runSender();
    expect((await mine()).map((row) => row.state)).toEqual(["sent", "sent", "sent"]);
  });

  it("is given up after days without a server that takes it, and not before", async () => {
    const before = sink.messages.length;
    const sam = await shopper(ctx.app, { email: "old@example.se" });
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
    const kept = await buy(await shopper(ctx.app, { email: "kept@example.se" }));
    const old = await buy(await shopper(ctx.app, { email: "old-copy@example.se" }));
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
