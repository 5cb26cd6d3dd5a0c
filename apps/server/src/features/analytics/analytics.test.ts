import { randomBytes } from "node:crypto";
import {
  analyticsHourSchema,
  analyticsRefundDaySchema,
  analyticsRevenueSchema,
  analyticsSummarySchema,
  analyticsTopCategorySchema,
  analyticsTopProductSchema,
  type Store,
} from "@glide/contracts";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { queryRows } from "../../db/client.ts";
import { customers, orderLines, orders, products, refunds, shoppingSessions } from "../../db/schema/index.ts";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";
import { analyticsBackfillStatements } from "./analytics.backfill.ts";
import { productPieces } from "./analytics.service.ts";

let ctx: TestContext;
let admin: ReturnType<typeof as>;
let customerId: string;
beforeAll(async () => {
  ctx = await createTestContext();
  admin = as(ctx.app, (await signIn(ctx.app)).cookie);
  const tag = randomBytes(6).toString("hex");
  const [c] = await ctx.app.db
    .insert(customers)
    .values({ personalNumberHash: tag, personalNumberSealed: tag, name: "Ana Lys", birthDate: "1990-01-01" })
    .returning();
  customerId = c!.id;
});
afterAll(() => ctx.close());

const createStore = async (name: string, timezone = "Europe/Stockholm"): Promise<Store> => {
  const res = await admin.post("/api/v1/stores/", { name, timezone });
  expect(res.statusCode).toBe(201);
  return res.json();
};

const createProduct = async (name: string, category: string | null, priceOre = 1000) => {
  const [p] = await ctx.app.db
    .insert(products)
    .values({ sku: `an-${randomBytes(4).toString("hex")}`, name, category, priceOre })
    .returning();
  return p!;
};

type Line = { product: { id: string; name: string }; quantity: number; unitOre: number; vatBp?: number };
const vatOf = (totalOre: number, bp: number) => Math.round((totalOre * bp) / (10_000 + bp));

/**
 * An order as checkout makes one: awaiting payment with its lines, then
 * paid in a second statement (what the triggers watch), unless `state` says otherwise.
 */
async function placeOrder(storeId: string, paidAt: string, lines: Line[], state: "paid" | "declined" = "paid") {
  const db = ctx.app.db;
  const totals = lines.map((l) => l.quantity * l.unitOre);
  const totalOre = totals.reduce((a, b) => a + b, 0);
  const vatOre = lines.reduce((a, l, i) => a + vatOf(totals[i]!, l.vatBp ?? 2500), 0);
  const [order] = await db
    .insert(orders)
    .values({ storeId, customerId, totalOre, vatOre, storeName: "x", createdAt: new Date(paidAt) })
    .returning();
  await db.insert(orderLines).values(
    lines.map((l, i) => ({
      orderId: order!.id,
      position: i + 1,
      productId: l.product.id,
      name: l.product.name,
      quantity: l.quantity,
      unitPriceOre: l.unitOre,
      vatRateBp: l.vatBp ?? 2500,
      totalOre: totals[i]!,
    })),
  );
  await db.execute(
    state === "paid"
      ? sql`update orders set state = 'paid', paid_at = ${paidAt}::timestamptz where id = ${order!.id}`
      : sql`update orders set state = 'declined', failure_code = 'card_declined' where id = ${order!.id}`,
  );
  return { id: order!.id, totalOre, vatOre };
}

async function openDoor(storeId: string, at: string) {
  const [s] = await ctx.app.db
    .insert(shoppingSessions)
    .values({ storeId, customerId, entryTokenHash: randomBytes(8).toString("hex"), entryExpiresAt: new Date(at) })
    .returning();
  await ctx.app.db.execute(sql`update shopping_sessions set door_opened_at = ${at}::timestamptz where id = ${s!.id}`);
}

async function refund(orderId: string, amountOre: number, at: string, state: "pending" | "succeeded" = "succeeded") {
  const [r] = await ctx.app.db
    .insert(refunds)
    .values({
      orderId,
      amountOre,
      reason: "test",
      state,
      idempotencyKey: randomBytes(8).toString("hex"),
      createdAt: new Date(at),
    })
    .returning();
  await ctx.app.db.execute(sql`update orders set refunded_ore = refunded_ore + ${amountOre} where id = ${orderId}`);
  return r!.id;
}

/** The provider refused: the refund fails and its amount is free again, as the refunds code does it. */
async function failRefund(refundId: string) {
  await ctx.app.db.transaction(async (tx) => {
    await tx.execute(sql`update refunds set state = 'failed' where id = ${refundId}`);
    await tx.execute(sql`update orders o set refunded_ore = refunded_ore - r.amount_ore
      from refunds r where r.id = ${refundId} and o.id = r.order_id`);
  });
}

const q = (params: Record<string, string | number | undefined>) =>
  new URLSearchParams(
    Object.entries(params).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])) as [string, string][],
  ).toString();

async function read<T>(
  who: ReturnType<typeof as>,
  table: string,
  schema: z.ZodType<T>,
  params: Record<string, string | number | undefined>,
) {
  const res = await who.get(`/api/v1/admin/analytics/${table}?${q(params)}`);
  expect(res.statusCode, res.body).toBe(200);
  return schema.parse(res.json());
}
const summary = (params: Record<string, string | undefined>, who = admin) =>
  read(who, "summary", analyticsSummarySchema, params);

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

describe("top products and categories", () => {
  it("orders by revenue, then quantity, then name, and honours the limit", async () => {
    const store = await createStore("Top");
    const [a, b, c, d] = [
      await createProduct("Bravo", "Snacks"),
      await createProduct("Alfa", "Snacks"),
      await createProduct("Charlie", "Drinks"),
      await createProduct("Delta", null),
    ];
    await placeOrder(store.id, "2025-06-01T10:00:00Z", [
      { product: a, quantity: 1, unitOre: 5000 },
      { product: b, quantity: 1, unitOre: 5000 }, // tie with Bravo on everything but the name
      { product: c, quantity: 5, unitOre: 1000 }, // same revenue, more sold: first
      { product: d, quantity: 1, unitOre: 9000 },
    ]);
    const range = { from: "2025-06-01", to: "2025-06-01", store_id: store.id };
    const top = await read(admin, "top-products", z.array(analyticsTopProductSchema), range);
    expect(top.map((p) => p.name)).toEqual(["Delta", "Charlie", "Alfa", "Bravo"]);
    const two = await read(admin, "top-products", z.array(analyticsTopProductSchema), { ...range, limit: 2 });
    expect(two.map((p) => p.name)).toEqual(["Delta", "Charlie"]);

    const categories = await read(admin, "top-categories", z.array(analyticsTopCategorySchema), range);
    expect(categories).toEqual([
      { category: "Snacks", quantity: 2, revenue: 100 },
      { category: null, quantity: 1, revenue: 90 },
      { category: "Drinks", quantity: 5, revenue: 50 },
    ]);
  });

  it("adds whole months from the month rollup to the partial months at the ends", async () => {
    const store = await createStore("Months");
    const tea = await createProduct("Te", "Drinks");
    const coffee = await createProduct("Kaffe", "Drinks");
    // Stockholm: 30 Jan, 31 Jan 23:30 local (22:30Z), all of February, 1 Mar and 2 Mar.
    await placeOrder(store.id, "2025-01-30T10:00:00Z", [{ product: coffee, quantity: 9, unitOre: 1000 }]);
    await placeOrder(store.id, "2025-01-31T22:30:00Z", [{ product: tea, quantity: 1, unitOre: 1000 }]);
    await placeOrder(store.id, "2025-02-14T10:00:00Z", [{ product: tea, quantity: 2, unitOre: 1000 }]);
    await placeOrder(store.id, "2025-03-01T10:00:00Z", [{ product: tea, quantity: 4, unitOre: 1000 }]);
    await placeOrder(store.id, "2025-03-02T10:00:00Z", [{ product: coffee, quantity: 9, unitOre: 1000 }]);
    const top = (from: string, to: string) =>
      read(admin, "top-products", z.array(analyticsTopProductSchema), { from, to, store_id: store.id });
    expect(await top("2025-01-31", "2025-03-01")).toEqual([
      { product_id: tea.id, name: "Te", category: "Drinks", quantity: 7, revenue: 70 },
    ]);
    expect((await top("2025-02-01", "2025-02-28")).map((p) => p.quantity)).toEqual([2]);
    expect((await top("2025-01-01", "2025-03-31")).map((p) => [p.name, p.quantity])).toEqual([
      ["Kaffe", 18],
      ["Te", 7],
    ]);
    expect((await top("2025-02-15", "2025-02-28")).length).toBe(0);

    // Most of a month: the month less the days outside; a product sold only on those days nets to nothing.
    const sold = async (from: string, to: string) => (await top(from, to)).map((p) => [p.name, p.quantity]);
    expect(await sold("2025-01-02", "2025-03-01")).toEqual([
      ["Kaffe", 9],
      ["Te", 7],
    ]);
    expect(await sold("2025-01-02", "2025-01-30")).toEqual([["Kaffe", 9]]);
    expect(await sold("2025-03-02", "2025-03-31")).toEqual([["Kaffe", 9]]);
  });

  it("reads a partial month as its days or as the month less the rest, whichever is fewer days", () => {
    expect(productPieces("2025-01-15", "2025-12-14")).toEqual({
      // Jan 15–31 is 17 days of 31: the month less Jan 1–14; Dec 1–14 is 14 of 31: the days.
      months: { first: "2025-01-01", last: "2025-11-01" },
      days: [
        { from: "2025-01-01", to: "2025-01-14", sign: -1 },
        { from: "2025-12-01", to: "2025-12-14", sign: 1 },
      ],
    });
    // Half of a 30-day month either way: the days.
    expect(productPieces("2025-04-16", "2025-04-30")).toEqual({
      months: null,
      days: [{ from: "2025-04-16", to: "2025-04-30", sign: 1 }],
    });
    expect(productPieces("2025-04-15", "2025-04-30").days).toEqual([
      { from: "2025-04-01", to: "2025-04-14", sign: -1 },
    ]);
    expect(productPieces("2024-02-01", "2024-02-29")).toEqual({
      months: { first: "2024-02-01", last: "2024-02-01" },
      days: [],
    });
    expect(productPieces("2025-03-02", "2025-03-02").days).toEqual([{ from: "2025-03-02", to: "2025-03-02", sign: 1 }]);
  });

  it("rejects a limit outside 1–100", async () => {
    const base = "/api/v1/admin/analytics/top-products?from=2025-01-01&to=2025-01-02";
    for (const limit of ["0", "101", "abc"]) expect((await admin.get(`${base}&limit=${limit}`)).statusCode).toBe(400);
    expect((await admin.get(`${base}&limit=100`)).statusCode).toBe(200);
    expect((await admin.get(`${base}&limit=1`)).statusCode).toBe(200);
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

describe("who sees what", () => {
  it("shows a store admin their own stores only, and 403 for another store", async () => {
    const [mine, theirs] = [await createStore("Mine"), await createStore("Theirs")];
    const milk = await createProduct("Mjölk S", "Dairy");
    await placeOrder(mine.id, "2025-07-01T10:00:00Z", [{ product: milk, quantity: 1, unitOre: 1000 }]);
    await placeOrder(theirs.id, "2025-07-01T10:00:00Z", [{ product: milk, quantity: 1, unitOre: 7000 }]);
    const storeAdmin = as(ctx.app, (await signIn(ctx.app, "store_admin", [mine.id])).cookie);
    const range = { from: "2025-07-01", to: "2025-07-01" };

    expect((await summary(range, storeAdmin)).revenue).toBe(10);
    expect((await summary({ ...range, store_id: mine.id }, storeAdmin)).revenue).toBe(10);
    expect((await summary(range)).revenue).toBe(80);
    for (const table of ["summary", "revenue", "sessions-by-hour", "top-products", "top-categories", "refunds"]) {
      const res = await storeAdmin.get(`/api/v1/admin/analytics/${table}?${q({ ...range, store_id: theirs.id })}`);
      expect(res.statusCode, table).toBe(403);
      expect(res.json().detail).toBeTruthy();
    }
    const revenue = await read(storeAdmin, "revenue", analyticsRevenueSchema, range);
    expect(revenue.stores.map((s) => s.store_id)).toEqual([mine.id]);
    expect(revenue.days).toEqual([{ day: "2025-07-01", revenue: 10, vat: 2, orders: 1 }]);

    const both = as(ctx.app, (await signIn(ctx.app, "store_admin", [mine.id, theirs.id])).cookie);
    expect((await summary(range, both)).revenue).toBe(80);
    const none = as(ctx.app, (await signIn(ctx.app, "store_admin", [])).cookie);
    expect((await summary(range, none)).revenue).toBe(0);
    expect((await as(ctx.app, null).get(`/api/v1/admin/analytics/summary?${q(range)}`)).statusCode).toBe(401);
  });

  it("answers 404 for a store that does not exist", async () => {
    const res = await admin.get(
      `/api/v1/admin/analytics/summary?${q({ from: "2025-01-01", to: "2025-01-01", store_id: "00000000-0000-4000-8000-000000000000" })}`,
    );
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: "store_not_found", detail: "Store not found" });
  });
});

describe("date validation", () => {
  const status = async (params: Record<string, string>) => {
    const res = await admin.get(`/api/v1/admin/analytics/summary?${q(params)}`);
    return { status: res.statusCode, detail: res.json().detail as string | undefined };
  };

  it("takes up to 400 days, both ends counted, and refuses 401", async () => {
    expect((await status({ from: "2024-01-01", to: "2025-02-03" })).status).toBe(200); // 400 days
    const tooLong = await status({ from: "2024-01-01", to: "2025-02-04" }); // 401 days
    expect(tooLong.status).toBe(400);
    expect(tooLong.detail).toMatch(/at most 400 days/);
  });

  it("refuses to before from, but takes one day", async () => {
    expect((await status({ from: "2025-03-02", to: "2025-03-02" })).status).toBe(200);
    const backwards = await status({ from: "2025-03-02", to: "2025-03-01" });
    expect(backwards).toMatchObject({ status: 400 });
    expect(backwards.detail).toMatch(/to must be on or after from/);
  });

  it("refuses missing and impossible dates with words", async () => {
    expect((await status({ to: "2025-03-01" })).detail).toMatch(/from/);
    expect((await status({ from: "2025-02-29", to: "2025-03-01" })).detail).toMatch(/real calendar date/);
    expect((await status({ from: "2024-02-29", to: "2024-03-01" })).status).toBe(200);
    expect((await status({ from: "01/03/2025", to: "2025-03-01" })).detail).toMatch(/YYYY-MM-DD/);
    expect((await status({ from: "2025-03-01", to: "2025-03-01", format: "xml" })).status).toBe(400);
  });
});

describe("CSV export", () => {
  it("downloads each table with a header row, two-decimal kronor and formula cells neutralised", async () => {
    const store = await createStore("CSV");
    const evil = await createProduct('=HYPERLINK("http://x")', "@risky");
    const plain = await createProduct("Ost, lagrad", "Dairy");
    await placeOrder(store.id, "2025-08-01T10:00:00Z", [
      { product: evil, quantity: 1, unitOre: 1050 },
      { product: plain, quantity: 2, unitOre: 4000 },
    ]);
    const range = { from: "2025-08-01", to: "2025-08-01", store_id: store.id, format: "csv" };
    const res = await admin.get(`/api/v1/admin/analytics/top-products?${q(range)}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toMatch(
      /^attachment; filename="analytics-top-products-2025-08-01-2025-08-01/,
    );
    const lines = res.body
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\n");
    expect(lines).toEqual([
      "product_id,name,category,quantity,revenue",
      `${plain.id},"Ost, lagrad",Dairy,2,80.00`,
      `${evil.id},"'=HYPERLINK(""http://x"")",'@risky,1,10.50`,
    ]);

    const summaryCsv = await admin.get(`/api/v1/admin/analytics/summary?${q(range)}`);
    const [header, row] = summaryCsv.body
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\n");
    expect(header).toBe(
      "revenue,vat,revenue_excl_vat,orders,items,entries,conversion,average_basket,average_items,refunds,refunded,net_revenue",
    );
    expect(row).toBe("90.50,18.10,72.40,1,3,0,,90.50,3,0,0.00,90.50");

    for (const table of ["revenue", "sessions-by-hour", "top-categories", "refunds"]) {
      const r = await admin.get(`/api/v1/admin/analytics/${table}?${q(range)}`);
      expect(r.statusCode, table).toBe(200);
      expect(r.headers["content-type"]).toBe("text/csv; charset=utf-8");
    }
    const hours = await admin.get(`/api/v1/admin/analytics/sessions-by-hour?${q(range)}`);
    expect(hours.body.trimEnd().split("\n")).toHaveLength(25);
  });
});

describe("rollups stay exact", () => {
  it("equal a direct aggregate over orders, lines, visits and refunds after concurrent checkouts and refunds", async () => {
    const stores = [await createStore("Mix A"), await createStore("Mix B", "America/New_York")];
    const catalogue = await Promise.all(
      ["Äpple", "Banan", "Citron", "Dadel", "Fikon"].map((name, i) => createProduct(name, i % 2 ? "Frukt" : null)),
    );
    // mulberry32: the same mix on every run.
    let seed = 42;
    const random = (n: number) => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) % n;
    };
    const at = () => new Date(Date.UTC(2025, 8, 1 + random(3), random(24), random(60))).toISOString();
    const work: (() => Promise<unknown>)[] = [];
    for (let i = 0; i < 60; i++) {
      const store = stores[random(2)]!.id;
      const lines = Array.from({ length: 1 + random(3) }, () => ({
        product: catalogue[random(5)]!,
        quantity: 1 + random(4),
        unitOre: 500 + random(3000),
      }));
      const when = at();
      const kind = random(10);
      work.push(async () => {
        await openDoor(store, when);
        if (kind === 0) return placeOrder(store, when, lines, "declined");
        const order = await placeOrder(store, when, lines);
        if (kind < 4) {
          const id = await refund(order.id, 1 + random(order.totalOre), at(), "pending");
          if (kind === 1) await failRefund(id);
          if (kind === 2) await ctx.app.db.execute(sql`update refunds set state = 'succeeded' where id = ${id}`);
        }
      });
    }
    // Several at a time (truly concurrent on PostgreSQL's pool; PGlite runs them one by one).
    for (let i = 0; i < work.length; i += 8) await Promise.all(work.slice(i, i + 8).map((w) => w()));

    const ids = sql.join(
      stores.map((s) => sql`${s.id}::uuid`),
      sql`, `,
    );
    const rollupHours = await queryRows(
      ctx.app.db,
      sql`select store_id, to_char(hour, 'YYYY-MM-DD HH24') as hour, entries, purchases, revenue_ore::bigint::text as revenue_ore,
            vat_ore::text as vat_ore, items, refunds, refunds_ore::text as refunds_ore
          from analytics_store_hours where store_id in (${ids})
            and (entries, purchases, revenue_ore, vat_ore, items, refunds, refunds_ore) <> (0, 0, 0, 0, 0, 0, 0)
          order by 1, 2`,
    );
    const directHours = await queryRows(
      ctx.app.db,
      sql`select store_id, hour, sum(entries)::int as entries, sum(purchases)::int as purchases,
            sum(revenue_ore)::text as revenue_ore, sum(vat_ore)::text as vat_ore, sum(items)::int as items,
            sum(refunds)::int as refunds, sum(refunds_ore)::text as refunds_ore
          from (
            select ss.store_id, to_char(ss.door_opened_at at time zone s.timezone, 'YYYY-MM-DD HH24') as hour,
              1 as entries, 0 as purchases, 0 as revenue_ore, 0 as vat_ore, 0 as items, 0 as refunds, 0 as refunds_ore
            from shopping_sessions ss join stores s on s.id = ss.store_id where ss.door_opened_at is not null
            union all
            select o.store_id, to_char(o.paid_at at time zone s.timezone, 'YYYY-MM-DD HH24'), 0, 1, o.total_ore, o.vat_ore,
              (select sum(quantity) from order_lines l where l.order_id = o.id), 0, 0
            from orders o join stores s on s.id = o.store_id where o.state = 'paid'
            union all
            select o.store_id, to_char(r.created_at at time zone s.timezone, 'YYYY-MM-DD HH24'), 0, 0, 0, 0, 0, 1, r.amount_ore
            from refunds r join orders o on o.id = r.order_id join stores s on s.id = o.store_id where r.state <> 'failed'
          ) x where store_id in (${ids})
          group by 1, 2 order by 1, 2`,
    );
    expect(rollupHours.length).toBeGreaterThan(20);
    expect(rollupHours).toEqual(directHours);

    const rollupDays = await queryRows(
      ctx.app.db,
      sql`select store_id, day::text as day, product_key, quantity, revenue_ore::text as revenue_ore
          from analytics_product_days where store_id in (${ids}) order by 1, 2, 3`,
    );
    const directDays = await queryRows(
      ctx.app.db,
      sql`select o.store_id, (o.paid_at at time zone s.timezone)::date::text as day, l.product_id::text as product_key,
            sum(l.quantity)::int as quantity, sum(l.total_ore)::text as revenue_ore
          from order_lines l join orders o on o.id = l.order_id join stores s on s.id = o.store_id
          where o.state = 'paid' and o.store_id in (${ids})
          group by 1, 2, 3 order by 1, 2, 3`,
    );
    expect(rollupDays).toEqual(directDays);
    const rollupMonths = await queryRows(
      ctx.app.db,
      sql`select store_id, month::text as month, product_key, quantity, revenue_ore::text as revenue_ore
          from analytics_product_months where store_id in (${ids}) order by 1, 2, 3`,
    );
    const directMonths = await queryRows(
      ctx.app.db,
      sql`select o.store_id, date_trunc('month', o.paid_at at time zone s.timezone)::date::text as month,
            l.product_id::text as product_key, sum(l.quantity)::int as quantity, sum(l.total_ore)::text as revenue_ore
          from order_lines l join orders o on o.id = l.order_id join stores s on s.id = o.store_id
          where o.state = 'paid' and o.store_id in (${ids})
          group by 1, 2, 3 order by 1, 2, 3`,
    );
    expect(rollupMonths).toEqual(directMonths);
    // And the refunds the rollups hold are what the orders say was given back.
    const [given] = await queryRows<{ refunded: string; rolled: string }>(
      ctx.app.db,
      sql`select (select coalesce(sum(refunded_ore), 0) from orders where store_id in (${ids}))::text as refunded,
            (select coalesce(sum(refunds_ore), 0) from analytics_store_hours where store_id in (${ids}))::text as rolled`,
    );
    expect(Number(given!.refunded)).toBeGreaterThan(0);
    expect(given!.rolled).toBe(given!.refunded);
  });

  it("are rebuilt identically by the migration's backfill", async () => {
    const snapshot = () =>
      Promise.all([
        queryRows(
          ctx.app.db,
          sql`select * from analytics_store_hours
          where (entries, purchases, revenue_ore, vat_ore, items, refunds, refunds_ore) <> (0, 0, 0, 0, 0, 0, 0)
          order by store_id, hour`,
        ),
        queryRows(
          ctx.app.db,
          sql`select store_id, day::text, product_key, quantity, revenue_ore from analytics_product_days
          where (quantity, revenue_ore) <> (0, 0) order by store_id, day, product_key`,
        ),
        queryRows(
          ctx.app.db,
          sql`select store_id, month::text, product_key, quantity, revenue_ore from analytics_product_months
          where (quantity, revenue_ore) <> (0, 0) order by store_id, month, product_key`,
        ),
      ]);
    const kept = await snapshot();
    expect(kept[0].length).toBeGreaterThan(20);
    await ctx.app.db.execute(sql`delete from analytics_store_hours`);
    await ctx.app.db.execute(sql`delete from analytics_product_days`);
    await ctx.app.db.execute(sql`delete from analytics_product_months`);
    for (const statement of analyticsBackfillStatements()) await ctx.app.db.execute(sql.raw(statement));
    expect(await snapshot()).toEqual(kept);
  });
});
