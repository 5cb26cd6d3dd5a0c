import { analyticsSummarySchema, gtinCheckDigit, receiptSchema, type SessionDetail } from "@glide/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows, sql } from "../../db/client.ts";
import { paidVisit, product, SOLD_WHEN_FOOD_WAS_12, shopper, type TestShopper } from "../../test/factories.ts";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";
import { type PaymentHarness, startPaymentHarness } from "../../test/payments.ts";
import { idempotencyKeyOf } from "../payments/charge.ts";

/**
 * What a paid order keeps, where a per-line or truncating sum would differ
 * by an öre: VAT is G·r/(1+r) rounded once per rate (vat.ts), and a weight
 * label is charged at its price rounded to the öre. Every reader of the
 * order agrees: the order row, the receipt, the console and the analytics
 * rollups its triggers keep.
 */
let ctx: TestContext;
let pay: PaymentHarness;
let cookie: string;
let admin: ReturnType<typeof as>;

const ean = (body12: string) => body12 + gtinCheckDigit(body12);

beforeAll(async () => {
  pay = await startPaymentHarness();
  ctx = await createTestContext(
    { STRIPE_SECRET_KEY: pay.simulator.secretKey, STRIPE_API_BASE: pay.apiBase },
    { saleClock: () => SOLD_WHEN_FOOD_WAS_12 },
  );
  cookie = (await signIn(ctx.app)).cookie;
  admin = as(ctx.app, cookie);
});
afterAll(async () => {
  await ctx?.close();
  await pay?.close();
});

/** A store of the test's own, so its analytics hold only the test's orders. */
async function newStore(name: string) {
  const res = await admin.post("/api/v1/stores/", { name });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

const orderRow = async (orderId: string) =>
  (
    await queryRows<{ total_ore: number; vat_ore: number }>(
      ctx.app.db,
      sql`select total_ore::int as total_ore, vat_ore::int as vat_ore from orders where id = ${orderId}`,
    )
  )[0]!;
const receiptOf = async (who: TestShopper, orderId: string) => {
  const res = await who.call({ method: "GET", url: `/api/v1/receipts/${orderId}` });
  expect(res.statusCode, res.body).toBe(200);
  return receiptSchema.parse(res.json());
};
const consoleOrder = async (visit: string) => {
  const res = await admin.get(`/api/v1/admin/sessions/${visit}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as SessionDetail).order!;
};

/** The analytics of the order's store on the store-local day it was paid (the store is fresh: only this test's orders). */
async function analyticsOf(orderId: string) {
  const [paid] = await queryRows<{ store_id: string; day: string }>(
    ctx.app.db,
    sql`select o.store_id, to_char((o.paid_at at time zone s.timezone)::date, 'YYYY-MM-DD') as day
        from orders o join stores s on s.id = o.store_id where o.id = ${orderId}`,
  );
  const res = await admin.get(
    `/api/v1/admin/analytics/summary?from=${paid!.day}&to=${paid!.day}&store_id=${paid!.store_id}`,
  );
  expect(res.statusCode, res.body).toBe(200);
  return analyticsSummarySchema.parse(res.json());
}

describe("VAT on a paid order, per rate", () => {
  it("two different 34.50 kr products at 12 %: 7.39 kr VAT (once for 69 kr), not 7.40 (3.70 per line)", async () => {
    const store = await newStore("Momsbutiken");
    const coffee = await product(ctx.app, cookie, 34.5, 12);
    const tea = await product(ctx.app, cookie, 34.5, 12);
    const who = await shopper(ctx.app);
    const { visit, orderId } = await paidVisit(ctx.app, who, store, [
      [coffee.barcode, 1],
      [tea.barcode, 1],
    ]);
    expect(await orderRow(orderId)).toEqual({ total_ore: 6900, vat_ore: 739 });

    const receipt = await receiptOf(who, orderId);
    expect(receipt.items.map((i) => [i.name, i.total, i.vat_rate])).toEqual([
      [coffee.name, 34.5, 0.12],
      [tea.name, 34.5, 0.12],
    ]);
    expect(receipt.vat).toEqual([{ rate: 0.12, amount: 7.39, net: 61.61, gross: 69 }]);

    expect(await consoleOrder(visit)).toMatchObject({ total: 69, vat: 7.39 });
    expect(await analyticsOf(orderId)).toMatchObject({
      revenue: 69,
      vat: 7.39,
      revenue_excl_vat: 61.61,
      orders: 1,
      items: 2,
    });
  });

  it("rounds each rate once, not each line and not the whole order: 7.39 + 2.49 = 9.88 kr", async () => {
    // At 12 %: 7.3929 → 7.39; at 25 %: 12.47 / 5 = 2.494 → 2.49. Per line: 3.70 + 3.70 + 2.49 = 9.89;
    // the unrounded sum 9.8869 rounded once: 9.89.
    const store = await newStore("Två satser");
    const coffee = await product(ctx.app, cookie, 34.5, 12);
    const tea = await product(ctx.app, cookie, 34.5, 12);
    const candle = await product(ctx.app, cookie, 12.47, 25);
    const who = await shopper(ctx.app);
    const { visit, orderId } = await paidVisit(ctx.app, who, store, [
      [coffee.barcode, 1],
      [candle.barcode, 1],
      [tea.barcode, 1],
    ]);
    expect(await orderRow(orderId)).toEqual({ total_ore: 8147, vat_ore: 988 });
    expect((await receiptOf(who, orderId)).vat).toEqual([
      { rate: 0.25, amount: 2.49, net: 9.98, gross: 12.47 },
      { rate: 0.12, amount: 7.39, net: 61.61, gross: 69 },
    ]);
    expect(await consoleOrder(visit)).toMatchObject({ total: 81.47, vat: 9.88 });
    expect(await analyticsOf(orderId)).toMatchObject({ revenue: 81.47, vat: 9.88 });
  });

  it("one line of two units is one amount at its rate too: 69 kr at 12 % is 7.39 kr", async () => {
    const store = await newStore("En rad");
    const coffee = await product(ctx.app, cookie, 34.5, 12);
    const who = await shopper(ctx.app);
    const { orderId } = await paidVisit(ctx.app, who, store, [[coffee.barcode, 2]]);
    expect(await orderRow(orderId)).toEqual({ total_ore: 6900, vat_ore: 739 });
    expect((await receiptOf(who, orderId)).vat).toEqual([{ rate: 0.12, amount: 7.39, net: 61.61, gross: 69 }]);
  });
});

describe("a weight label, paid", () => {
  it("is charged at its price rounded to the öre: 6.50 kr for 500 g at 12.99 kr/kg, 10.40 kr for 801 g", async () => {
    const store = await newStore("Vågen");
    const res = await admin.post("/api/v1/products/", {
      sku: "ck-weight",
      name: "Oliver i lösvikt",
      price: 12.99,
      barcode: ean("230200010000"),
    });
    expect(res.statusCode, res.body).toBe(201);
    const who = await shopper(ctx.app);
    // Prefix 23: 0500 is 0.500 kg (649.5 öre: half rounds up), 0801 is 0.801 kg (1040.499 öre: rounds down).
    const { visit, orderId } = await paidVisit(ctx.app, who, store, [
      [ean("230200010500"), 1],
      [ean("230200010801"), 1],
    ]);
    expect(await orderRow(orderId)).toEqual({ total_ore: 1690, vat_ore: 338 });
    const receipt = await receiptOf(who, orderId);
    expect(receipt.items.map((i) => [i.weight_grams, i.quantity, i.unit_price, i.total])).toEqual([
      [500, 1, 6.5, 6.5],
      [801, 1, 10.4, 10.4],
    ]);
    expect(receipt.total).toBe(16.9);
    const intents = await pay.intentsFor(`${idempotencyKeyOf(visit, 1)}-authorize`);
    expect(intents.map((i) => [i.amount, i.amount_received])).toEqual([[1690, 1690]]);
    expect(await analyticsOf(orderId)).toMatchObject({ revenue: 16.9, vat: 3.38, items: 2 });
  });
});
