import { randomUUID } from "node:crypto";
import { cartScanResponseSchema, cartSchema, gtinCheckDigit, productLookupSchema } from "@glide/contracts";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows, sql } from "../../db/client.ts";
import { product, shop, shopper, type TestShopper } from "../../test/factories.ts";
import { as, createDeviceKey, createTestContext, signIn, type TestContext } from "../../test/harness.ts";

/**
 * The cart's SQL at its edges: a weight label priced to the nearest öre
 * (half an öre up), the limits held against what a label really costs and
 * against a cart beyond 2^31 öre, and which scans move the visit's last
 * activity (what the abandoned sweep reads).
 */
let ctx: TestContext;
let cookie: string;
let admin: ReturnType<typeof as>;
let store: string;

type Reply = Awaited<ReturnType<FastifyInstance["inject"]>>;
const body = (res: Reply) => [res.statusCode, res.json().code, res.json().detail];
const ean = (body12: string) => body12 + gtinCheckDigit(body12);
/** A weight label (prefix 23: kilograms with three decimals) of `item` (6 digits) weighing `grams`. */
const weightLabel = (item: string, grams: number) => ean(`23${item}${String(grams).padStart(4, "0")}`);

const scan = (who: TestShopper, visit: string, barcode: string, scanId?: string) =>
  who.call({
    method: "POST",
    url: "/api/v1/cart/scan",
    payload: { session_id: visit, barcode, ...(scanId ? { scan_id: scanId } : {}) },
  });
const cartOf = async (who: TestShopper, visit: string) => {
  const res = await who.call({ method: "GET", url: `/api/v1/cart/${visit}` });
  expect(res.statusCode, res.body).toBe(200);
  return cartSchema.parse(res.json());
};

/** A product sold by weight, registered by its label with value 0000; `perKg` in kronor. */
async function byWeight(item: string, perKg: number) {
  const res = await admin.post("/api/v1/products/", {
    sku: `w-${item}`,
    name: `Lösvikt ${item}`,
    price: perKg,
    barcode: weightLabel(item, 0),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

async function storeWith(limits: { max_line_quantity?: number; max_cart_total?: number }) {
  const id = (await admin.post("/api/v1/stores/", { name: `Gräns ${randomUUID().slice(0, 6)}` })).json().id as string;
  const set = await admin.put(`/api/v1/settings/stores/${id}`, { settings: { store: limits } });
  expect(set.statusCode, set.body).toBe(200);
  return id;
}

beforeAll(async () => {
  ctx = await createTestContext();
  cookie = (await signIn(ctx.app)).cookie;
  admin = as(ctx.app, cookie);
  store = (await admin.post("/api/v1/stores/", { name: "Vågbutiken" })).json().id;
  await byWeight("100001", 12.99);
  await byWeight("100002", 20.01);
});
afterAll(() => ctx?.close());

describe("a weight label's price: weight × price per kilogram, to the nearest öre", () => {
  // 12.99 kr/kg: 500 g is 649.5 öre exactly, 199 g 258.501 öre, 801 g 1040.499 öre.
  const labels = [
    { grams: 500, price: 6.5, why: "half an öre rounds up (truncated: 6.49)" },
    { grams: 199, price: 2.59, why: "just over half rounds up (truncated: 2.58)" },
    { grams: 801, price: 10.4, why: "just under half rounds down (rounded up: 10.41)" },
  ];

  it("adds each label at its rounded price, on a line of its own, and the cart's total is their sum", async () => {
    const who = await shopper(ctx.app, { card: null });
    const visit = await shop(ctx.app, who, store, []);
    for (const { grams, price, why } of labels) {
      const res = await scan(who, visit, weightLabel("100001", grams));
      expect(res.statusCode, res.body).toBe(200);
      const { item } = cartScanResponseSchema.parse(res.json());
      expect([item.weight_grams, item.unit_price, item.total_price, item.quantity], why).toEqual([
        grams,
        price,
        price,
        1,
      ]);
    }
    const cart = await cartOf(who, visit);
    expect(cart.items.map((i) => [i.weight_grams, i.unit_price])).toEqual(labels.map((l) => [l.grams, l.price]));
    expect(cart.total).toBe(19.49);
    const stored = await queryRows<{ unit_price_ore: number }>(
      ctx.app.db,
      sql`select unit_price_ore from cart_items where session_id = ${visit} order by created_at, id`,
    );
    expect(stored.map((s) => s.unit_price_ore)).toEqual([650, 259, 1040]);
  });

  it("is the same price the products lookup gives for the label", async () => {
    for (const { grams, price, why } of labels) {
      const res = await admin.get(`/api/v1/products/lookup/${weightLabel("100001", grams)}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(productLookupSchema.parse(res.json()), why).toMatchObject({
        measure: { kind: "weight", weight_grams: grams },
        line_price: price,
      });
    }
  });
});

describe("the cart's limits against labels", () => {
  it("holds the cart's total to what a label costs once rounded: 10.01 kr is over a 10 kr limit, 9.98 kr is not", async () => {
    const limited = await storeWith({ max_cart_total: 10 });
    const who = await shopper(ctx.app, { card: null });
    const visit = await shop(ctx.app, who, limited, []);
    // 20.01 kr/kg × 0.500 kg = 10.005 kr → 10.01 kr; × 0.499 kg = 9.98499 kr → 9.98 kr.
    expect(body(await scan(who, visit, weightLabel("100002", 500)))).toEqual([
      409,
      "cart_total_limit",
      "Kundvagnen kan vara på högst 10 kr. Betala det du har och handla resten i ett nytt besök.",
    ]);
    const fits = await scan(who, visit, weightLabel("100002", 499));
    expect(fits.statusCode, fits.body).toBe(200);
    expect(fits.json().item.unit_price).toBe(9.98);
    expect((await cartOf(who, visit)).total).toBe(9.98);
  });

  it("counts a label's own line against the line limit, and another label of the item as a new line", async () => {
    const limited = await storeWith({ max_line_quantity: 2 });
    const who = await shopper(ctx.app, { card: null });
    const visit = await shop(ctx.app, who, limited, []);
    const label = weightLabel("100001", 300);
    expect((await scan(who, visit, label)).json().item.quantity).toBe(1);
    expect((await scan(who, visit, label)).json().item.quantity).toBe(2);
    expect(body(await scan(who, visit, label))[1]).toBe("line_quantity_limit");
    const other = await scan(who, visit, weightLabel("100001", 301));
    expect(other.statusCode, other.body).toBe(200);
    expect(other.json().item.quantity).toBe(1);
    expect((await cartOf(who, visit)).items.map((i) => [i.weight_grams, i.quantity])).toEqual([
      [300, 2],
      [301, 1],
    ]);
  });

  it("refuses more goods in a cart already past 2^31 öre with 409 from a scan, a quantity change and the worker", async () => {
    await admin.post(`/api/v1/stores/${store}/modules/ai_product_recognition`, { enabled: true });
    const milk = await product(ctx.app, cookie, 17.9, 12);
    const yacht = await product(ctx.app, cookie, 10_000_000, 25);
    const who = await shopper(ctx.app, { card: null });
    const visit = await shop(ctx.app, who, store, [[milk.barcode, 1]]);
    // A cart from before the limits: 999 × 10,000,000 kr, far past what an int of öre holds.
    await ctx.app.db.execute(
      sql`insert into cart_items (session_id, product_id, line_key, quantity, unit_price_ore)
          values (${visit}, ${yacht.id}, ${yacht.id}, 999, 1000000000)`,
    );
    expect(body(await scan(who, visit, milk.barcode)).slice(0, 2)).toEqual([409, "cart_total_limit"]);
    const line = (await cartOf(who, visit)).items.find((i) => i.product.id === milk.id)!;
    const put = await who.call({ method: "PUT", url: `/api/v1/cart/item/${line.id}`, payload: { quantity: 2 } });
    expect(body(put).slice(0, 2)).toEqual([409, "cart_total_limit"]);
    const worker = await createDeviceKey(ctx.app, store, "camera_worker");
    const seen = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/cart/worker",
      headers: { authorization: `Device ${worker.key}` },
      payload: { session_id: visit, product_id: milk.id, action: "add" },
    });
    expect(body(seen).slice(0, 2)).toEqual([409, "cart_total_limit"]);
    expect((await cartOf(who, visit)).items.map((i) => i.quantity)).toEqual([1, 999]);
  });
});

describe("which scans keep a visit active", () => {
  const setQuiet = (visit: string, seconds: number) =>
    ctx.app.db.execute(
      sql`update shopping_sessions set last_activity_at = now() - make_interval(secs => ${seconds}) where id = ${visit}`,
    );
  const lastActivity = async (visit: string) =>
    new Date(
      (
        await queryRows<{ at: Date | string }>(
          ctx.app.db,
          sql`select last_activity_at as at from shopping_sessions where id = ${visit}`,
        )
      )[0]!.at,
    ).getTime();

  it("moves the last activity on a scan only once it is over 30 seconds old", async () => {
    const bread = await product(ctx.app, cookie, 32.5, 12);
    const who = await shopper(ctx.app, { card: null });
    const visit = await shop(ctx.app, who, store, []);
    await setQuiet(visit, 25);
    const recent = await lastActivity(visit);
    expect((await scan(who, visit, bread.barcode)).statusCode).toBe(200);
    expect(await lastActivity(visit)).toBe(recent);
    await setQuiet(visit, 35);
    const stale = await lastActivity(visit);
    const before = Date.now();
    expect((await scan(who, visit, bread.barcode)).statusCode).toBe(200);
    const moved = await lastActivity(visit);
    expect(moved).toBeGreaterThan(stale + 30_000);
    expect(moved).toBeGreaterThanOrEqual(before - 5_000);
  });

  it("leaves it where it was after a scan that added nothing: refused, or a scan id already counted", async () => {
    const soap = await product(ctx.app, cookie, 24.5);
    const off = await admin.post("/api/v1/products/", {
      sku: `off-${randomUUID().slice(0, 6)}`,
      name: "Utgången",
      price: 5,
      is_active: false,
      barcode: ean("731999000011"),
    });
    expect(off.statusCode, off.body).toBe(201);
    const who = await shopper(ctx.app, { card: null });
    const visit = await shop(ctx.app, who, store, []);
    const id = randomUUID();
    expect((await scan(who, visit, soap.barcode, id)).statusCode).toBe(200);
    await setQuiet(visit, 600);
    const quiet = await lastActivity(visit);
    expect(body(await scan(who, visit, ean("731999000011")))[1]).toBe("product_inactive");
    expect(body(await scan(who, visit, ean("731999999990")))[1]).toBe("unknown_barcode");
    expect((await scan(who, visit, soap.barcode, id)).statusCode).toBe(200);
    expect(await lastActivity(visit)).toBe(quiet);
    expect((await cartOf(who, visit)).items.map((i) => i.quantity)).toEqual([1]);
  });
});
