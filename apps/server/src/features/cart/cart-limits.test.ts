import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/client.ts";
import { product, shop, shopper, type TestShopper } from "../../test/factories.ts";
import { as, createDeviceKey, createTestContext, signIn, type TestContext } from "../../test/harness.ts";
import { type PaymentHarness, startPaymentHarness } from "../../test/payments.ts";
import { idempotencyKeyOf } from "../payments/charge.ts";

/**
 * Money never overflows: a line and a cart have limits (the store's
 * settings, Swedish words), sums are bigint from the cart to the charge, and
 * the largest cart allowed is charged or declined, never a 500.
 */
let ctx: TestContext;
let pay: PaymentHarness;
let cookie: string;
let admin: ReturnType<typeof as>;

type Reply = Awaited<ReturnType<FastifyInstance["inject"]>>;
const body = (res: Reply) => [res.statusCode, res.json().code, res.json().detail];

async function storeWith(limits: { max_line_quantity?: number; max_cart_total?: number }) {
  const id = (await admin.post("/api/v1/stores/", { name: `Gränsbutiken ${randomUUID().slice(0, 6)}` })).json().id;
  const set = await admin.put(`/api/v1/settings/stores/${id}`, { settings: { store: limits } });
  expect(set.statusCode, set.body).toBe(200);
  return id as string;
}

/**
 * A store whose carts may hold 100 kr, and a visit there of 77 kr: a can of 22 kr with 2 kr pant (one more can is
 * 24 kr), bread of 52 kr and gum of 1 kr, in that order.
 */
async function cartAt77() {
  const store = await storeWith({ max_cart_total: 100 });
  const can = await product(ctx.app, cookie, 22, "food");
  expect((await admin.put(`/api/v1/products/${can.id}`, { pant_code: "can" })).statusCode).toBe(200);
  const bread = await product(ctx.app, cookie, 52, 25);
  const gum = await product(ctx.app, cookie, 1, 25);
  const who = await shopper(ctx.app);
  const visit = await shop(ctx.app, who, store, [
    [can.barcode, 1],
    [bread.barcode, 1],
    [gum.barcode, 1],
  ]);
  return { store, can, who, visit };
}

const scan = (who: TestShopper, visit: string, barcode: string) =>
  who.call({ method: "POST", url: "/api/v1/cart/scan", payload: { session_id: visit, barcode } });
const lines = async (who: TestShopper, visit: string) =>
  (await who.call({ method: "GET", url: `/api/v1/cart/${visit}` })).json().items as { id: string; quantity: number }[];

beforeAll(async () => {
  pay = await startPaymentHarness();
  ctx = await createTestContext({ STRIPE_SECRET_KEY: pay.simulator.secretKey, STRIPE_API_BASE: pay.apiBase });
  cookie = (await signIn(ctx.app)).cookie;
  admin = as(ctx.app, cookie);
});
afterAll(async () => {
  await ctx?.close();
  await pay?.close();
});

describe("a line's quantity limit", () => {
  it("takes a line up to the store's limit and refuses one more, by scan, by quantity and by the worker", async () => {
    const store = await storeWith({ max_line_quantity: 3 });
    await admin.post(`/api/v1/stores/${store}/modules/ai_product_recognition`, { enabled: true });
    const soap = await product(ctx.app, cookie, 12.5, 25);
    const who = await shopper(ctx.app);
    const visit = await shop(ctx.app, who, store, [[soap.barcode, 3]]);
    const limit = [409, "line_quantity_limit", `Du kan köpa högst 3 st av ${soap.name}.`];
    expect(body(await scan(who, visit, soap.barcode))).toEqual(limit);
    const [line] = await lines(who, visit);
    expect(line!.quantity).toBe(3);
    const put = (quantity: number) =>
      who.call({ method: "PUT", url: `/api/v1/cart/item/${line!.id}`, payload: { quantity } });
    expect(body(await put(4))).toEqual(limit);
    expect((await put(2)).statusCode).toBe(200);
    expect((await put(3)).statusCode).toBe(200);
    const worker = await createDeviceKey(ctx.app, store, "camera_worker");
    const seen = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/cart/worker",
      headers: { authorization: `Device ${worker.key}` },
      payload: { session_id: visit, product_id: soap.id, action: "add" },
    });
    expect(body(seen)).toEqual(limit);
    expect((await lines(who, visit))[0]!.quantity).toBe(3);
  });
});

describe("a cart's total limit", () => {
  it("lets the cart reach the store's limit exactly and refuses what would pass it by one öre", async () => {
    const store = await storeWith({ max_cart_total: 100 });
    const half = await product(ctx.app, cookie, 50, 25);
    const almost = await product(ctx.app, cookie, 49.99, 25);
    const cent = await product(ctx.app, cookie, 0.01, 25);
    const who = await shopper(ctx.app);
    const visit = await shop(ctx.app, who, store, [
      [half.barcode, 1],
      [almost.barcode, 1],
    ]);
    const over = [
      409,
      "cart_total_limit",
      "Kundvagnen kan vara på högst 100 kr. Betala det du har och handla resten i ett nytt besök.",
    ];
    // 99.99 kr: one öre more is exactly the limit, the next öre is over it.
    expect((await scan(who, visit, cent.barcode)).statusCode).toBe(200);
    expect(body(await scan(who, visit, cent.barcode))).toEqual(over);
    const halfLine = (await lines(who, visit))[0]!;
    const put = (quantity: number) =>
      who.call({ method: "PUT", url: `/api/v1/cart/item/${halfLine.id}`, payload: { quantity } });
    expect(body(await put(2))).toEqual(over);
    expect((await who.call({ method: "GET", url: `/api/v1/cart/${visit}` })).json().total).toBe(100);
  });

  it("lets a quantity change take the cart to exactly its limit, and not one unit past it", async () => {
    const store = await storeWith({ max_cart_total: 100 });
    const half = await product(ctx.app, cookie, 50, 25);
    const who = await shopper(ctx.app);
    const visit = await shop(ctx.app, who, store, [[half.barcode, 1]]);
    const [line] = await lines(who, visit);
    const put = (quantity: number) =>
      who.call({ method: "PUT", url: `/api/v1/cart/item/${line!.id}`, payload: { quantity } });
    expect((await put(2)).json().total).toBe(100);
    expect(body(await put(3))[1]).toBe("cart_total_limit");
  });

  it("counts a drink's pant in the total a quantity change is held to, per unit", async () => {
    const { who, visit } = await cartAt77();
    const [canLine, , gumLine] = await lines(who, visit);
    const put = (quantity: number) =>
      who.call({ method: "PUT", url: `/api/v1/cart/item/${canLine!.id}`, payload: { quantity } });
    // 77 kr: a second can would make 101 kr with its pant (99 kr without it).
    expect(body(await put(2))[1]).toBe("cart_total_limit");
    await who.call({ method: "DELETE", url: `/api/v1/cart/item/${gumLine!.id}` });
    // 76 kr: the second can makes exactly 100 kr, pant included.
    expect((await put(2)).json().total).toBe(100);
    expect(body(await put(3))[1]).toBe("cart_total_limit");
  });

  it("counts a drink's pant in the total a scan and the recognition worker are held to", async () => {
    const { store, can, who, visit } = await cartAt77();
    await admin.post(`/api/v1/stores/${store}/modules/ai_product_recognition`, { enabled: true });
    const worker = await createDeviceKey(ctx.app, store, "camera_worker");
    const seen = () =>
      ctx.app.inject({
        method: "POST",
        url: "/api/v1/cart/worker",
        headers: { authorization: `Device ${worker.key}` },
        payload: { session_id: visit, product_id: can.id, action: "add" },
      });
    // 77 kr: a second can would make 101 kr with its pant (99 kr without it), by scan or by the camera.
    expect(body(await scan(who, visit, can.barcode))[1]).toBe("cart_total_limit");
    expect(body(await seen())[1]).toBe("cart_total_limit");
    const [canLine, , gumLine] = await lines(who, visit);
    await who.call({ method: "DELETE", url: `/api/v1/cart/item/${gumLine!.id}` });
    // 76 kr: the second can makes exactly 100 kr, pant included, by scan; and again by the camera.
    expect((await scan(who, visit, can.barcode)).statusCode).toBe(200);
    const back = await who.call({ method: "PUT", url: `/api/v1/cart/item/${canLine!.id}`, payload: { quantity: 1 } });
    expect(back.statusCode, back.body).toBe(200);
    expect((await seen()).statusCode).toBe(200);
    expect((await who.call({ method: "GET", url: `/api/v1/cart/${visit}` })).json().total).toBe(100);
  });

  it("charges the largest cart a store may allow (999,999 kr), captured in full", async () => {
    const store = await storeWith({ max_cart_total: 999_999 });
    const gold = await product(ctx.app, cookie, 333_333, 25);
    const who = await shopper(ctx.app);
    const visit = await shop(ctx.app, who, store, [[gold.barcode, 3]]);
    const paid = await who.call({ method: "POST", url: "/api/v1/checkout", payload: { user_id: who.id } });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().receipt.total).toBe(999_999);
    const intents = await pay.intentsFor(`${idempotencyKeyOf(visit, 1)}-authorize`);
    expect(intents.map((i) => [i.amount, i.amount_received])).toEqual([[99_999_900, 99_999_900]]);
  });

  it("never answers 500 for a cart beyond every limit (999 of a 10,000,000 kr product): the provider declines it", async () => {
    const store = await storeWith({});
    const yacht = await product(ctx.app, cookie, 10_000_000, 25);
    const who = await shopper(ctx.app);
    const visit = await shop(ctx.app, who, store, []);
    // The default limit refuses it at the first scan already.
    expect(body(await scan(who, visit, yacht.barcode))[1]).toBe("cart_total_limit");
    // A cart made before the limits existed: 999 × 10,000,000 kr is more than 2^31 öre.
    await ctx.app.db.execute(
      sql`insert into cart_items (session_id, product_id, line_key, quantity, unit_price_ore)
          values (${visit}, ${yacht.id}, ${yacht.id}, 999, 1000000000)`,
    );
    const refused = await who.call({ method: "POST", url: "/api/v1/checkout", payload: { user_id: who.id } });
    expect(refused.statusCode, refused.body).toBe(402);
    const [order] = await queryRows<{ total_ore: number; state: string }>(
      ctx.app.db,
      sql`select total_ore, state from orders where session_id = ${visit}`,
    );
    expect(order).toEqual({ total_ore: 999_000_000_000, state: "declined" });
    const session = (await admin.get(`/api/v1/admin/sessions/${visit}`)).json();
    expect(session.total).toBe(9_990_000_000);
  });
});
