import { analyticsTopCategorySchema, analyticsTopProductSchema } from "@glide/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { admin, createProduct, createStore, ctx, openAnalyticsTests, placeOrder, read } from "./analytics.fixtures.ts";
import { productPieces } from "./analytics.service.ts";

beforeAll(openAnalyticsTests);
afterAll(() => ctx.close());

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
