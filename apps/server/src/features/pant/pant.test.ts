import { randomBytes, randomUUID } from "node:crypto";
import { cartSchema, gtinCheckDigit, type PantCode, productSchema, receiptSchema } from "@glide/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows, sql } from "../../db/client.ts";
import { paidVisit, shop, shopper } from "../../test/factories.ts";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";
import { type PaymentHarness, startPaymentHarness } from "../../test/payments.ts";

/**
 * Pant through the API: a product's mark, its amount in the store's country
 * fixed on the cart line, charged and taxed with its drink, printed as a
 * line of its own under it, and refunded with it.
 */
let ctx: TestContext;
let pay: PaymentHarness;
let admin: ReturnType<typeof as>;
let swedish: string;

const ean = () => {
  const body = `7392${randomBytes(4).readUInt32BE(0).toString().padStart(8, "0").slice(0, 8)}`;
  return body + gtinCheckDigit(body);
};

async function drink(price: number, pant_code: PantCode | null, vat_category = "food") {
  const barcode = ean();
  const res = await admin.post("/api/v1/products/", {
    sku: `pant-${randomBytes(4).toString("hex")}`,
    name: `Dryck ${barcode.slice(-5)}`,
    price,
    vat_category,
    barcode,
    ...(pant_code === null ? {} : { pant_code }),
  });
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json().id as string, barcode, name: res.json().name as string };
}

async function newStore(country = "SE") {
  const res = await admin.post("/api/v1/stores/", { name: `Pantbutik ${randomBytes(3).toString("hex")}`, country });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

beforeAll(async () => {
  pay = await startPaymentHarness();
  ctx = await createTestContext({ STRIPE_SECRET_KEY: pay.simulator.secretKey, STRIPE_API_BASE: pay.apiBase });
  admin = as(ctx.app, (await signIn(ctx.app)).cookie);
  swedish = await newStore();
});
afterAll(async () => {
  await ctx?.close();
  await pay?.close();
});

describe("a product's pant mark", () => {
  it("is kept and answered, cleared with null or an empty text, and refused when it is not a mark", async () => {
    const can = await drink(12.9, "pet_large");
    expect(productSchema.parse((await admin.get(`/api/v1/products/${can.id}`)).json()).pant_code).toBe("pet_large");
    const cleared = await admin.put(`/api/v1/products/${can.id}`, { pant_code: "" });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json().pant_code).toBeNull();
    const again = await admin.put(`/api/v1/products/${can.id}`, { pant_code: "can" });
    expect(again.json().pant_code).toBe("can");
    const kept = await admin.put(`/api/v1/products/${can.id}`, { price: 13.5 });
    expect(kept.json().pant_code).toBe("can");
    expect((await admin.put(`/api/v1/products/${can.id}`, { pant_code: null })).json().pant_code).toBeNull();

    const bad = await admin.post("/api/v1/products/", {
      sku: `pant-bad-${ean()}`,
      name: "Glasflaska",
      price: 10,
      pant_code: "glass",
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail).toMatch(/pant code/i);
  });

  it("travels through the CSV export and import", async () => {
    const can = await drink(9.9, "can_1kr");
    const csv = await admin.get("/api/v1/products/export");
    expect(csv.statusCode).toBe(200);
    const [header, ...rows] = csv.body
      .replace(/^\uFEFF/, "")
      .trim()
      .split(/\r?\n/);
    const column = header!.split(",").indexOf("pant_code");
    expect(column).toBeGreaterThan(-1);
    const row = rows.find((line) => line.includes(can.barcode.slice(1)) || line.includes(can.barcode));
    expect(row?.split(",")[column]).toBe("can_1kr");
  });
});

describe("the pant on the cart", () => {
  it("is a line's own amount per unit in the store's country, counted per unit, and in the cart's total", async () => {
    const cola = await drink(12.9, "can");
    const large = await drink(24.5, "pet_large");
    const crisps = await drink(19.9, null);
    const who = await shopper(ctx.app);
    const visit = await shop(ctx.app, who, swedish, [
      [cola.barcode, 3],
      [large.barcode, 1],
      [crisps.barcode, 1],
    ]);
    const cart = cartSchema.parse((await who.call({ method: "GET", url: `/api/v1/cart/${visit}` })).json());
    const byName = Object.fromEntries(cart.items.map((item) => [item.product.name, item]));
    expect(byName[cola.name]).toMatchObject({ quantity: 3, total_price: 38.7, pant: { unit: 2, total: 6 } });
    expect(byName[large.name]).toMatchObject({ total_price: 24.5, pant: { unit: 3, total: 3 } });
    expect(byName[crisps.name]!.pant).toBeNull();
    // 38.70 + 24.50 + 19.90 of goods and 6 + 3 of pant.
    expect(cart.total).toBe(92.1);

    // A quantity change counts the pant again; the last unit taken away takes its pant with it.
    const line = byName[cola.name]!;
    const fewer = await who.call({ method: "PUT", url: `/api/v1/cart/item/${line.id}`, payload: { quantity: 1 } });
    expect(fewer.statusCode, fewer.body).toBe(200);
    const after = cartSchema.parse((await who.call({ method: "GET", url: `/api/v1/cart/${visit}` })).json());
    expect(after.items.find((item) => item.id === line.id)).toMatchObject({ pant: { unit: 2, total: 2 } });
    expect(after.total).toBe(92.1 - 2 * 12.9 - 2 * 2);
  });

  it("is none in a country without the mark, and the amount a line got stays when the country's changes", async () => {
    const cola = await drink(12.9, "can");
    const danish = await newStore("DK");
    const who = await shopper(ctx.app);
    const visit = await shop(ctx.app, who, danish, [[cola.barcode, 2]]);
    const cart = cartSchema.parse((await who.call({ method: "GET", url: `/api/v1/cart/${visit}` })).json());
    expect(cart.items[0]!.pant).toBeNull();
    expect(cart.total).toBe(25.8);

    const other = await shopper(ctx.app);
    const inSweden = await shop(ctx.app, other, swedish, [[cola.barcode, 1]]);
    await ctx.app.db.execute(sql`update pant_amounts set amount_ore = 250 where country = 'SE' and code = 'can'`);
    try {
      await other.call({
        method: "POST",
        url: "/api/v1/cart/scan",
        payload: { session_id: inSweden, barcode: cola.barcode },
      });
      const kept = cartSchema.parse((await other.call({ method: "GET", url: `/api/v1/cart/${inSweden}` })).json());
      expect(kept.items[0]).toMatchObject({ quantity: 2, pant: { unit: 2, total: 4 } });
    } finally {
      await ctx.app.db.execute(sql`update pant_amounts set amount_ore = 200 where country = 'SE' and code = 'can'`);
    }
  });

  it("counts toward the cart's limit: a scan whose pant would pass it is refused, one that reaches it is not", async () => {
    const cola = await drink(8, "can");
    const limited = await newStore();
    const set = await admin.put(`/api/v1/settings/stores/${limited}`, { settings: { store: { max_cart_total: 20 } } });
    expect(set.statusCode, set.body).toBe(200);
    const who = await shopper(ctx.app);
    // Two cans are 2 × (8 + 2) = 20 kr: at the limit. A third would be 30 kr.
    const visit = await shop(ctx.app, who, limited, [[cola.barcode, 2]]);
    const third = await who.call({
      method: "POST",
      url: "/api/v1/cart/scan",
      payload: { session_id: visit, barcode: cola.barcode },
    });
    expect(third.statusCode, third.body).toBe(409);
    const cart = cartSchema.parse((await who.call({ method: "GET", url: `/api/v1/cart/${visit}` })).json());
    expect(cart.total).toBe(20);
  });
});

describe("the pant on the order and the receipt", () => {
  it("is charged with its drink, shown under it, and taxed at the drink's rate", async () => {
    const folkol = await drink(10, "can", "food");
    const soda = await drink(20, "pet_large", "standard");
    const who = await shopper(ctx.app);
    const { orderId } = await paidVisit(ctx.app, who, swedish, [
      [folkol.barcode, 3],
      [soda.barcode, 1],
    ]);
    const receipt = receiptSchema.parse((await who.call({ method: "GET", url: `/api/v1/receipts/${orderId}` })).json());
    const byName = Object.fromEntries(receipt.items.map((item) => [item.name, item]));
    expect(byName[folkol.name]).toMatchObject({ quantity: 3, unit_price: 10, total: 30, pant: { unit: 2, total: 6 } });
    expect(byName[soda.name]).toMatchObject({ total: 20, pant: { unit: 3, total: 3 } });
    expect(receipt.total).toBe(59);
    // Food is 6 % on this day: 36 kr of folköl and its pant; 23 kr of soda and its pant at 25 %.
    const rates = Object.fromEntries(receipt.vat.map((rate) => [rate.rate, rate]));
    expect(rates[0.06]).toMatchObject({ gross: 36, amount: 2.04 });
    expect(rates[0.25]).toMatchObject({ gross: 23, amount: 4.6 });
    const [order] = await queryRows<{ total_ore: number; payment_intent_id: string }>(
      ctx.app.db,
      sql`select total_ore, payment_intent_id from orders where id = ${orderId}`,
    );
    expect(Number(order!.total_ore)).toBe(5900);
  });

  it("is refunded with its product: one can given back returns its price and its pant", async () => {
    const folkol = await drink(10, "can", "food");
    const who = await shopper(ctx.app);
    const { orderId } = await paidVisit(ctx.app, who, swedish, [[folkol.barcode, 3]]);
    const [line] = await queryRows<{ id: string }>(
      ctx.app.db,
      sql`select id from order_lines where order_id = ${orderId}`,
    );
    const one = await admin.post(`/api/v1/admin/orders/${orderId}/refunds`, {
      idempotency_key: randomUUID(),
      lines: [{ line_id: line!.id, quantity: 1 }],
      reason: "Trasig burk",
    });
    expect(one.statusCode, one.body).toBe(201);
    expect(one.json().amount).toBe(12);
    const rest = await admin.post(`/api/v1/admin/orders/${orderId}/refunds`, {
      idempotency_key: randomUUID(),
      whole: true,
      reason: "Resten",
    });
    expect(rest.json().amount).toBe(24);
  });
});
