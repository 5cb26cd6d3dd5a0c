import { randomUUID } from "node:crypto";
import { checkoutResponseSchema, errorSchema, receiptSchema } from "@glide/contracts";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/client.ts";
import { shop, type TestShopper } from "../../test/factories.ts";
import { idempotencyKeyOf } from "../payments/charge.ts";
import {
  admin,
  closeCheckoutRouteTests,
  ctx,
  expectRefusal,
  milk,
  openCheckoutRouteTests,
  pay,
  saveCard,
  shopper,
  store,
} from "./checkout.routes.fixtures.ts";

beforeAll(openCheckoutRouteTests);
afterEach(() => pay.control("/faults", {}));
afterAll(closeCheckoutRouteTests);

/** `who` through the door with `pieces` of milk in the cart. */
const inStoreWithMilk = (who: TestShopper, pieces = 1): Promise<string> => shop(ctx.app, who, store, [[milk, pieces]]);

const pay_ = (who: TestShopper, user_id = who.id) =>
  who.call({ method: "POST", url: "/api/v1/checkout", payload: { user_id } });

describe("POST /api/v1/checkout", () => {
  it("pays, and the receipt is the shopper's alone", async () => {
    const sam = await shopper();
    await saveCard(sam, "pm_card_visa");
    await inStoreWithMilk(sam, 2);
    const res = await pay_(sam);
    expect(res.statusCode, res.body).toBe(200);
    const { receipt } = checkoutResponseSchema.parse(res.json());
    expect(receipt?.items).toEqual([
      {
        name: "Mjölk",
        quantity: 2,
        unit_price: 17.9,
        ordinary_unit_price: null,
        total: 35.8,
        vat_rate: 0.25,
        weight_grams: null,
        pant: null,
      },
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

  it("refuses to pay with someone else's user_id, before anything is charged", async () => {
    const sam = await shopper();
    await saveCard(sam, "pm_card_visa");
    await inStoreWithMilk(sam);
    const other = await shopper();
    await saveCard(other, "pm_card_visa");
    await inStoreWithMilk(other);
    const res = await pay_(other, sam.id);
    expect(res.statusCode).toBe(403);
    expect(errorSchema.parse(res.json()).detail).toBe("Du kan bara betala för ditt eget besök.");
    // Neither visit was charged: not the one named, not the caller's own.
    const orders = await queryRows<{ n: number }>(
      ctx.app.db,
      sql`select count(*)::int as n from orders o join shopping_sessions s on s.id = o.session_id
          where s.customer_id in (${sam.id}, ${other.id})`,
    );
    expect(orders[0]?.n).toBe(0);
    // The shopper's own call still pays.
    expect((await pay_(sam)).statusCode).toBe(200);
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
