import { describe, expect, it } from "vitest";
import { describeStatus, itOrdersAndPages } from "../pricing/dated-rules.suites.ts";
import {
  added,
  body,
  day,
  listed,
  OFFERS,
  offerCount,
  platform,
  productAt,
  storeA,
  storeB,
  URL,
  useOffersApp,
} from "./offers.fixtures.ts";

/**
 * The offer list: each offer's status on its own today (the store's calendar,
 * Sweden's for a chain-wide one), the filters, the order and the pages; and
 * bad input. Who sees what: offers.access.test.ts.
 */
useOffersApp();

describeStatus(OFFERS);

describe("the list", () => {
  it("filters by status, store (its own and the chain-wide ones) and label or a product's name or SKU", async () => {
    const tea = await productAt(40, "Grönt te 100% ekologiskt");
    const honey = await productAt(60, "Honung");
    const both = [tea.id, honey.id];
    const a = await added({ product_ids: both, store_id: storeA, starts_on: day(-3), ends_on: day(-1) });
    const b = await added({ product_ids: [tea.id], store_id: storeB, starts_on: day(2), ends_on: day(4) });
    const all = await added({ product_ids: [honey.id], store_id: null, starts_on: day(0), ends_on: day(2) });
    const tag = `Teveckan ${tea.sku}`;
    const c = await added({ label: tag.slice(0, 40), product_ids: [honey.id], starts_on: day(-9), ends_on: day(-9) });
    const ids = async (query: string) => (await listed(`${query}&limit=100`)).items.map((o) => o.id);

    expect(await ids(`search=${encodeURIComponent("grönt TE")}`)).toEqual([b.id, a.id]);
    expect(await ids(`search=${tea.sku.toLowerCase()}`)).toEqual([b.id, a.id, c.id]);
    expect(await ids(`search=${honey.sku}`)).toEqual([all.id, a.id, c.id]);
    // % and _ are matched as themselves.
    expect(await ids(`search=${encodeURIComponent("100%")}`)).toEqual([b.id, a.id]);
    expect(await ids(`search=${encodeURIComponent("0_e")}`)).toEqual([]);
    expect(await ids(`search=${tea.sku}&status=ended`)).toEqual([a.id, c.id]);
    expect(await ids(`search=${honey.sku}&status=active`)).toEqual([all.id]);
    expect(await ids(`search=${tea.sku}&status=upcoming`)).toEqual([b.id]);
    expect(await ids(`search=${honey.sku}&store_id=${storeA}`)).toEqual([all.id, a.id, c.id]);
    expect(await ids(`search=${tea.sku}&store_id=${storeB}&status=upcoming`)).toEqual([b.id]);
  });

  itOrdersAndPages(OFFERS);
});

describe("bad input", () => {
  it.each([
    [{ kind: "two_free" }, "kind: kind must be one of one_free, amount"],
    [{ kind: "amount", buy: 2, amount: -0.01 }, "amount: amount cannot be negative"],
    [{ kind: "amount", buy: 2, amount: 1.234 }, "amount: amount allows at most two decimals"],
    [{ kind: "amount", buy: 2, amount: "19.90" }, "amount: amount is a number of kronor"],
    [{ buy: "3" }, "buy: buy must be a whole number"],
    [{ buy: undefined }, "buy: buy is required"],
    [{ label: 3 }, "label"],
    [{ product_ids: ["kaffe"] }, "product_ids.0: product_ids must be UUIDs"],
    [{ product_ids: "kaffe" }, "product_ids: product_ids is a list of product ids"],
    [{ starts_on: "2026-02-30" }, "starts_on: starts_on is not a day of the calendar"],
    [{ ends_on: "1/1/2027" }, "ends_on: ends_on is a date as YYYY-MM-DD"],
    [{ store_id: "butik" }, "store_id: store_id must be a UUID"],
    [{ store_id: undefined }, "store_id"],
    [{ limit_per_visit: undefined }, "limit_per_visit"],
    [{ limit_per_visit: 1.5 }, "limit_per_visit: limit_per_visit must be a whole number"],
    [{ extra: 1 }, "extra"],
  ])("refuses %j with 422 and a detail (%s)", async (change, words) => {
    const made = await added();
    const before = await offerCount();
    for (const res of [await platform.post(URL, body(change)), await platform.put(`${URL}/${made.id}`, body(change))]) {
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toMatchObject({ code: "validation_error" });
      expect(res.json().detail).toContain(words);
    }
    expect(await offerCount()).toBe(before);
  });

  it.each([
    ["status=soon", "status must be one of upcoming, active, ended"],
    ["store_id=butik", "store_id must be a UUID"],
    ["limit=0", "limit must be at least 1"],
    ["limit=101", "limit must be at most 100"],
    ["offset=-1", "offset must be 0 or more"],
    [`search=${"x".repeat(201)}`, "search must be at most 200 characters"],
  ])("refuses the list query %s with 400 and a detail", async (query, words) => {
    const res = await platform.get(`${URL}?${query}`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().detail).toContain(words);
  });
});
