import { randomBytes } from "node:crypto";
import { cartScanResponseSchema, cartSchema, gtinCheckDigit, receiptSchema } from "@glide/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "../../db/client.ts";
import { sha256 } from "../../platform/crypto.ts";
import { shopper, type TestShopper, walkIn } from "../../test/factories.ts";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";
import { type PaymentHarness, startPaymentHarness } from "../../test/payments.ts";

/**
 * What a scan fixes on the cart line: the store's own price over the
 * catalogue's, and a campaign's when it is valid on the store's calendar day
 * of the scan and below that price, with the ordinary price kept beside it on
 * the cart, the order and the kvitto. Only the sale's clock moves
 * (app.saleClock); campaigns and store prices are written as the console's
 * routes write them (their own tests are in store-prices/ and campaigns/).
 */
let ctx: TestContext;
let pay: PaymentHarness;
let admin: ReturnType<typeof as>;
let saleAt = new Date();
let lund: string;
let malmo: string;
/** A store whose day turns five hours after Stockholm's (winter) or six (summer). */
let newYork: string;
const ean = (body12: string) => body12 + gtinCheckDigit(body12);
const ids: Record<"coffee" | "mince" | "cake", string> = {} as never;
const COFFEE = ean("731000000301");
const MINCE_450G = ean("230012300450");
const CAKE_49_90 = ean("200045604990");

beforeAll(async () => {
  pay = await startPaymentHarness();
  ctx = await createTestContext(
    { STRIPE_SECRET_KEY: pay.simulator.secretKey, STRIPE_API_BASE: pay.apiBase },
    { saleClock: () => saleAt },
  );
  admin = as(ctx.app, (await signIn(ctx.app)).cookie);
  const store = async (name: string, timezone?: string) => {
    const res = await admin.post("/api/v1/stores/", { name: `${name} ${randomBytes(3).toString("hex")}`, timezone });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };
  [lund, malmo, newYork] = [await store("Lund"), await store("Malmö"), await store("New York", "America/New_York")];
  for (const [key, name, price, barcode] of [
    ["coffee", "Kaffe 450 g", 64.9, COFFEE],
    ["mince", "Färs", 129, ean("230012300000")],
    ["cake", "Tårta", 0, ean("200045600000")],
  ] as const) {
    const res = await admin.post("/api/v1/products/", {
      sku: `shelf-${key}-${randomBytes(3).toString("hex")}`,
      name,
      price,
      vat_category: "food",
      barcode,
      ...(key === "coffee" ? { net_content: 450, net_content_unit: "g" } : {}),
    });
    expect(res.statusCode, res.body).toBe(201);
    ids[key] = res.json().id;
  }
});
afterAll(async () => {
  await ctx?.close();
  await pay?.close();
});

async function storePrice(storeId: string, productId: string, priceOre: number) {
  await ctx.app.db.execute(
    sql`insert into store_prices (store_id, product_id, price_ore) values (${storeId}, ${productId}, ${priceOre})
        on conflict (store_id, product_id) do update set price_ore = excluded.price_ore`,
  );
}

async function campaign(fields: {
  productId: string;
  storeId: string | null;
  priceOre: number;
  from: string;
  to: string;
}) {
  await ctx.app.db.execute(
    sql`insert into campaigns (product_id, store_id, price_ore, starts_on, ends_on)
        values (${fields.productId}, ${fields.storeId}, ${fields.priceOre}, ${fields.from}, ${fields.to})`,
  );
}

async function clearRules() {
  await ctx.app.db.execute(sql`delete from campaigns`);
  await ctx.app.db.execute(sql`delete from store_prices`);
}

async function scanned(who: TestShopper, visit: string, barcode: string) {
  const res = await who.call({ method: "POST", url: "/api/v1/cart/scan", payload: { session_id: visit, barcode } });
  expect(res.statusCode, res.body).toBe(200);
  return cartScanResponseSchema.parse(res.json()).item;
}

/** The price of one coffee scanned at `at` in `storeId`, and its ordinary price beside it. */
async function coffeeAt(at: string, storeId = lund) {
  saleAt = new Date(at);
  const who = await shopper(ctx.app);
  const line = await scanned(who, await walkIn(ctx.app, who, storeId), COFFEE);
  return [line.unit_price, line.ordinary_unit_price];
}

describe("a store's own price", () => {
  it("is what a scan in that store costs, and the catalogue's elsewhere; a weight label is weighed at it", async () => {
    await clearRules();
    saleAt = new Date();
    await storePrice(lund, ids.coffee, 5990);
    await storePrice(lund, ids.mince, 11900);
    await storePrice(lund, ids.cake, 100);
    const who = await shopper(ctx.app);
    const visit = await walkIn(ctx.app, who, lund);
    expect(await scanned(who, visit, COFFEE)).toMatchObject({
      unit_price: 59.9,
      ordinary_unit_price: null,
      // Its jämförpris follows the price the line has: 59.90 kr for 450 g.
      product: { comparison_price: { price: 133.11, unit: "kg" } },
    });
    // 0.450 kg at the store's 119 kr/kg; the jämförpris is that price per kilogram.
    expect(await scanned(who, visit, MINCE_450G)).toMatchObject({
      unit_price: 53.55,
      product: { comparison_price: { price: 119, unit: "kg" } },
    });
    // A price label costs what is printed on it, whatever the store's price.
    expect((await scanned(who, visit, CAKE_49_90)).unit_price).toBe(49.9);
    const cart = cartSchema.parse((await who.call({ method: "GET", url: `/api/v1/cart/${visit}` })).json());
    expect(cart.items.map((i) => [i.unit_price, i.product.comparison_price?.price ?? null])).toEqual([
      [59.9, 133.11],
      [53.55, 119],
      [49.9, null],
    ]);
    expect(cart.total).toBe(163.35);

    const elsewhere = await shopper(ctx.app);
    const there = await walkIn(ctx.app, elsewhere, malmo);
    expect((await scanned(elsewhere, there, COFFEE)).unit_price).toBe(64.9);
    expect((await scanned(elsewhere, there, MINCE_450G)).unit_price).toBe(58.05);
  });

  it("changed later leaves a line already in a cart at the price it was scanned at", async () => {
    await clearRules();
    saleAt = new Date();
    await storePrice(lund, ids.coffee, 5990);
    const who = await shopper(ctx.app);
    const visit = await walkIn(ctx.app, who, lund);
    await scanned(who, visit, COFFEE);
    await storePrice(lund, ids.coffee, 4990);
    expect(await scanned(who, visit, COFFEE)).toMatchObject({ quantity: 2, unit_price: 59.9 });
  });
});

describe("a campaign", () => {
  it("is taken when below the store's price, with the ordinary price beside it; not above it, nor in another store", async () => {
    await clearRules();
    await campaign({ productId: ids.coffee, storeId: null, priceOre: 4990, from: "2026-05-01", to: "2026-05-31" });
    expect(await coffeeAt("2026-05-10T10:00:00Z")).toEqual([49.9, 64.9]);
    // Beside the store's own price, not the catalogue's.
    await storePrice(lund, ids.coffee, 5490);
    expect(await coffeeAt("2026-05-10T10:00:00Z")).toEqual([49.9, 54.9]);
    // A store price at or below the campaign's: the store's, and no campaign.
    await storePrice(lund, ids.coffee, 4990);
    expect(await coffeeAt("2026-05-10T10:00:00Z")).toEqual([49.9, null]);
    await storePrice(lund, ids.coffee, 4500);
    expect(await coffeeAt("2026-05-10T10:00:00Z")).toEqual([45, null]);
    // A campaign of one store is that store's only; the lowest of several wins.
    await clearRules();
    await campaign({ productId: ids.coffee, storeId: malmo, priceOre: 3990, from: "2026-05-01", to: "2026-05-31" });
    expect(await coffeeAt("2026-05-10T10:00:00Z")).toEqual([64.9, null]);
    expect(await coffeeAt("2026-05-10T10:00:00Z", malmo)).toEqual([39.9, 64.9]);
    await campaign({ productId: ids.coffee, storeId: null, priceOre: 4490, from: "2026-05-01", to: "2026-05-31" });
    expect(await coffeeAt("2026-05-10T10:00:00Z", malmo)).toEqual([39.9, 64.9]);
    expect(await coffeeAt("2026-05-10T10:00:00Z")).toEqual([44.9, 64.9]);
  });

  it("runs from the first day's midnight to the last day's, in the store's own time zone", async () => {
    await clearRules();
    await campaign({ productId: ids.coffee, storeId: null, priceOre: 4990, from: "2026-05-01", to: "2026-05-31" });
    // Stockholm is UTC+2 in May.
    expect(await coffeeAt("2026-04-30T21:59:59Z")).toEqual([64.9, null]);
    expect(await coffeeAt("2026-04-30T22:00:00Z")).toEqual([49.9, 64.9]);
    expect(await coffeeAt("2026-05-31T21:59:59Z")).toEqual([49.9, 64.9]);
    expect(await coffeeAt("2026-05-31T22:00:00Z")).toEqual([64.9, null]);
    // New York is UTC-4 then: its 1 May starts six hours after Stockholm's.
    expect(await coffeeAt("2026-05-01T03:59:59Z", newYork)).toEqual([64.9, null]);
    expect(await coffeeAt("2026-05-01T04:00:00Z", newYork)).toEqual([49.9, 64.9]);
    expect(await coffeeAt("2026-06-01T03:59:59Z", newYork)).toEqual([49.9, 64.9]);
    expect(await coffeeAt("2026-06-01T04:00:00Z", newYork)).toEqual([64.9, null]);
  });

  it("is charged and printed on the kvitto as Kampanj with the ordinary price, kept when the campaign is over", async () => {
    await clearRules();
    await campaign({ productId: ids.coffee, storeId: null, priceOre: 4990, from: "2026-05-01", to: "2026-05-31" });
    saleAt = new Date("2026-05-31T21:00:00Z");
    const who = await shopper(ctx.app);
    const visit = await walkIn(ctx.app, who, lund);
    await scanned(who, visit, COFFEE);
    await scanned(who, visit, COFFEE);
    await scanned(who, visit, MINCE_450G);
    // Paid after midnight, when the campaign is over: the lines keep the price they were scanned at.
    saleAt = new Date("2026-05-31T22:30:00Z");
    const paid = await who.call({ method: "POST", url: "/api/v1/checkout", payload: { user_id: who.id } });
    expect(paid.statusCode, paid.body).toBe(200);
    const receipt = receiptSchema.parse(paid.json().receipt);
    expect(receipt.items.map((i) => [i.name, i.quantity, i.unit_price, i.ordinary_unit_price, i.total])).toEqual([
      ["Kaffe 450 g", 2, 49.9, 64.9, 99.8],
      ["Färs", 1, 58.05, null, 58.05],
    ]);
    expect(receipt.total).toBe(157.85);
    // The console's view of the visit says the same.
    const detail = await admin.get(`/api/v1/admin/sessions/${visit}`);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json().order.lines.map((l: { ordinary_unit_price: number | null }) => l.ordinary_unit_price)).toEqual(
      [64.9, null],
    );
  });

  it("is taken by the recognition worker's sightings too", async () => {
    await clearRules();
    await campaign({ productId: ids.coffee, storeId: lund, priceOre: 4990, from: "2026-05-01", to: "2026-05-31" });
    saleAt = new Date("2026-05-10T10:00:00Z");
    await admin.post(`/api/v1/stores/${lund}/modules/ai_product_recognition`, { enabled: true });
    const key = `gd_${randomBytes(16).toString("hex")}`;
    await ctx.app.db.execute(
      sql`insert into store_device_keys (store_id, kind, key_hash)
          values (${lund}, 'camera_worker', ${sha256(key)})`,
    );
    const who = await shopper(ctx.app);
    const visit = await walkIn(ctx.app, who, lund);
    const res = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/cart/worker",
      headers: { authorization: `Device ${key}` },
      payload: { session_id: visit, product_id: ids.coffee, action: "add" },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(cartSchema.parse(res.json()).items[0]).toMatchObject({ unit_price: 49.9, ordinary_unit_price: 64.9 });
  });
});
