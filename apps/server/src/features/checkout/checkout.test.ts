import { randomBytes } from "node:crypto";
import { gtinCheckDigit } from "@glide/contracts";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { queryRows } from "../../db/client.ts";
import { customers } from "../../db/schema/index.ts";
import { AppError } from "../../platform/errors.ts";
import { type PaymentHarness, startPaymentHarness } from "../../platform/payments/testing.ts";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";
import type { SessionChange } from "../sessions/session-events.ts";
import { issueTokens } from "../shopper-auth/shopper-tokens.ts";
import { type ChargePort, chargeWith, idempotencyKeyOf } from "./charge.ts";
import { chargeVisit, checkout, settleUnsettled } from "./checkout.service.ts";
import { CHARGE_LEASE_MS } from "./order-plan.ts";
import { readReceipt } from "./receipt.ts";

const ean = (body12: string) => body12 + gtinCheckDigit(body12);
let ctx: TestContext;
let pay: PaymentHarness;
let admin: ReturnType<typeof as>;
let store: string;
const barcodes = {
  coffee: ean("731000000301"), // 25 %
  bread: ean("731000000302"), // 12 %
  paper: ean("731000000303"), // 6 %
  snus: ean("731000000304"),
};
const productIds: Record<string, string> = {};

type Shopper = { token: string; customerId: string };

async function shopper(card: string | null = "pm_card_visa", birthDate = "1990-05-01"): Promise<Shopper> {
  const tag = randomBytes(6).toString("hex");
  const [customer] = await ctx.app.db
    .insert(customers)
    .values({ personalNumberHash: `co-${tag}`, personalNumberSealed: `co-${tag}`, name: "Alva Kund", birthDate })
    .returning();
  if (card) {
    const onFile = await pay.shopperWithCard(card);
    await ctx.app.db.execute(
      sql`update customers set payment_customer_id = ${onFile.customerId}, payment_method_id = ${onFile.paymentMethodId}
          where id = ${customer!.id}`,
    );
  }
  const tokens = await issueTokens(ctx.app.db, ctx.app.shopperKeys.jwt, customer!);
  return { token: tokens.access_token, customerId: customer!.id };
}

async function visit(who: Shopper, storeId = store): Promise<string> {
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

async function scan(who: Shopper, sessionId: string, barcode: string, times = 1) {
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

const run = (who: Shopper, opts: { timeoutMs?: number; userId?: string } = {}) =>
  checkout({
    db: ctx.app.db,
    payments: chargeWith(pay.provider({ timeoutMs: opts.timeoutMs ?? 5000, maxNetworkRetries: 0 })),
    customerId: who.customerId,
    userId: opts.userId ?? who.customerId,
  });

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

const sessionRow = async (id: string) =>
  (
    await queryRows<{ checked_out_at: Date | null }>(
      ctx.app.db,
      sql`select checked_out_at from shopping_sessions where id = ${id}`,
    )
  )[0]!;

beforeAll(async () => {
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
    coffee: { name: "Kaffe", price: 59.9, vat_rate: 25 },
    bread: { name: "Limpa", price: 34.5, vat_rate: 12 },
    paper: { name: "Dagstidning", price: 28, vat_rate: 6 },
    snus: { name: "Snus", price: 55, vat_rate: 25 },
  })) {
    const res = await admin.post("/api/v1/products/", {
      sku: `co-${key}-${randomBytes(3).toString("hex")}`,
      barcode: barcodes[key as keyof typeof barcodes],
      ...fields,
    });
    expect(res.statusCode, res.body).toBe(201);
    productIds[key] = res.json().id;
  }
});
afterEach(() => pay.control("/faults", {}));
afterAll(async () => {
  await ctx?.close();
  await pay?.close();
});

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

  it("refuses someone else's user_id, a shopper without a card, and one who never went in", async () => {
    const alva = await shopper();
    const bo = await shopper();
    const s = await visit(alva);
    await scan(alva, s, barcodes.bread);
    const other = await refusal(run(alva, { userId: bo.customerId }));
    expect(other.status).toBe(403);
    expect((await sessionRow(s)).checked_out_at).toBeNull();

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

/** The visit's timeline of payment, oldest first. */
const paymentEvents = (sessionId: string) =>
  queryRows<{ kind: string; source: string; detail: Record<string, unknown> }>(
    ctx.app.db,
    sql`select kind, source, detail from session_events
        where session_id = ${sessionId} and kind in ('checkout', 'charged', 'charge_failed', 'unsettled') order by id`,
  );

/** A checkout that also keeps what it told the Sessions screens. */
function runTold(who: Shopper, opts: { now?: () => Date; payments?: ChargePort; timeoutMs?: number } = {}) {
  const told: SessionChange[] = [];
  const answer = checkout({
    db: ctx.app.db,
    payments: opts.payments ?? chargeWith(pay.provider({ timeoutMs: opts.timeoutMs ?? 5000, maxNetworkRetries: 0 })),
    customerId: who.customerId,
    userId: who.customerId,
    announce: async (change) => {
      told.push(change);
    },
    ...(opts.now ? { now: opts.now } : {}),
  });
  return { answer, told };
}

/** The real provider behind a port that counts the charges asked of it. */
function countingPort() {
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

const orderOfVisit = async (sessionId: string) =>
  (
    await queryRows<{ id: string; state: string; attempt: number; vat_ore: number }>(
      ctx.app.db,
      sql`select id, state, attempt, vat_ore from orders where session_id = ${sessionId}`,
    )
  )[0];

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

  it("refuses a shopper whose card is gone though the provider's customer remains, and someone else's user_id", async () => {
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
    const other = await refusal(run(alva, { userId: (await shopper()).customerId }));
    expect(other.message).toBe("Du kan bara betala för ditt eget besök.");
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

describe("a charge another request has started", () => {
  it("is waited for, not asked again, while it is under way: both answers are its receipt", async () => {
    const alva = await shopper();
    const s = await visit(alva);
    await scan(alva, s, barcodes.coffee);
    await pay.control("/faults", { delay_ms: 1000, times: 1, path: "/v1/payment_intents" });
    const first = run(alva);
    await vi.waitFor(async () => expect((await orderOfVisit(s))?.state).toBe("charging"), { interval: 20 });
    const second = countingPort();
    const waiting = runTold(alva, { payments: second.port });
    const [a, b] = await Promise.all([first, waiting.answer]);
    expect(b.receipt?.id).toBe(a.receipt?.id);
    expect(second.counted.calls).toBe(0);
    expect(await pay.intentsFor(`${idempotencyKeyOf(s, 1)}-authorize`)).toHaveLength(1);
  });

  it("is taken over with the same key once it has been charging longer than the lease, and not a moment before", async () => {
    const alva = await shopper();
    const s = await visit(alva);
    await scan(alva, s, barcodes.paper);
    // A request that got as far as the provider and was never heard of again.
    await pay.control("/faults", { mode: "error", times: 1, path: "/v1/payment_intents" });
    await refusal(run(alva));
    const started = new Date(Date.now() - 60_000);
    await ctx.app.db.execute(
      sql`update orders set state = 'charging', charge_started_at = ${started} where session_id = ${s}`,
    );
    const at = (ms: number) => () => new Date(started.getTime() + ms);

    // Requests on two instances (within one, a second request shares the first's run). At exactly the lease the
    // charge is still the other request's: this one waits, asking the provider nothing.
    const onInstance = (now: () => Date, payments: ChargePort) =>
      chargeVisit({ db: ctx.app.db, payments, sessionId: s, event: "checkout", now });
    const patient = countingPort();
    const waiting = { answer: onInstance(at(CHARGE_LEASE_MS), patient.port) };
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(patient.counted.calls).toBe(0);
    // A moment later the lease is over: the charge is asked again under the same key, and both answers are paid.
    const taker = countingPort();
    const taken = await onInstance(at(CHARGE_LEASE_MS + 1), taker.port);
    expect(taker.counted.calls).toBe(1);
    expect((await waiting.answer).receipt?.id).toBe(taken.receipt?.id);
    expect(patient.counted.calls).toBe(0);
    expect((await orderOfVisit(s))?.attempt).toBe(1);
    expect(await pay.intentsFor(`${idempotencyKeyOf(s, 1)}-authorize`)).toHaveLength(1);
  });

  it("is settled by the periodic job only once the lease is over", async () => {
    const alva = await shopper();
    const s = await visit(alva);
    await scan(alva, s, barcodes.bread);
    await pay.control("/faults", { mode: "error", times: 1, path: "/v1/payment_intents" });
    await refusal(run(alva));
    const started = new Date();
    await ctx.app.db.execute(
      sql`update orders set state = 'charging', charge_started_at = ${started} where session_id = ${s}`,
    );
    const job = countingPort();
    const settle = (ms: number) =>
      settleUnsettled({ db: ctx.app.db, payments: job.port, now: () => new Date(started.getTime() + ms) });
    await settle(CHARGE_LEASE_MS);
    expect((await orderOfVisit(s))?.state).toBe("charging");
    await settle(CHARGE_LEASE_MS + 1);
    expect((await orderOfVisit(s))?.state).toBe("paid");
  });
});
