import { randomUUID } from "node:crypto";
import { analyticsTopProductSchema, orderRefundsSchema, receiptSchema, sessionDetailSchema } from "@glide/contracts";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { queryRows, sql } from "../../db/client.ts";
import { printedVoucher, shopper, walkIn } from "../../test/factories.ts";
import { clearOffers, offerWorldOfFile, postOffer, SALE_DAY, scan } from "./cart-offers.fixtures.ts";

/**
 * What a paid cart keeps of its offers: the order's discounts (the kvitto's
 * lines), each spread over the lines it came from, which is where VAT per
 * rate, refunds and the products' revenue count it. Worked by hand at 6 %
 * (food) and 25 % (the soap).
 */
const world = offerWorldOfFile(clearOffers);

/** A paid visit in Lund (or `store`) with these scans; its receipt and visit. */
async function paid(codes: string[], store = world.lund) {
  const who = await shopper(world.ctx.app);
  const visit = await walkIn(world.ctx.app, who, store);
  for (const code of codes) await scan(who, visit, code);
  const res = await who.call({ method: "POST", url: "/api/v1/checkout", payload: { user_id: who.id } });
  expect(res.statusCode, res.body).toBe(200);
  return { who, visit, receipt: receiptSchema.parse(res.json().receipt) };
}

const lines = (orderId: string) =>
  queryRows<{ name: string; total_ore: number; discount_ore: number }>(
    world.ctx.app.db,
    sql`select name, total_ore, discount_ore from order_lines where order_id = ${orderId} order by position`,
  );

describe("a paid 3 för 2", () => {
  it("is a line of the kvitto; the total and the VAT are after it; the console's visit says the same", async () => {
    const offer = await postOffer(world, { label: "3 för 2 Bregott", product_ids: [world.ids.butter] });
    const { receipt, visit } = await paid(Array(3).fill(world.codes.butter));
    expect(receipt.items.map((i) => [i.name, i.quantity, i.total])).toEqual([["Bregott 500 g", 3, 149.7]]);
    expect(receipt.discounts).toEqual([{ offer_id: offer, label: "3 för 2 Bregott", times: 1, amount: 49.9 }]);
    // 99,80 at 6 %: 5,649… → 5,65.
    expect(receipt.total).toBe(99.8);
    expect(receipt.vat).toEqual([{ rate: 0.06, amount: 5.65, net: 94.15, gross: 99.8 }]);
    expect(await lines(receipt.id)).toEqual([{ name: "Bregott 500 g", total_ore: 14970, discount_ore: 4990 }]);

    const detail = sessionDetailSchema.parse((await world.admin.get(`/api/v1/admin/sessions/${visit}`)).json());
    expect(detail.order).toMatchObject({
      total: 99.8,
      discounts: [{ label: "3 för 2 Bregott", amount: 49.9 }],
      lines: [{ total: 149.7, discount: 49.9 }],
    });
  });

  it("keeps its words on the kvitto after the offer is deleted", async () => {
    const offer = await postOffer(world, { label: "3 för 2 Bregott", product_ids: [world.ids.butter] });
    const { receipt, who } = await paid(Array(3).fill(world.codes.butter));
    const gone = await world.admin.delete(`/api/v1/offers/${offer}`);
    expect(gone.statusCode, gone.body).toBe(204);
    const again = receiptSchema.parse(
      (await who.call({ method: "GET", url: `/api/v1/receipts/${receipt.id}` })).json(),
    );
    expect(again.discounts).toEqual([{ offer_id: null, label: "3 för 2 Bregott", times: 1, amount: 49.9 }]);
    expect(again.total).toBe(99.8);
  });

  it("charges the offers of the moment of payment: one that ended at midnight is gone at the exit", async () => {
    await postOffer(world, { product_ids: [world.ids.butter], ends_on: SALE_DAY });
    world.setSaleAt(`${SALE_DAY}T22:59:00Z`);
    const who = await shopper(world.ctx.app);
    const visit = await walkIn(world.ctx.app, who, world.lund);
    for (let i = 0; i < 3; i++) await scan(who, visit, world.codes.butter);
    world.setSaleAt(`${SALE_DAY}T23:00:00Z`);
    const res = await who.call({ method: "POST", url: "/api/v1/checkout", payload: { user_id: who.id } });
    expect(receiptSchema.parse(res.json().receipt)).toMatchObject({ discounts: [], total: 149.7 });
  });

  it("is no line of a kvitto without an offer", async () => {
    const { receipt } = await paid(Array(3).fill(world.codes.butter));
    expect(receipt).toMatchObject({ discounts: [], total: 149.7 });
    expect(await lines(receipt.id)).toEqual([{ name: "Bregott 500 g", total_ore: 14970, discount_ore: 0 }]);
  });
});

describe("an open cart in the console", () => {
  it("shows the day's discounts, the total after them and the vouchers, and none once paid", async () => {
    await postOffer(world, { label: "3 för 2 Bregott", product_ids: [world.ids.butter] });
    const who = await shopper(world.ctx.app);
    const visit = await walkIn(world.ctx.app, who, world.lund);
    for (let i = 0; i < 3; i++) await scan(who, visit, world.codes.butter);
    const code = await printedVoucher(world.ctx.app, world.lund, 24);
    await who.call({ method: "POST", url: "/api/v1/cart/vouchers", payload: { session_id: visit, barcode: code } });
    const read = async () =>
      sessionDetailSchema.parse((await world.admin.get(`/api/v1/admin/sessions/${visit}`)).json());

    expect(await read()).toMatchObject({
      total: 99.8,
      cart: [{ quantity: 3, total: 149.7 }],
      cart_discounts: [{ label: "3 för 2 Bregott", times: 1, amount: 49.9 }],
      cart_vouchers: [{ code, amount: 24 }],
    });
    // The sale clock's day decides: on the day after the offer ends the cart has no discount.
    world.setSaleAt("2026-11-30T22:59:59Z");
    expect((await read()).cart_discounts).toHaveLength(1);
    world.setSaleAt("2026-11-30T23:00:00Z");
    expect(await read()).toMatchObject({ total: 149.7, cart_discounts: [], cart_vouchers: [{ code, amount: 24 }] });

    world.setSaleAt(`${SALE_DAY}T10:00:00Z`);
    const paidNow = await who.call({ method: "POST", url: "/api/v1/checkout", payload: { user_id: who.id } });
    expect(paidNow.statusCode, paidNow.body).toBe(200);
    expect(await read()).toMatchObject({
      total: 99.8,
      cart_discounts: [],
      cart_vouchers: [],
      order: { discounts: [{ amount: 49.9 }], vouchers: [{ code, amount: 24 }] },
    });
  });
});

describe("a paid drink with pant in the console", () => {
  it("keeps the goods and the pant apart on the order's line", async () => {
    const { visit } = await paid([world.codes.soda, world.codes.soda]);
    const detail = sessionDetailSchema.parse((await world.admin.get(`/api/v1/admin/sessions/${visit}`)).json());
    // 2 × 12,90 of goods, and 2 × 2,00 of pant beside them; the order's total has both.
    expect(detail.order).toMatchObject({
      total: 29.8,
      lines: [{ quantity: 2, total: 25.8, pant: { unit: 2, total: 4 } }],
    });
  });
});

describe("an open cart in the console, before any goods", () => {
  it("shows a voucher scanned first", async () => {
    const who = await shopper(world.ctx.app);
    const visit = await walkIn(world.ctx.app, who, world.lund);
    const code = await printedVoucher(world.ctx.app, world.lund, 5);
    await who.call({ method: "POST", url: "/api/v1/cart/vouchers", payload: { session_id: visit, barcode: code } });
    const detail = sessionDetailSchema.parse((await world.admin.get(`/api/v1/admin/sessions/${visit}`)).json());
    expect(detail).toMatchObject({ total: 0, cart: [], cart_discounts: [], cart_vouchers: [{ code, amount: 5 }] });
  });
});

describe("an amount over two VAT rates", () => {
  it("2 för 35 kr over juice (6 %) and soap (25 %): 9,80 off shared by price, VAT on what was paid per rate", async () => {
    await postOffer(world, {
      label: "2 för 35 kr",
      kind: "amount",
      amount: 35,
      buy: 2,
      product_ids: [world.ids.juice, world.ids.soap],
    });
    const { receipt } = await paid([world.codes.juice, world.codes.soap]);
    // 44,80 for 35,00. By price: 4,3531 off the juice and 5,4469 off the soap → 4,35 and 5,45 (the larger remainder).
    expect(await lines(receipt.id)).toEqual([
      { name: "Juice 1 l", total_ore: 1990, discount_ore: 435 },
      { name: "Tvål", total_ore: 2490, discount_ore: 545 },
    ]);
    // 6 %: 15,55 → 0,8802 → 0,88. 25 %: 19,45 → 3,89.
    expect(receipt.total).toBe(35);
    expect([...receipt.vat].sort((a, b) => a.rate - b.rate)).toEqual([
      { rate: 0.06, amount: 0.88, net: 14.67, gross: 15.55 },
      { rate: 0.25, amount: 3.89, net: 15.56, gross: 19.45 },
    ]);
    const [order] = await queryRows<{ total_ore: number; vat_ore: number }>(
      world.ctx.app.db,
      sql`select total_ore, vat_ore from orders where id = ${receipt.id}`,
    );
    expect(order).toEqual({ total_ore: 3500, vat_ore: 477 });
  });
});

describe("refunds and analytics of discounted goods", () => {
  it("a refund gives back what was paid: one Bregott of a 3 för 2 is 33,26, all three 99,80", async () => {
    await postOffer(world, { product_ids: [world.ids.butter] });
    const { receipt } = await paid(Array(3).fill(world.codes.butter));
    const url = `/api/v1/admin/orders/${receipt.id}/refunds`;
    const before = orderRefundsSchema.parse((await world.admin.get(url)).json());
    expect(before.lines[0]).toMatchObject({ quantity: 3, total_ore: 9980 });
    const ask = (body: object) => world.admin.post(url, { idempotency_key: randomUUID(), reason: "Trasig", ...body });
    const one = await ask({ lines: [{ line_id: before.lines[0]!.id, quantity: 1 }] });
    expect(one.statusCode, one.body).toBe(201);
    expect(one.json().amount).toBe(33.26);
    const rest = await ask({ whole: true });
    expect(rest.statusCode, rest.body).toBe(201);
    expect(rest.json().amount).toBe(66.54);
    const nothing = await ask({ whole: true });
    expect(nothing.statusCode).toBe(409);
    expect(orderRefundsSchema.parse((await world.admin.get(url)).json())).toMatchObject({
      total: 99.8,
      refunded: 99.8,
    });
  });

  it("a product's revenue is after its discounts; a product without one counts in full", async () => {
    await postOffer(world, { product_ids: [world.ids.butter] });
    // Malmö: the only sale there.
    await paid([...Array(3).fill(world.codes.butter), world.codes.juice], world.malmo);
    const res = await world.admin.get(
      `/api/v1/admin/analytics/top-products?from=${SALE_DAY}&to=${SALE_DAY}&store_id=${world.malmo}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const top = z.array(analyticsTopProductSchema).parse(res.json());
    expect(top.map((p) => [p.name, p.quantity, p.revenue])).toEqual([
      ["Bregott 500 g", 3, 99.8],
      ["Juice 1 l", 1, 19.9],
    ]);
  });
});
