import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/client.ts";
import { readReceipt } from "../orders/receipt.ts";
import { chargeWith, idempotencyKeyOf } from "../payments/charge.ts";
import {
  admin,
  barcodes,
  closeCheckoutTests,
  ctx,
  openCheckoutTests,
  pay,
  productIds,
  refusal,
  run,
  scan,
  sessionRow,
  shopper,
  store,
  visit,
} from "./checkout.fixtures.ts";
import { settleUnsettled } from "./checkout.service.ts";

beforeAll(openCheckoutTests);
afterEach(() => pay.control("/faults", {}));
afterAll(closeCheckoutTests);

describe("checkout", () => {
  it("charges the cart once and answers a receipt with VAT per rate, numbered per store from 1", async () => {
    const alva = await shopper();
    const s = await visit(alva);
    await scan(alva, s, barcodes.coffee, 2);
    await scan(alva, s, barcodes.bread);
    await scan(alva, s, barcodes.paper);
    const answer = await run(alva);
    expect(answer.status).toBe("paid");
    const receipt = answer.receipt!;
    expect(receipt.number).toBe(1);
    expect(receipt.store).toEqual({
      name: "Kassabutiken",
      legal_name: "Kassabutiken AB",
      organization_number: "556677-8899",
      address: "Kungsgatan 3, 111 43 Stockholm",
    });
    expect(receipt.items.map((i) => [i.quantity, i.name, i.total])).toEqual([
      [2, "Kaffe", 119.8],
      [1, "Limpa", 34.5],
      [1, "Dagstidning", 28],
    ]);
    expect(receipt.total).toBe(182.3);
    // 119.80 at 25 % → 23.96; 34.50 at 12 % → 3.696… → 3.70; 28.00 at 6 % → 1.584… → 1.58.
    expect(receipt.vat).toEqual([
      { rate: 0.25, amount: 23.96, net: 95.84, gross: 119.8 },
      { rate: 0.12, amount: 3.7, net: 30.8, gross: 34.5 },
      { rate: 0.06, amount: 1.58, net: 26.42, gross: 28 },
    ]);
    expect(receipt.payment).toEqual({ brand: "visa", last4: "4242" });
    expect((await sessionRow(s)).checked_out_at).not.toBeNull();

    const intents = await pay.intentsFor(`${idempotencyKeyOf(s, 1)}-authorize`);
    expect(intents.map((i) => [i.amount, i.amount_received, i.status])).toEqual([[18_230, 18_230, "succeeded"]]);

    // The next paid visit in the same store is number 2.
    const bo = await shopper();
    const t = await visit(bo);
    await scan(bo, t, barcodes.bread);
    expect((await run(bo)).receipt?.number).toBe(2);
  });

  it("keeps the order and its receipt when the shopper's account is deleted", async () => {
    const gone = await shopper();
    const s = await visit(gone);
    await scan(gone, s, barcodes.bread);
    const { receipt } = await run(gone);
    await ctx.app.db.execute(sql`delete from customers where id = ${gone.customerId}`);
    const [kept] = await queryRows<{ customer_id: string | null; session_id: string | null; state: string }>(
      ctx.app.db,
      sql`select customer_id, session_id, state from orders where id = ${receipt!.id}`,
    );
    expect(kept).toEqual({ customer_id: null, session_id: null, state: "paid" });
    expect(await readReceipt(ctx.app.db, receipt!.id)).toEqual(receipt);
  });

  it("charges once for 50 checkouts of one visit at the same time, and a repeat answers the same receipt", async () => {
    const alva = await shopper();
    const s = await visit(alva);
    await scan(alva, s, barcodes.coffee, 3);
    const answers = await Promise.all(Array.from({ length: 50 }, () => run(alva)));
    const ids = new Set(answers.map((a) => a.receipt?.id));
    expect(ids.size).toBe(1);
    expect(answers.every((a) => a.status === "paid" && a.receipt?.total === 179.7)).toBe(true);
    const again = await run(alva);
    expect(again.receipt?.id).toBe(answers[0]!.receipt!.id);
    expect(await pay.intentsFor(`${idempotencyKeyOf(s, 1)}-authorize`)).toHaveLength(1);
    const charges = await pay.control<{ count: number }>(
      `/charges?customer=${encodeURIComponent(
        (
          await queryRows<{ payment_customer_id: string }>(
            ctx.app.db,
            sql`select payment_customer_id from customers where id = ${alva.customerId}`,
          )
        )[0]!.payment_customer_id,
      )}`,
    );
    expect(charges.count).toBe(1);
    const orders = await queryRows<{ n: number }>(
      ctx.app.db,
      sql`select count(*)::int as n from orders where session_id = ${s}`,
    );
    expect(orders[0]!.n).toBe(1);
  });

  it("a declined card leaves the visit and cart open; with a new card the next try is a new charge that succeeds", async () => {
    const alva = await shopper("pm_card_chargeDeclined");
    const s = await visit(alva);
    await scan(alva, s, barcodes.bread, 2);
    const refused = await refusal(run(alva));
    expect([refused.status, refused.code]).toEqual([402, "payment_declined"]);
    expect(refused.message).toMatch(/nekades/);
    expect((await sessionRow(s)).checked_out_at).toBeNull();
    const cart = await ctx.app.inject({
      method: "GET",
      url: `/api/v1/cart/${s}`,
      headers: { authorization: `Bearer ${alva.token}` },
    });
    expect(cart.json().total).toBe(69);

    const visa = await pay.shopperWithCard("pm_card_visa");
    await ctx.app.db.execute(
      sql`update customers set payment_customer_id = ${visa.customerId}, payment_method_id = ${visa.paymentMethodId}
          where id = ${alva.customerId}`,
    );
    const paid = await run(alva);
    expect(paid.status).toBe("paid");
    expect(await pay.intentsFor(`${idempotencyKeyOf(s, 2)}-authorize`)).toHaveLength(1);
  });

  it("a provider that does not answer in time: 503, nothing lost, and the retry settles the same charge", async () => {
    const alva = await shopper();
    const s = await visit(alva);
    await scan(alva, s, barcodes.paper);
    await pay.control("/faults", { delay_ms: 1500, times: 1, path: "/v1/payment_intents" });
    const late = await refusal(run(alva, { timeoutMs: 300 }));
    expect([late.status, late.code]).toEqual([503, "payment_unavailable"]);
    expect((await sessionRow(s)).checked_out_at).toBeNull();

    // The provider finishes the late request meanwhile; asking again with the same key settles it.
    const key = `${idempotencyKeyOf(s, 1)}-authorize`;
    for (let i = 0; i < 100; i++) {
      const state = await pay.control<{ in_progress: boolean }>(`/idempotency?key=${encodeURIComponent(key)}`);
      if (!state.in_progress) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await settleUnsettled({ db: ctx.app.db, payments: chargeWith(pay.provider()) })).toBeGreaterThanOrEqual(1);
    const repeat = await run(alva);
    expect(repeat.status).toBe("paid");
    expect(await pay.intentsFor(key)).toHaveLength(1);
  });

  it("an empty cart ends the visit without a charge or a receipt", async () => {
    const alva = await shopper();
    const s = await visit(alva);
    expect(await run(alva)).toEqual({ status: "empty", receipt: null });
    expect((await sessionRow(s)).checked_out_at).not.toBeNull();
    expect(await pay.intentsFor(`${idempotencyKeyOf(s, 1)}-authorize`)).toHaveLength(0);
    // A scan after the exit is refused: the visit is over.
    const late = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/cart/scan",
      headers: { authorization: `Bearer ${alva.token}` },
      payload: { session_id: s, barcode: barcodes.bread },
    });
    expect(late.statusCode).toBe(409);
    // Asked again, the ended visit answers the same and ends nothing more.
    const endedAt = (await sessionRow(s)).checked_out_at;
    expect(await run(alva)).toEqual({ status: "empty", receipt: null });
    expect((await sessionRow(s)).checked_out_at).toEqual(endedAt);
  });

  it("refuses a shopper without a card, and one who never went in", async () => {
    const cardless = await shopper(null);
    const t = await visit(cardless);
    await scan(cardless, t, barcodes.bread);
    const noCard = await refusal(run(cardless));
    expect([noCard.status, noCard.code]).toEqual([409, "no_payment_method"]);

    const outside = await shopper();
    const never = await refusal(run(outside));
    expect([never.status, never.code, never.message]).toEqual([
      404,
      "no_visit",
      "Du har inget pågående besök att betala för.",
    ]);
  });

  it("checks age limits again at payment, on the store's calendar day", async () => {
    const res = await admin.post(`/api/v1/stores/${store}/modules/age_verification`, { enabled: true });
    expect(res.statusCode, res.body).toBe(200);
    const today = new Date();
    const seventeen = `${today.getUTCFullYear() - 17}-01-01`;
    const young = await shopper("pm_card_visa", seventeen);
    const s = await visit(young);
    await scan(young, s, barcodes.snus);
    // The limit came after the scan: payment is where it is caught.
    await ctx.app.db.execute(sql`update products set age_limit = 18 where id = ${productIds.snus}`);
    const refused = await refusal(run(young));
    expect([refused.status, refused.code]).toEqual([403, "under_age"]);
    expect(await pay.intentsFor(`${idempotencyKeyOf(s, 1)}-authorize`)).toHaveLength(0);

    const adult = await shopper("pm_card_visa", `${today.getUTCFullYear() - 30}-01-01`);
    const t = await visit(adult);
    await scan(adult, t, barcodes.snus);
    expect((await run(adult)).status).toBe("paid");
    await ctx.app.db.execute(sql`update products set age_limit = null where id = ${productIds.snus}`);
  });
});
