import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { readReceipt } from "../orders/receipt.ts";
import { idempotencyKeyOf } from "../payments/charge.ts";
import {
  admin,
  barcodes,
  closeCheckoutTests,
  ctx,
  openCheckoutTests,
  orderOfVisit,
  pay,
  paymentEvents,
  refusal,
  run,
  runTold,
  scan,
  shopper,
  store,
  visit,
} from "./checkout.fixtures.ts";

beforeAll(openCheckoutTests);
afterEach(() => pay.control("/faults", {}));
afterAll(closeCheckoutTests);

describe("what a checkout records, tells and asks", () => {
  it("records the checkout and the charge with its receipt number, tells the screens, and asks the provider in full", async () => {
    const alva = await shopper();
    const s = await visit(alva);
    await scan(alva, s, barcodes.coffee, 2);
    await scan(alva, s, barcodes.bread);
    await scan(alva, s, barcodes.paper);
    const { answer, told } = runTold(alva);
    const receipt = (await answer).receipt!;
    expect(await paymentEvents(s)).toEqual([
      { kind: "checkout", source: "system", detail: { amount: 182.3, attempt: 1 } },
      {
        kind: "charged",
        source: "system",
        detail: { amount: 182.3, receipt_number: receipt.number, settled_later: false },
      },
    ]);
    expect(told).toEqual([
      { store_id: store, session_id: s, kind: "checkout" },
      { store_id: store, session_id: s, kind: "charged" },
    ]);
    // VAT per rate summed: 23.96 + 3.70 + 1.58.
    expect((await orderOfVisit(s))?.vat_ore).toBe(2924);
    const [intent] = (
      await pay.control<{ data: Record<string, unknown>[] }>(
        `/payment_intents?idempotency_key=${encodeURIComponent(`${idempotencyKeyOf(s, 1)}-authorize`)}`,
      )
    ).data;
    expect(intent).toMatchObject({
      amount: 18_230,
      currency: "sek",
      description: `Kassabutiken, besök ${s}`,
      metadata: { order_id: receipt.id, session_id: s, store_id: store },
    });
  });

  it("charges in the store's own currency", async () => {
    const created = await admin.post("/api/v1/stores/", { name: "Kauppa", country: "FI" });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().settings.currency).toBe("EUR");
    const alva = await shopper();
    const s = await visit(alva, created.json().id);
    await scan(alva, s, barcodes.bread);
    expect((await run(alva)).receipt?.currency).toBe("EUR");
    const intents = await pay.control<{ data: { currency: string; amount: number }[] }>(
      `/payment_intents?idempotency_key=${encodeURIComponent(`${idempotencyKeyOf(s, 1)}-authorize`)}`,
    );
    expect(intents.data.map((i) => [i.currency, i.amount])).toEqual([["eur", 3450]]);
  });

  it("puts on the receipt the parts of the seller's address the store has, and numbers each new store from 1", async () => {
    for (const [fields, address] of [
      [{ address: "Storgatan 1" }, "Storgatan 1"],
      [{ postal_code: "222 22", city: "Lund" }, "222 22 Lund"],
      [{ city: "Lund" }, "Lund"],
      [{ address: "Storgatan 1", city: "Lund" }, "Storgatan 1, Lund"],
      [{}, null],
    ] as const) {
      const created = await admin.post("/api/v1/stores/", { name: "Adressbutik", ...fields });
      expect(created.statusCode, created.body).toBe(201);
      const alva = await shopper();
      const s = await visit(alva, created.json().id);
      await scan(alva, s, barcodes.paper);
      const receipt = (await run(alva)).receipt!;
      expect(receipt.store, JSON.stringify(fields)).toEqual({
        name: "Adressbutik",
        legal_name: null,
        organization_number: null,
        address,
      });
      expect(receipt.number).toBe(1);
    }
  });

  it("records an empty checkout as such and tells the screens", async () => {
    const alva = await shopper();
    const s = await visit(alva);
    const { answer, told } = runTold(alva);
    expect(await answer).toEqual({ status: "empty", receipt: null });
    expect(await paymentEvents(s)).toEqual([
      { kind: "checkout", source: "system", detail: { amount: 0, empty: true } },
    ]);
    expect(told).toEqual([{ store_id: store, session_id: s, kind: "checkout" }]);
  });

  it("a declined card: the bank's code on the timeline, words to act on, and the next try a new attempt with its own lines", async () => {
    const alva = await shopper("pm_card_chargeDeclined");
    const s = await visit(alva);
    await scan(alva, s, barcodes.bread, 2);
    const first = runTold(alva);
    const refused = await refusal(first.answer);
    expect(refused.message).toBe("Betalningen nekades av din bank. Kontrollera kortet eller byt kort och försök igen.");
    expect(first.told.map((c) => c.kind)).toEqual(["checkout", "charge_failed"]);
    const visa = await pay.shopperWithCard("pm_card_visa");
    await ctx.app.db.execute(
      sql`update customers set payment_customer_id = ${visa.customerId}, payment_method_id = ${visa.paymentMethodId}
          where id = ${alva.customerId}`,
    );
    const paid = await run(alva);
    expect(paid.receipt?.items.map((i) => [i.name, i.quantity])).toEqual([["Limpa", 2]]);
    expect(await paymentEvents(s)).toEqual([
      { kind: "checkout", source: "system", detail: { amount: 69, attempt: 1 } },
      { kind: "charge_failed", source: "system", detail: { amount: 69, code: "generic_decline" } },
      { kind: "checkout", source: "system", detail: { amount: 69, attempt: 2 } },
      {
        kind: "charged",
        source: "system",
        detail: { amount: 69, receipt_number: paid.receipt!.number, settled_later: false },
      },
    ]);
  });

  it("no answer: unsettled on the timeline and words to wait by; settled later, the charge says so", async () => {
    const alva = await shopper();
    const s = await visit(alva);
    await scan(alva, s, barcodes.paper);
    await pay.control("/faults", { mode: "error", times: 1, path: "/v1/payment_intents" });
    const late = runTold(alva);
    const refused = await refusal(late.answer);
    expect(refused.message).toBe(
      "Betalningen kunde inte slutföras just nu. Försök igen om en stund – du debiteras bara en gång.",
    );
    expect(late.told.map((c) => c.kind)).toEqual(["checkout", "unsettled"]);
    expect((await orderOfVisit(s))?.state).toBe("unsettled");
    const again = runTold(alva);
    const paid = await again.answer;
    expect(again.told.map((c) => c.kind)).toEqual(["checkout", "charged"]);
    expect(await paymentEvents(s)).toEqual([
      { kind: "checkout", source: "system", detail: { amount: 28, attempt: 1 } },
      { kind: "unsettled", source: "system", detail: { amount: 28 } },
      {
        kind: "charged",
        source: "system",
        detail: { amount: 28, receipt_number: paid.receipt!.number, settled_later: true },
      },
    ]);
  });

  it("refuses a shopper whose card is gone though the provider's customer remains", async () => {
    const alva = await shopper();
    const s = await visit(alva);
    await scan(alva, s, barcodes.bread);
    await ctx.app.db.execute(sql`update customers set payment_method_id = null where id = ${alva.customerId}`);
    const noCard = await refusal(run(alva));
    expect([noCard.status, noCard.code, noCard.message]).toEqual([
      409,
      "no_payment_method",
      "Du har inget betalkort sparat. Lägg till ett kort för att betala automatiskt.",
    ]);
  });

  it("a receipt is only for a paid order, and names the card only when both brand and last four are known", async () => {
    const alva = await shopper();
    const s = await visit(alva);
    await scan(alva, s, barcodes.bread);
    const { receipt } = await run(alva);
    await ctx.app.db.execute(sql`update orders set card_last4 = null where id = ${receipt!.id}`);
    expect((await readReceipt(ctx.app.db, receipt!.id))?.payment).toBeNull();
    await ctx.app.db.execute(sql`update orders set card_last4 = '4242', card_brand = null where id = ${receipt!.id}`);
    expect((await readReceipt(ctx.app.db, receipt!.id))?.payment).toBeNull();

    const declined = await shopper("pm_card_chargeDeclined");
    const t = await visit(declined);
    await scan(declined, t, barcodes.bread);
    await refusal(run(declined));
    expect(await readReceipt(ctx.app.db, (await orderOfVisit(t))!.id)).toBeNull();
  });
});
