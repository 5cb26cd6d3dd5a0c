import { calendarDay } from "@glide/contracts";
import { describe, expect, it } from "vitest";
import { homeToday } from "../vat-rates/vat-rate-table.ts";
import { added, day, listed, productAt, storeA, storeB, storeIn, useCampaignsApp } from "./campaigns.fixtures.ts";

/**
 * The campaign list: each campaign's status on its own today (the store's
 * calendar, Sweden's for a chain-wide one), the filters, the order and the
 * pages. Who sees what: campaigns.access.test.ts.
 */
useCampaignsApp();

describe("a campaign's status", () => {
  it("is active from its first day to its last, both counted; upcoming before, ended after", async () => {
    const cases = [
      [day(1), day(5), "upcoming"],
      [day(0), day(5), "active"],
      [day(-5), day(0), "active"],
      [day(0), day(0), "active"],
      [day(-5), day(-1), "ended"],
    ] as const;
    for (const [starts_on, ends_on, status] of cases) {
      expect(await added({ starts_on, ends_on }), `${starts_on} to ${ends_on}`).toMatchObject({ status });
    }
  });

  it("is judged on the store's own calendar day, and on Sweden's for a chain-wide campaign", async () => {
    // Kiritimati (UTC+14) is always a day or two ahead of Pago Pago (UTC-11).
    const ahead = await storeIn("Pacific/Kiritimati");
    const behind = await storeIn("Pacific/Pago_Pago");
    const now = new Date();
    const theirToday = calendarDay(now, "Pacific/Kiritimati");
    const days = { starts_on: theirToday, ends_on: day(3, theirToday) };
    expect(await added({ ...days, store_id: ahead })).toMatchObject({ status: "active" });
    expect(await added({ ...days, store_id: behind })).toMatchObject({ status: "upcoming" });
    const home = theirToday > homeToday(now) ? "upcoming" : "active";
    expect(await added({ ...days, store_id: null })).toMatchObject({ status: home });
    const ended = { starts_on: day(-3, theirToday), ends_on: day(-1, theirToday) };
    expect(await added({ ...ended, store_id: ahead })).toMatchObject({ status: "ended" });
    const pagoToday = calendarDay(now, "Pacific/Pago_Pago");
    expect(await added({ ...ended, store_id: behind })).toMatchObject({
      status: ended.ends_on < pagoToday ? "ended" : "active",
    });
  });
});

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

  it("puts the latest first day first, and pages with the total in X-Total-Count", async () => {
    const jam = await productAt(30, "Sylt");
    const made = [];
    for (const offset of [5, 1, 9, 3])
      made.push(await added({ product_id: jam.id, starts_on: day(offset), ends_on: day(offset) }));
    const order = [made[2]!, made[0]!, made[3]!, made[1]!].map((c) => c.id);
    const first = await listed(`search=${jam.sku}&limit=3`);
    expect(first.total).toBe(4);
    expect(first.items.map((c) => c.id)).toEqual(order.slice(0, 3));
    const second = await listed(`search=${jam.sku}&limit=3&offset=3`);
    expect(second.total).toBe(4);
    expect(second.items.map((c) => c.id)).toEqual(order.slice(3));
    expect((await listed(`search=${jam.sku}&offset=10`)).items).toEqual([]);
  });

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
