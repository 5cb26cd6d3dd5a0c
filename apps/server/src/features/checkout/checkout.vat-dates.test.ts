import { randomBytes } from "node:crypto";
import { gtinCheckDigit, receiptSchema } from "@glide/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows, sql } from "../../db/client.ts";
import { paidVisit, shop, shopper } from "../../test/factories.ts";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";
import { type PaymentHarness, startPaymentHarness } from "../../test/payments.ts";

/**
 * The VAT rate of a line is the one valid on the store's calendar day of the
 * payment, kept on the order: at the edges of the food rate's 6 % period
 * (2026-04-01 … 2027-12-31, Stockholm time), in stores whose day turns at
 * another hour, and in a country whose table is empty. Only the sale's clock
 * moves (app.saleClock); sign-ins, scans and tokens live in the real time.
 */
let ctx: TestContext;
let pay: PaymentHarness;
let admin: ReturnType<typeof as>;
let saleAt = new Date();
const products: Record<"milk" | "soap" | "paper", { barcode: string }> = {} as never;

const ean = () => {
  const body = `7391${randomBytes(4).readUInt32BE(0).toString().padStart(8, "0").slice(0, 8)}`;
  return body + gtinCheckDigit(body);
};

beforeAll(async () => {
  pay = await startPaymentHarness();
  ctx = await createTestContext(
    { STRIPE_SECRET_KEY: pay.simulator.secretKey, STRIPE_API_BASE: pay.apiBase },
    { saleClock: () => saleAt },
  );
  admin = as(ctx.app, (await signIn(ctx.app)).cookie);
  for (const [key, vat_category, price] of [
    ["milk", "food", 17.9],
    ["soap", "standard", 24.5],
    ["paper", "books_newspapers", 28],
  ] as const) {
    const barcode = ean();
    const res = await admin.post("/api/v1/products/", {
      sku: `vd-${key}-${randomBytes(3).toString("hex")}`,
      name: key,
      price,
      vat_category,
      barcode,
    });
    expect(res.statusCode, res.body).toBe(201);
    products[key] = { barcode };
  }
});
afterAll(async () => {
  await ctx?.close();
  await pay?.close();
});

async function newStore(fields: { timezone?: string; country?: string; settings?: { vat_rate: number } } = {}) {
  const res = await admin.post("/api/v1/stores/", { name: `Momsdag ${randomBytes(3).toString("hex")}`, ...fields });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

/** Milk, soap and a newspaper paid at `instant` (UTC) in the store: each line's rate on the receipt. */
async function ratesPaidAt(storeId: string, instant: string) {
  saleAt = new Date(instant);
  const who = await shopper(ctx.app);
  const { orderId } = await paidVisit(ctx.app, who, storeId, [
    [products.milk.barcode, 1],
    [products.soap.barcode, 1],
    [products.paper.barcode, 1],
  ]);
  const res = await who.call({ method: "GET", url: `/api/v1/receipts/${orderId}` });
  expect(res.statusCode, res.body).toBe(200);
  const receipt = receiptSchema.parse(res.json());
  const byName = Object.fromEntries(receipt.items.map((item) => [item.name, item.vat_rate]));
  return { milk: byName.milk, soap: byName.soap, paper: byName.paper, vat: receipt.vat, orderId };
}

describe("food's rate on the day of sale, Stockholm time", () => {
  it("2026-03-31 23:59:59 is still 12 %; 2026-04-01 00:00 is 6 %; standard and newspapers do not move", async () => {
    const store = await newStore();
    // Summer time in Stockholm from 2026-03-29: UTC+2.
    expect(await ratesPaidAt(store, "2026-03-31T21:59:59.999Z")).toMatchObject({ milk: 0.12, soap: 0.25, paper: 0.06 });
    expect(await ratesPaidAt(store, "2026-03-31T22:00:00.000Z")).toMatchObject({ milk: 0.06, soap: 0.25, paper: 0.06 });
  });

  it("2027-12-31 23:59:59 is still 6 %; 2028-01-01 00:00 is 12 % again", async () => {
    const store = await newStore();
    // Winter time: UTC+1.
    expect(await ratesPaidAt(store, "2027-12-31T22:59:59.999Z")).toMatchObject({ milk: 0.06 });
    expect(await ratesPaidAt(store, "2027-12-31T23:00:00.000Z")).toMatchObject({ milk: 0.12 });
  });

  it("same-rate lines share one VAT line: milk and a newspaper at 6 %, soap at 25 %", async () => {
    const store = await newStore();
    const { vat } = await ratesPaidAt(store, "2026-06-15T10:00:00Z");
    // 17.90 + 28.00 = 45.90 at 6 %: 45.90 · 6/106 = 2.598… → 2.60; 24.50 at 25 %: 4.90.
    expect(vat).toEqual([
      { rate: 0.25, amount: 4.9, net: 19.6, gross: 24.5 },
      { rate: 0.06, amount: 2.6, net: 43.3, gross: 45.9 },
    ]);
  });
});

describe("the store's own calendar day", () => {
  it("a Swedish store kept on New York time changes rate at midnight in New York, six hours after Stockholm", async () => {
    const store = await newStore({ timezone: "America/New_York" });
    // Midnight in Stockholm is 18:00 on 31 March in New York: still 12 % there.
    expect((await ratesPaidAt(store, "2026-03-31T22:00:00Z")).milk).toBe(0.12);
    expect((await ratesPaidAt(store, "2026-04-01T03:59:59Z")).milk).toBe(0.12);
    expect((await ratesPaidAt(store, "2026-04-01T04:00:00Z")).milk).toBe(0.06);
  });

  it("a store on Helsinki time is an hour ahead: 23:30 in Stockholm is already 1 April there", async () => {
    const store = await newStore({ timezone: "Europe/Helsinki" });
    expect((await ratesPaidAt(store, "2026-03-31T20:59:59Z")).milk).toBe(0.12);
    expect((await ratesPaidAt(store, "2026-03-31T21:30:00Z")).milk).toBe(0.06);
  });
});

describe("a country whose table is empty", () => {
  it("every category is charged at the store's own VAT rate", async () => {
    const store = await newStore({ country: "NO", timezone: "Europe/Oslo", settings: { vat_rate: 0.15 } });
    expect(await ratesPaidAt(store, "2026-06-15T10:00:00Z")).toMatchObject({ milk: 0.15, soap: 0.15, paper: 0.15 });
  });
});

describe("the rate is kept on the order", () => {
  it("a rate changed in the table afterwards leaves a paid receipt as it was", async () => {
    const store = await newStore();
    const { orderId } = await ratesPaidAt(store, "2026-06-15T10:00:00Z");
    await ctx.app.db.execute(
      sql`update vat_rates set rate_bp = 900 where country = 'SE' and category = 'food' and valid_from = '2026-04-01'`,
    );
    try {
      const [line] = await queryRows<{ vat_rate_bp: number }>(
        ctx.app.db,
        sql`select vat_rate_bp from order_lines where order_id = ${orderId} and name = 'milk'`,
      );
      expect(line!.vat_rate_bp).toBe(600);
      // A new sale on the same day takes the table's rate as it is now.
      expect((await ratesPaidAt(store, "2026-06-15T10:05:00Z")).milk).toBe(0.09);
    } finally {
      await ctx.app.db.execute(
        sql`update vat_rates set rate_bp = 600 where country = 'SE' and category = 'food' and valid_from = '2026-04-01'`,
      );
    }
  });

  it("a cart scanned before midnight and paid after it is charged at the rate of the payment", async () => {
    const store = await newStore();
    const who = await shopper(ctx.app);
    saleAt = new Date("2026-03-31T21:59:00Z");
    await shop(ctx.app, who, store, [[products.milk.barcode, 2]]);
    saleAt = new Date("2026-03-31T22:01:00Z");
    const paid = await who.call({ method: "POST", url: "/api/v1/checkout", payload: { user_id: who.id } });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(receiptSchema.parse(paid.json().receipt).items[0]!.vat_rate).toBe(0.06);
  });
});
