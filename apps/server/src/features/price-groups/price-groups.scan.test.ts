import { randomBytes } from "node:crypto";
import { cartScanResponseSchema, cartSchema, gtinCheckDigit } from "@glide/contracts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sql } from "../../db/client.ts";
import { shopper, walkIn } from "../../test/factories.ts";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";
import { type PaymentHarness, startPaymentHarness } from "../../test/payments.ts";

/**
 * What a scan costs in a store of a price group: the store's own price, else
 * the group's, else the catalogue's; a campaign below it still wins. Prices,
 * groups and campaigns are written through the console's routes.
 */
let ctx: TestContext;
let pay: PaymentHarness;
let admin: ReturnType<typeof as>;
let grouped: string;
let outside: string;
let group: string;
const ean = (body12: string) => body12 + gtinCheckDigit(body12);
const COFFEE = ean("731000000411");
const MINCE_500G = ean("230012400500");
let coffee: string;
let mince: string;

beforeAll(async () => {
  pay = await startPaymentHarness();
  ctx = await createTestContext({ STRIPE_SECRET_KEY: pay.simulator.secretKey, STRIPE_API_BASE: pay.apiBase });
  admin = as(ctx.app, (await signIn(ctx.app)).cookie);
  const store = async (name: string) => {
    const res = await admin.post("/api/v1/stores/", { name: `${name} ${randomBytes(3).toString("hex")}` });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };
  [grouped, outside] = [await store("Lund"), await store("Malmö")];
  const made = async (name: string, price: number, barcode: string) => {
    const sku = `pg-${randomBytes(3).toString("hex")}`;
    const res = await admin.post("/api/v1/products/", { sku, name, price, vat_category: "food", barcode });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };
  coffee = await made("Kaffe", 64.9, COFFEE);
  mince = await made("Färs", 129, ean("230012400000"));
  group = (await admin.post("/api/v1/price-groups", { name: "Skåne" })).json().id;
});
afterAll(async () => {
  await ctx?.close();
  await pay?.close();
});
beforeEach(async () => {
  await ctx.app.db.execute(sql`delete from campaigns`);
  await ctx.app.db.execute(sql`delete from store_prices`);
  await ctx.app.db.execute(sql`delete from price_group_prices`);
  await put(`/api/v1/stores/${grouped}/price-group`, { price_group_id: group });
});

async function put(url: string, body: unknown) {
  const res = await admin.put(url, body);
  expect(res.statusCode, res.body).toBe(200);
}

/** One scan of `barcode` in a fresh visit to the store: its line, and the cart as read afterwards. */
async function scan(storeId: string, barcode = COFFEE) {
  const who = await shopper(ctx.app);
  const visit = await walkIn(ctx.app, who, storeId);
  const res = await who.call({ method: "POST", url: "/api/v1/cart/scan", payload: { session_id: visit, barcode } });
  expect(res.statusCode, res.body).toBe(200);
  const cart = cartSchema.parse((await who.call({ method: "GET", url: `/api/v1/cart/${visit}` })).json());
  return { line: cartScanResponseSchema.parse(res.json()).item, cart };
}

describe("a scan in a store of a price group", () => {
  it("pays the group's price; a store outside the group pays the catalogue's", async () => {
    await put(`/api/v1/price-groups/${group}/prices/${coffee}`, { price: 59.5 });
    expect((await scan(grouped)).line).toMatchObject({ unit_price: 59.5, ordinary_unit_price: null });
    expect((await scan(outside)).line).toMatchObject({ unit_price: 64.9, ordinary_unit_price: null });
  });

  it("pays the store's own price over the group's, and the catalogue's for a product the group has no price of", async () => {
    await put(`/api/v1/price-groups/${group}/prices/${coffee}`, { price: 59.5 });
    await put(`/api/v1/stores/${grouped}/prices/${coffee}`, { price: 61 });
    expect((await scan(grouped)).line.unit_price).toBe(61);
    await put(`/api/v1/price-groups/${group}/prices/${mince}`, { price: 100 });
    await admin.delete(`/api/v1/price-groups/${group}/prices/${mince}`);
    expect((await scan(grouped, MINCE_500G)).line.unit_price).toBe(64.5);
  });

  it("weighs a weight label at the group's price per kilogram, and the cart's jämförpris is that price", async () => {
    await put(`/api/v1/price-groups/${group}/prices/${mince}`, { price: 110 });
    const { line, cart } = await scan(grouped, MINCE_500G);
    expect(line).toMatchObject({ unit_price: 55, weight_grams: 500 });
    expect(cart.items[0]!.product.comparison_price).toEqual({ price: 110, unit: "kg" });
    expect((await scan(outside, MINCE_500G)).line.unit_price).toBe(64.5);
  });

  it("still takes a campaign that is lower than the group's price, keeping the group's as the ordinary", async () => {
    await put(`/api/v1/price-groups/${group}/prices/${coffee}`, { price: 59.5 });
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const campaign = async (price: number) => {
      await ctx.app.db.execute(sql`delete from campaigns`);
      const res = await admin.post("/api/v1/campaigns", {
        product_id: coffee,
        store_id: null,
        price,
        starts_on: day(-2),
        ends_on: day(2),
      });
      expect(res.statusCode, res.body).toBe(201);
    };
    await campaign(49);
    expect((await scan(grouped)).line).toMatchObject({ unit_price: 49, ordinary_unit_price: 59.5 });
    await campaign(60);
    expect((await scan(grouped)).line).toMatchObject({ unit_price: 59.5, ordinary_unit_price: null });
  });

  it("pays the catalogue's again once the store leaves the group, or the group is deleted", async () => {
    await put(`/api/v1/price-groups/${group}/prices/${coffee}`, { price: 59.5 });
    await put(`/api/v1/stores/${grouped}/price-group`, { price_group_id: null });
    expect((await scan(grouped)).line.unit_price).toBe(64.9);
    await put(`/api/v1/stores/${grouped}/price-group`, { price_group_id: group });
    expect((await scan(grouped)).line.unit_price).toBe(59.5);
    const doomed = (await admin.post("/api/v1/price-groups", { name: "Tillfällig" })).json().id;
    await put(`/api/v1/stores/${outside}/price-group`, { price_group_id: doomed });
    await put(`/api/v1/price-groups/${doomed}/prices/${coffee}`, { price: 10 });
    expect((await scan(outside)).line.unit_price).toBe(10);
    expect((await admin.delete(`/api/v1/price-groups/${doomed}`)).statusCode).toBe(204);
    expect((await scan(outside)).line.unit_price).toBe(64.9);
  });
});
