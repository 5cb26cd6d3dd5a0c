import { analyticsRevenueSchema } from "@glide/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { as, signIn } from "../../test/harness.ts";
import {
  admin,
  createProduct,
  createStore,
  ctx,
  openAnalyticsTests,
  placeOrder,
  q,
  read,
  summary,
} from "./analytics.fixtures.ts";

beforeAll(openAnalyticsTests);
afterAll(() => ctx.close());

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
