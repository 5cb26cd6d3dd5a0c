import { randomBytes } from "node:crypto";
import { checkoutResponseSchema, errorSchema, gtinCheckDigit, receiptSchema } from "@glide/contracts";
import { sql } from "drizzle-orm";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/client.ts";
import { customers } from "../../db/schema/index.ts";
import { type PaymentHarness, startPaymentHarness } from "../../platform/payments/testing.ts";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";
import { issueTokens } from "../shopper-auth/shopper-tokens.ts";
import { idempotencyKeyOf } from "./checkout.service.ts";

let ctx: TestContext;
let pay: PaymentHarness;
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
  await ctx.app.db.execute(sql`update shopping_sessions set door_opened_at = now() where id = ${id}`);
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

beforeAll(async () => {
  pay = await startPaymentHarness();
  ctx = await createTestContext({ STRIPE_SECRET_KEY: pay.simulator.secretKey, STRIPE_API_BASE: pay.apiBase });
  const admin = as(ctx.app, (await signIn(ctx.app)).cookie);
  store = (await admin.post("/api/v1/stores/", { name: "Hörnbutiken" })).json().id;
  const res = await admin.post("/api/v1/products/", { sku: "cr-milk", name: "Mjölk", price: 17.9, barcode: milk });
  expect(res.statusCode, res.body).toBe(201);
});
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
