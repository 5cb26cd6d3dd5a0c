import { randomBytes, randomUUID } from "node:crypto";
import { checkoutResponseSchema, errorSchema, gtinCheckDigit, receiptSchema } from "@glide/contracts";
import { sql } from "drizzle-orm";
import type { InjectOptions } from "fastify";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/client.ts";
import { customers } from "../../db/schema/index.ts";
import { type PaymentHarness, startPaymentHarness } from "../../platform/payments/testing.ts";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";
import { issueTokens } from "../shopper-auth/shopper-tokens.ts";
import { idempotencyKeyOf } from "./charge.ts";
import * as paymentMethod from "./payment-method.service.ts";

let ctx: TestContext;
let pay: PaymentHarness;
let admin: ReturnType<typeof as>;
let store: string;
const milk = `731000000401${gtinCheckDigit("731000000401")}`;

type Reply = Awaited<ReturnType<TestContext["app"]["inject"]>>;
type Shopper = { id: string; call: (opts: Omit<InjectOptions, "headers">) => Promise<Reply> };

async function shopper(): Promise<Shopper> {
  const tag = randomBytes(6).toString("hex");
  const [customer] = await ctx.app.db
    .insert(customers)
    .values({
      personalNumberHash: `cr-${tag}`,
      personalNumberSealed: `cr-${tag}`,
      name: "Sam",
      birthDate: "1985-03-03",
    })
    .returning();
  const { access_token } = await issueTokens(ctx.app.db, ctx.app.shopperKeys.jwt, customer!);
  return {
    id: customer!.id,
    call: async (opts) =>
      await ctx.app.inject({ ...opts, headers: { authorization: `Bearer ${access_token}` } } as InjectOptions),
  };
}

async function inStoreWithMilk(who: Shopper, pieces = 1): Promise<string> {
  const entry = await who.call({ method: "POST", url: "/api/v1/sessions/entry", payload: { store_id: store } });
  const id = entry.json().session_id as string;
  await ctx.app.db.execute(
    sql`update shopping_sessions set door_opened_at = now(), entry_used_at = now(), state = 'in_store' where id = ${id}`,
  );
  for (let i = 0; i < pieces; i++) {
    const res = await who.call({
      method: "POST",
      url: "/api/v1/cart/scan",
      payload: { session_id: id, barcode: milk },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  return id;
}

const saveCard = (who: Shopper, payment_method: string) =>
  who.call({ method: "PUT", url: "/api/v1/payment-method", payload: { payment_method } });
const pay_ = (who: Shopper, user_id = who.id) =>
  who.call({ method: "POST", url: "/api/v1/checkout", payload: { user_id } });
const cardOf = async (who: Shopper) => (await who.call({ method: "GET", url: "/api/v1/payment-method" })).json();
const removeCard = (who: Shopper) => who.call({ method: "DELETE", url: "/api/v1/payment-method" });

/** The provider's customer and card as the shopper's row keeps them. */
async function kept(who: Shopper) {
  const [row] = await queryRows<{ payment_customer_id: string | null; payment_method_id: string | null }>(
    ctx.app.db,
    sql`select payment_customer_id, payment_method_id from customers where id = ${who.id}`,
  );
  return row!;
}

/** The cards the simulator holds on a customer. */
const heldBy = (customerId: string | null) =>
  [...pay.simulator.store.paymentMethods.values()].filter((pm) => pm.customer === customerId).map((pm) => pm.id);

function expectRefusal(res: Reply, status: number, code: string, detail: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toEqual({ code, detail });
}

const visa = { card: { brand: "visa", last4: "4242" } };
const notSavedNow = "Kortet kunde inte sparas just nu. Försök igen om en stund.";

beforeAll(async () => {
  pay = await startPaymentHarness();
  ctx = await createTestContext({ STRIPE_SECRET_KEY: pay.simulator.secretKey, STRIPE_API_BASE: pay.apiBase });
  admin = as(ctx.app, (await signIn(ctx.app)).cookie);
  store = (await admin.post("/api/v1/stores/", { name: "Hörnbutiken" })).json().id;
  const res = await admin.post("/api/v1/products/", { sku: "cr-milk", name: "Mjölk", price: 17.9, barcode: milk });
  expect(res.statusCode, res.body).toBe(201);
});
afterEach(() => pay.control("/faults", {}));
afterAll(async () => {
  await ctx?.close();
  await pay?.close();
});

describe("the card on file", () => {
  it("is saved from the card page's id, shown as brand and last four, replaced, and removed", async () => {
    const sam = await shopper();
    expect((await sam.call({ method: "GET", url: "/api/v1/payment-method" })).json()).toEqual({ card: null });
    const visa = await saveCard(sam, "pm_card_visa");
    expect(visa.statusCode, visa.body).toBe(200);
    expect(visa.json()).toEqual({ card: { brand: "visa", last4: "4242" } });
    const master = await saveCard(sam, "pm_card_mastercard");
    expect(master.json()).toEqual({ card: { brand: "mastercard", last4: "4444" } });
    expect((await sam.call({ method: "GET", url: "/api/v1/payment-method" })).json()).toEqual({
      card: { brand: "mastercard", last4: "4444" },
    });
    // One provider customer for the shopper, whatever the number of cards.
    const [row] = await queryRows<{ payment_customer_id: string }>(
      ctx.app.db,
      sql`select payment_customer_id from customers where id = ${sam.id}`,
    );
    const found = await pay.control<{ count: number }>(`/customers?metadata[shopper_id]=${sam.id}`);
    expect(found.count).toBe(1);
    expect(row?.payment_customer_id).toMatch(/^cus_/);

    expect((await sam.call({ method: "DELETE", url: "/api/v1/payment-method" })).statusCode).toBe(204);
    expect((await sam.call({ method: "GET", url: "/api/v1/payment-method" })).json()).toEqual({ card: null });
    // Removing again is no error.
    expect((await sam.call({ method: "DELETE", url: "/api/v1/payment-method" })).statusCode).toBe(204);
  });

  it("refuses an id the provider does not know (422) and one that is not an id at all", async () => {
    const sam = await shopper();
    const unknown = await saveCard(sam, "pm_nothing_like_this");
    expect(unknown.statusCode).toBe(422);
    expect(errorSchema.parse(unknown.json()).code).toBe("invalid_payment_method");
    const malformed = await saveCard(sam, "4242 4242 4242 4242");
    expect(malformed.statusCode).toBe(422);
    expect((await sam.call({ method: "GET", url: "/api/v1/payment-method" })).json()).toEqual({ card: null });
  });

  it.each([
    [
      "a card the bank declines as it is saved",
      "pm_card_chargeDeclinedExpiredCard",
      402,
      "card_declined",
      "Kortet godkändes inte av banken. Prova ett annat kort.",
    ],
    [
      "a card the bank wants confirmed every time",
      "pm_card_authenticationRequired",
      402,
      "card_requires_action",
      "Kortet måste bekräftas hos banken varje gång och kan inte användas för automatisk betalning. Prova ett annat kort.",
    ],
    [
      "an id the provider rejects",
      "pm_nothing_like_this",
      422,
      "invalid_payment_method",
      "Kortet kunde inte sparas. Lägg till det igen på kortsidan.",
    ],
  ])("refuses %s, in Swedish, and keeps the earlier card", async (_, card, status, code, detail) => {
    const sam = await shopper();
    await saveCard(sam, "pm_card_visa");
    const before = await kept(sam);
    expectRefusal(await saveCard(sam, card), status, code, detail);
    expect(await cardOf(sam)).toEqual(visa);
    expect(await kept(sam)).toEqual(before);
    expect(heldBy(before.payment_customer_id)).toEqual([before.payment_method_id]);
  });

  it("keeps one provider customer, where a second card takes the first one's place; removing it leaves none there", async () => {
    const sam = await shopper();
    await saveCard(sam, "pm_card_visa");
    const first = await kept(sam);
    expect(heldBy(first.payment_customer_id)).toEqual([first.payment_method_id]);
    expect((await saveCard(sam, "pm_card_mastercard")).statusCode).toBe(200);
    const second = await kept(sam);
    expect(second.payment_customer_id).toBe(first.payment_customer_id);
    expect(heldBy(first.payment_customer_id)).toEqual([second.payment_method_id]);
    expect(second.payment_method_id).not.toBe(first.payment_method_id);

    expect((await removeCard(sam)).statusCode).toBe(204);
    expect(heldBy(first.payment_customer_id)).toEqual([]);
    // The customer stays for the next card.
    expect(await kept(sam)).toEqual({ payment_customer_id: first.payment_customer_id, payment_method_id: null });
  });

  it("saves on a new provider customer when the provider no longer has the shopper's", async () => {
    const sam = await shopper();
    await saveCard(sam, "pm_card_visa");
    const gone = (await kept(sam)).payment_customer_id!;
    // Deleted at the provider, say from its dashboard.
    const deleted = await fetch(`${pay.apiBase}/v1/customers/${gone}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${pay.simulator.secretKey}` },
    });
    expect(deleted.status).toBe(200);
    // Its cards went with it: there is nothing to take the place of.

    const master = await saveCard(sam, "pm_card_mastercard");
    expect(master.statusCode, master.body).toBe(200);
    expect(await cardOf(sam)).toEqual({ card: { brand: "mastercard", last4: "4444" } });
    const now = await kept(sam);
    const found = await pay.control<{ data: Array<{ id: string }> }>(`/customers?metadata[shopper_id]=${sam.id}`);
    expect(found.data.map((c) => c.id)).toEqual([now.payment_customer_id]);
    expect(now.payment_customer_id).not.toBe(gone);
    expect(heldBy(now.payment_customer_id)).toEqual([now.payment_method_id]);
  });

  it("answers 503 when the provider does not answer as the shopper's customer is made; the next try saves", async () => {
    const sam = await shopper();
    await pay.control("/faults", { mode: "drop", path: "/v1/customers" });
    expectRefusal(await saveCard(sam, "pm_card_visa"), 503, "payment_unavailable", notSavedNow);
    expect(await cardOf(sam)).toEqual({ card: null });
    expect(await kept(sam)).toEqual({ payment_customer_id: null, payment_method_id: null });

    await pay.control("/faults", {});
    expect((await saveCard(sam, "pm_card_visa")).json()).toEqual(visa);
  });

  it("answers 503 when the provider fails as the card is saved, and keeps the earlier card", async () => {
    const sam = await shopper();
    await saveCard(sam, "pm_card_visa");
    const before = await kept(sam);
    for (const path of ["/v1/customers", "/v1/setup_intents"]) {
      await pay.control("/faults", { mode: "error", path });
      expectRefusal(await saveCard(sam, "pm_card_mastercard"), 503, "payment_unavailable", notSavedNow);
      expect(await cardOf(sam)).toEqual(visa);
      expect(await kept(sam)).toEqual(before);
      expect(heldBy(before.payment_customer_id)).toEqual([before.payment_method_id]);
    }
  });

  it("keeps the card when the provider fails to remove it; the next try removes it", async () => {
    const sam = await shopper();
    await saveCard(sam, "pm_card_visa");
    const before = await kept(sam);
    await pay.control("/faults", { mode: "error", path: "/v1/payment_methods" });
    // The words say what could not be done: removed, not saved.
    expectRefusal(
      await removeCard(sam),
      503,
      "payment_unavailable",
      "Kortet kunde inte tas bort just nu. Försök igen om en stund.",
    );
    expect(await cardOf(sam)).toEqual(visa);
    expect(heldBy(before.payment_customer_id)).toEqual([before.payment_method_id]);

    await pay.control("/faults", {});
    expect((await removeCard(sam)).statusCode).toBe(204);
    expect(await cardOf(sam)).toEqual({ card: null });
    expect(heldBy(before.payment_customer_id)).toEqual([]);
  });

  it("removing with no card on file asks nothing of the provider", async () => {
    const never = await shopper();
    const before = await shopper();
    await saveCard(before, "pm_card_visa");
    expect((await removeCard(before)).statusCode).toBe(204);
    // The provider is away: only a call to it could fail.
    await pay.control("/faults", { mode: "error" });
    for (const who of [never, before]) {
      expect((await removeCard(who)).statusCode).toBe(204);
      expect(await cardOf(who)).toEqual({ card: null });
    }
  });

  it("is shown only while its id, brand and last four are all on file", async () => {
    const sam = await shopper();
    for (const column of ["payment_method_id", "card_brand", "card_last4"]) {
      await saveCard(sam, "pm_card_visa");
      expect(await cardOf(sam)).toEqual(visa);
      await ctx.app.db.execute(sql`update customers set ${sql.identifier(column)} = null where id = ${sam.id}`);
      expect(await cardOf(sam), column).toEqual({ card: null });
    }
  });

  it("answers 404 in Swedish for an account deleted after its token was checked", async () => {
    // The token check refuses a deleted account (401); this is the moment between that check and the read.
    const gone = randomUUID();
    const payments = ctx.app.payments!;
    for (const call of [
      () => paymentMethod.readCard(ctx.app.db, gone),
      () => paymentMethod.saveCard(ctx.app.db, payments, gone, "pm_card_visa"),
      () => paymentMethod.removeCard(ctx.app.db, payments, gone),
    ])
      await expect(call()).rejects.toMatchObject({
        status: 404,
        code: "unknown_customer",
        message: "Kunden finns inte.",
      });
  });
});

describe("POST /api/v1/checkout", () => {
  it("pays, and the receipt is the shopper's alone", async () => {
    const sam = await shopper();
    await saveCard(sam, "pm_card_visa");
    await inStoreWithMilk(sam, 2);
    const res = await pay_(sam);
    expect(res.statusCode, res.body).toBe(200);
    const { receipt } = checkoutResponseSchema.parse(res.json());
    expect(receipt?.items).toEqual([
      { name: "Mjölk", quantity: 2, unit_price: 17.9, total: 35.8, vat_rate: 0.25, weight_grams: null },
    ]);
    expect(receipt?.payment).toEqual({ brand: "visa", last4: "4242" });

    const list = await sam.call({ method: "GET", url: "/api/v1/receipts" });
    expect(list.json()).toEqual([
      {
        id: receipt!.id,
        number: receipt!.number,
        store_name: "Hörnbutiken",
        paid_at: receipt!.paid_at,
        total: 35.8,
        refunded: 0,
        refunds: [],
        dispute: null,
      },
    ]);
    const one = await sam.call({ method: "GET", url: `/api/v1/receipts/${receipt!.id}` });
    expect(receiptSchema.parse(one.json())).toEqual(receipt);

    const other = await shopper();
    expect((await other.call({ method: "GET", url: `/api/v1/receipts/${receipt!.id}` })).statusCode).toBe(403);
    expect((await other.call({ method: "GET", url: "/api/v1/receipts" })).json()).toEqual([]);
    // Paying for someone else is refused, and changes nothing.
    expect((await pay_(other, sam.id)).statusCode).toBe(403);
  });

  it("200 checkouts of one visit at once: one charge, one order, one receipt for all", async () => {
    const sam = await shopper();
    await saveCard(sam, "pm_card_visa");
    const visit = await inStoreWithMilk(sam, 3);
    const answers = await Promise.all(Array.from({ length: 200 }, () => pay_(sam)));
    expect(answers.map((a) => a.statusCode).filter((s) => s !== 200)).toEqual([]);
    expect(new Set(answers.map((a) => a.json().receipt.id)).size).toBe(1);
    expect(await pay.intentsFor(`${idempotencyKeyOf(visit, 1)}-authorize`)).toHaveLength(1);
    const orders = await queryRows<{ n: number }>(
      ctx.app.db,
      sql`select count(*)::int as n from orders where session_id = ${visit}`,
    );
    expect(orders[0]?.n).toBe(1);
  });

  it("a declined card answers 402 in Swedish; a provider that is away answers 503 with Retry-After", async () => {
    const sam = await shopper();
    await saveCard(sam, "pm_card_chargeDeclined");
    await inStoreWithMilk(sam);
    const declined = await pay_(sam);
    expect(declined.statusCode).toBe(402);
    expect(errorSchema.parse(declined.json()).detail).toMatch(/nekades/);

    await saveCard(sam, "pm_card_visa");
    await pay.control("/faults", { mode: "error", path: "/v1/payment_intents" });
    try {
      const away = await pay_(sam);
      expect(away.statusCode).toBe(503);
      expect(away.headers["retry-after"]).toBe("5");
      expect(errorSchema.parse(away.json()).code).toBe("payment_unavailable");
    } finally {
      await pay.control("/faults", {});
    }
    expect((await pay_(sam)).statusCode).toBe(200);
  });
});

describe("GET /api/v1/receipts", () => {
  it("lists the shopper's own paid receipts, newest first, with refunds and the dispute's state", async () => {
    const sam = await shopper();
    await saveCard(sam, "pm_card_visa");
    await inStoreWithMilk(sam, 1);
    const older = checkoutResponseSchema.parse((await pay_(sam)).json()).receipt!;
    await inStoreWithMilk(sam, 2);
    const newer = checkoutResponseSchema.parse((await pay_(sam)).json()).receipt!;
    const kim = await shopper();
    await saveCard(kim, "pm_card_visa");
    await inStoreWithMilk(kim);
    const kims = checkoutResponseSchema.parse((await pay_(kim)).json()).receipt!;
    // A visit the bank declined is no receipt.
    await saveCard(sam, "pm_card_chargeDeclined");
    const declinedVisit = await inStoreWithMilk(sam, 3);
    expect((await pay_(sam)).statusCode).toBe(402);

    const refund = await admin.post(`/api/v1/admin/orders/${older.id}/refunds`, {
      idempotency_key: randomUUID(),
      reason: "Trasig förpackning",
      whole: true,
    });
    expect(refund.statusCode, refund.body).toBe(201);
    const dispute = await sam.call({
      method: "POST",
      url: `/api/v1/receipts/${newer.id}/dispute`,
      payload: { message: "Jag tog bara en mjölk." },
    });
    expect(dispute.statusCode, dispute.body).toBe(201);

    const summary = (receipt: typeof older) => ({
      id: receipt.id,
      number: receipt.number,
      store_name: "Hörnbutiken",
      paid_at: receipt.paid_at,
    });
    expect((await sam.call({ method: "GET", url: "/api/v1/receipts" })).json()).toEqual([
      { ...summary(newer), total: 35.8, refunded: 0, refunds: [], dispute: { state: "open", resolution: null } },
      {
        ...summary(older),
        total: 17.9,
        refunded: 17.9,
        refunds: [
          {
            id: refund.json().id,
            amount: 17.9,
            state: "succeeded",
            created_at: refund.json().created_at,
            lines: [{ name: "Mjölk", quantity: 1, amount: 17.9 }],
          },
        ],
        dispute: null,
      },
    ]);
    expect((await kim.call({ method: "GET", url: "/api/v1/receipts" })).json()).toEqual([
      { ...summary(kims), total: 17.9, refunded: 0, refunds: [], dispute: null },
    ]);

    const [declined] = await queryRows<{ id: string; state: string }>(
      ctx.app.db,
      sql`select id, state from orders where session_id = ${declinedVisit}`,
    );
    expect(declined?.state).toBe("declined");
    for (const id of [declined!.id, randomUUID()])
      expectRefusal(
        await sam.call({ method: "GET", url: `/api/v1/receipts/${id}` }),
        404,
        "unknown_receipt",
        "Kvittot finns inte.",
      );
    expectRefusal(
      await kim.call({ method: "GET", url: `/api/v1/receipts/${newer.id}` }),
      403,
      "forbidden",
      "Det här är inte ditt kvitto.",
    );
  });
});
