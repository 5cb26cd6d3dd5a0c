import { describe, expect, it } from "vitest";
import { describeStatus, itOrdersAndPages } from "../pricing/dated-rules.suites.ts";
import { added, CAMPAIGNS, day, listed, productAt, storeA, storeB, useCampaignsApp } from "./campaigns.fixtures.ts";

/**
 * The campaign list: each campaign's status on its own today (the store's
 * calendar, Sweden's for a chain-wide one), the filters, the order and the
 * pages. Who sees what: campaigns.access.test.ts.
 */
useCampaignsApp();

describeStatus(CAMPAIGNS);

describe("the list", () => {
  it("filters by status, store (its own and the chain-wide ones) and product name or SKU", async () => {
    const tea = await productAt(40, "Grönt te 100% ekologiskt");
    const a = await added({ product_id: tea.id, store_id: storeA, starts_on: day(-3), ends_on: day(-1) });
    const b = await added({ product_id: tea.id, store_id: storeB, starts_on: day(2), ends_on: day(4) });
    const all = await added({ product_id: tea.id, store_id: null, starts_on: day(0), ends_on: day(2) });
    const ids = async (query: string) => (await listed(`${query}&limit=100`)).items.map((c) => c.id);

    expect(await ids(`search=${encodeURIComponent("grönt TE")}`)).toEqual([b.id, all.id, a.id]);
    expect(await ids(`search=${tea.sku.toLowerCase()}`)).toEqual([b.id, all.id, a.id]);
    // % and _ are matched as themselves.
    expect(await ids(`search=${encodeURIComponent("100%")}`)).toEqual([b.id, all.id, a.id]);
    expect(await ids(`search=${encodeURIComponent("0_e")}`)).toEqual([]);
    expect(await ids(`search=${tea.sku}&status=ended`)).toEqual([a.id]);
    expect(await ids(`search=${tea.sku}&status=active`)).toEqual([all.id]);
    expect(await ids(`search=${tea.sku}&status=upcoming`)).toEqual([b.id]);
    expect(await ids(`search=${tea.sku}&store_id=${storeA}`)).toEqual([all.id, a.id]);
    expect(await ids(`search=${tea.sku}&store_id=${storeB}&status=upcoming`)).toEqual([b.id]);
  });

  itOrdersAndPages(CAMPAIGNS);

  it("shows each campaign with its product, ordinary price and store", async () => {
    const bread = await productAt(32.5, "Surdegsbröd");
    const made = await added({ product_id: bread.id, store_id: storeB, price: 29.9 });
    const [row] = (await listed(`search=${bread.sku}`)).items;
    expect(row).toEqual({
      ...made,
      sku: bread.sku,
      product_name: "Surdegsbröd",
      ordinary_price: 32.5,
      store_id: storeB,
      store_name: "Grannbutiken",
      price: 29.9,
    });
  });
});
