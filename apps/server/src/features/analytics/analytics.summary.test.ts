import {
  analyticsHourSchema,
  analyticsRefundDaySchema,
  analyticsRevenueSchema,
  analyticsTopProductSchema,
} from "@glide/contracts";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { orderLines, orders } from "../../db/schema/index.ts";
import {
  admin,
  createProduct,
  createStore,
  ctx,
  failRefund,
  openAnalyticsTests,
  openDoor,
  placeOrder,
  q,
  read,
  refund,
  summary,
} from "./analytics.fixtures.ts";

beforeAll(openAnalyticsTests);
afterAll(() => ctx.close());

describe("analytics summary", () => {
  it("counts a paid order once, a declined or unpaid one not at all, VAT apart", async () => {
    const store = await createStore("Summary");
    const milk = await createProduct("Mjölk", "Dairy");
    const bread = await createProduct("Bröd", "Bakery");
    const paid = await placeOrder(store.id, "2025-01-10T10:15:00Z", [
      { product: milk, quantity: 2, unitOre: 1250 },
      { product: bread, quantity: 1, unitOre: 3000, vatBp: 1200 },
    ]);
    await placeOrder(store.id, "2025-01-10T11:00:00Z", [{ product: milk, quantity: 9, unitOre: 1250 }], "declined");
    // Made at the exit, never paid.
    await ctx.app.db.insert(orders).values({ storeId: store.id, totalOre: 99_900, vatOre: 19_980, storeName: "x" });
    // A later change to the paid order that is not about money must not count it again.
    await ctx.app.db.execute(sql`update orders set card_brand = 'visa', state = 'paid' where id = ${paid.id}`);

    const s = await summary({ from: "2025-01-10", to: "2025-01-10", store_id: store.id });
    // 2 × 12.50 at 25 % (VAT 5.00) + 30.00 at 12 % (VAT 3.21).
    expect(s).toEqual({
      revenue: 55,
      vat: 8.21,
      revenue_excl_vat: 46.79,
      orders: 1,
      items: 3,
      entries: 0,
      conversion: null,
      average_basket: 55,
      average_items: 3,
      refunds: 0,
      refunded: 0,
      net_revenue: 55,
    });
    expect(paid.vatOre).toBe(821);
  });

  it("lowers net revenue by a refund on the day it was made, and takes a failed refund back out", async () => {
    const store = await createStore("Refunds");
    const milk = await createProduct("Mjölk R", "Dairy");
    const order = await placeOrder(store.id, "2025-02-03T09:00:00Z", [{ product: milk, quantity: 4, unitOre: 2500 }]);
    await refund(order.id, 2500, "2025-02-05T12:00:00Z");
    const failing = await refund(order.id, 5000, "2025-02-06T12:00:00Z", "pending");
    const range = { from: "2025-02-01", to: "2025-02-28", store_id: store.id };
    expect(await summary(range)).toMatchObject({ revenue: 100, refunds: 2, refunded: 75, net_revenue: 25 });

    await failRefund(failing);
    expect(await summary(range)).toMatchObject({ revenue: 100, refunds: 1, refunded: 25, net_revenue: 75 });
    expect(await read(admin, "refunds", z.array(analyticsRefundDaySchema), range)).toEqual([
      { day: "2025-02-05", refunds: 1, amount: 25 },
    ]);
    // The order's day alone holds the sale, not the refund.
    expect(await summary({ ...range, to: "2025-02-04" })).toMatchObject({ refunds: 0, net_revenue: 100 });
  });

  it("counts items added at a spot check, with the order's new total", async () => {
    const store = await createStore("Spot");
    const soda = await createProduct("Läsk", "Drinks");
    const order = await placeOrder(store.id, "2025-03-01T15:00:00Z", [{ product: soda, quantity: 1, unitOre: 2000 }]);
    await ctx.app.db.insert(orderLines).values({
      orderId: order.id,
      position: 2,
      productId: soda.id,
      name: soda.name,
      quantity: 2,
      unitPriceOre: 2000,
      vatRateBp: 2500,
      totalOre: 4000,
      origin: "spot_check",
    });
    await ctx.app.db.execute(
      sql`update orders set total_ore = total_ore + 4000, vat_ore = vat_ore + 800 where id = ${order.id}`,
    );
    const range = { from: "2025-03-01", to: "2025-03-01", store_id: store.id };
    expect(await summary(range)).toMatchObject({ revenue: 60, vat: 12, orders: 1, items: 3 });
    expect(await read(admin, "top-products", z.array(analyticsTopProductSchema), range)).toEqual([
      { product_id: soda.id, name: "Läsk", category: "Drinks", quantity: 3, revenue: 60 },
    ]);
  });

  it("gives conversion as purchases per entry", async () => {
    const store = await createStore("Conversion");
    const milk = await createProduct("Mjölk C", "Dairy");
    for (const minute of ["05", "10", "20", "40"]) await openDoor(store.id, `2025-04-02T08:${minute}:00Z`);
    await placeOrder(store.id, "2025-04-02T08:30:00Z", [{ product: milk, quantity: 1, unitOre: 1000 }]);
    const s = await summary({ from: "2025-04-02", to: "2025-04-02", store_id: store.id });
    expect(s).toMatchObject({ entries: 4, orders: 1, conversion: 0.25 });
  });

  it("gives the average basket over every order, and none without orders", async () => {
    const store = await createStore("Basket");
    const milk = await createProduct("Mjölk B", "Dairy");
    await placeOrder(store.id, "2025-04-03T08:30:00Z", [{ product: milk, quantity: 3, unitOre: 1500 }]);
    await placeOrder(store.id, "2025-04-03T09:30:00Z", [{ product: milk, quantity: 1, unitOre: 1500 }]);
    const s = await summary({ from: "2025-04-03", to: "2025-04-03", store_id: store.id });
    expect(s).toMatchObject({ revenue: 60, orders: 2, items: 4, average_basket: 30, average_items: 2 });
    const quiet = await summary({ from: "2025-04-04", to: "2025-04-04", store_id: store.id });
    expect(quiet).toMatchObject({ revenue: 0, orders: 0, average_basket: null, average_items: null, conversion: null });
  });
});

describe("store-local days and hours", () => {
  it("puts 23:30 local on its day and 00:30 local on the next", async () => {
    const store = await createStore("Midnight");
    const milk = await createProduct("Mjölk M", "Dairy");
    // Stockholm is UTC+1 in January: 22:30Z is 23:30 on the 14th, 23:30Z is 00:30 on the 15th.
    await placeOrder(store.id, "2025-01-14T22:30:00Z", [{ product: milk, quantity: 1, unitOre: 1000 }]);
    await placeOrder(store.id, "2025-01-14T23:30:00Z", [{ product: milk, quantity: 1, unitOre: 3000 }]);
    const range = { from: "2025-01-14", to: "2025-01-15", store_id: store.id };
    const revenue = await read(admin, "revenue", analyticsRevenueSchema, range);
    expect(revenue.days).toEqual([
      { day: "2025-01-14", revenue: 10, vat: 2, orders: 1 },
      { day: "2025-01-15", revenue: 30, vat: 6, orders: 1 },
    ]);
    expect(revenue.stores).toEqual([{ store_id: store.id, store_name: "Midnight", revenue: 40, vat: 8, orders: 2 }]);
    expect((await summary({ ...range, to: "2025-01-14" })).revenue).toBe(10);
    expect((await summary({ ...range, from: "2025-01-15" })).revenue).toBe(30);

    const hours = await read(admin, "sessions-by-hour", z.array(analyticsHourSchema), range);
    expect(hours).toHaveLength(24);
    expect(hours[23]).toEqual({ hour: 23, entries: 0, purchases: 1 });
    expect(hours[0]).toEqual({ hour: 0, entries: 0, purchases: 1 });
    expect(hours[22]).toEqual({ hour: 22, entries: 0, purchases: 0 });
  });

  it("buckets entries and purchases by the store's own hour of day", async () => {
    const store = await createStore("Tokyo hours", "Asia/Tokyo");
    const milk = await createProduct("Gyunyu", "Dairy");
    // Tokyo is UTC+9: 00:15Z and 00:59Z are 09:15 and 09:59, 01:00Z is 10:00.
    await openDoor(store.id, "2025-05-01T00:15:00Z");
    await openDoor(store.id, "2025-05-01T00:59:00Z");
    await openDoor(store.id, "2025-05-01T01:00:00Z");
    await placeOrder(store.id, "2025-05-01T01:05:00Z", [{ product: milk, quantity: 1, unitOre: 1000 }]);
    const hours = await read(admin, "sessions-by-hour", z.array(analyticsHourSchema), {
      from: "2025-05-01",
      to: "2025-05-01",
      store_id: store.id,
    });
    expect(hours.filter((h) => h.entries || h.purchases)).toEqual([
      { hour: 9, entries: 2, purchases: 0 },
      { hour: 10, entries: 1, purchases: 1 },
    ]);
  });
});

describe("revenue", () => {
  it("sums the stores per day and the days per store, best store first; the CSV keeps each store's day", async () => {
    const [north, south] = [await createStore("Revenue North"), await createStore("Revenue South")];
    const milk = await createProduct("Mjölk R", "Dairy");
    const line = (unitOre: number) => [{ product: milk, quantity: 1, unitOre }];
    await placeOrder(north.id, "2025-10-01T10:00:00Z", line(1000));
    await placeOrder(south.id, "2025-10-01T11:00:00Z", line(2000));
    await placeOrder(south.id, "2025-10-03T11:00:00Z", line(5000));
    // Just outside the range (Stockholm is UTC+2): 21:30Z is 23:30 on Sept 30, 22:30Z is 00:30 on Oct 4.
    await placeOrder(north.id, "2025-09-30T21:30:00Z", line(700));
    await placeOrder(north.id, "2025-10-03T22:30:00Z", line(900));
    const range = { from: "2025-10-01", to: "2025-10-03" };
    const inView = (r: { store_id: string }) => r.store_id === north.id || r.store_id === south.id;

    const revenue = await read(admin, "revenue", analyticsRevenueSchema, { ...range, store_id: north.id });
    expect(revenue.days).toEqual([{ day: "2025-10-01", revenue: 10, vat: 2, orders: 1 }]);

    // Every store: other tests' stores sell on other days, so these days are these two stores'.
    const all = await read(admin, "revenue", analyticsRevenueSchema, range);
    expect(all.days).toEqual([
      { day: "2025-10-01", revenue: 30, vat: 6, orders: 2 },
      { day: "2025-10-03", revenue: 50, vat: 10, orders: 1 },
    ]);
    expect(all.stores.filter(inView)).toEqual([
      { store_id: south.id, store_name: "Revenue South", revenue: 70, vat: 14, orders: 2 },
      { store_id: north.id, store_name: "Revenue North", revenue: 10, vat: 2, orders: 1 },
    ]);

    const csv = await admin.get(`/api/v1/admin/analytics/revenue?${q({ ...range, format: "csv" })}`);
    const lines = csv.body
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\n");
    expect(lines[0]).toBe("day,store_id,store_name,revenue,vat,orders");
    expect(lines.filter((l) => l.includes(north.id) || l.includes(south.id))).toEqual([
      `2025-10-01,${north.id},Revenue North,10.00,2.00,1`,
      `2025-10-01,${south.id},Revenue South,20.00,4.00,1`,
      `2025-10-03,${south.id},Revenue South,50.00,10.00,1`,
    ]);
  });
});
