import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin, createProduct, createStore, ctx, openAnalyticsTests, placeOrder, q } from "./analytics.fixtures.ts";

beforeAll(openAnalyticsTests);
afterAll(() => ctx.close());

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
