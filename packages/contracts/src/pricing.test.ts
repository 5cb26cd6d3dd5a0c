import { describe, expect, it } from "vitest";
import { type Offer, type PriceLine, type PricingContext, priceCart } from "./pricing.ts";
import type { VatCategory } from "./vat.ts";

/** Receipts worked out by hand: food at 6 %, everything else here at 25 %. */
const RATES: Record<VatCategory, number> = {
  standard: 2500,
  food: 600,
  alcoholic_drink: 2500,
  books_newspapers: 600,
  exempt: 0,
};
const day = "2026-11-27";
const context: PricingContext = { day, member: false, vatRateOf: (c) => RATES[c] };
const line = (id: string, unit: number, quantity = 1, extra: Partial<PriceLine> = {}): PriceLine => ({
  id: `line-${id}`,
  product_id: id,
  quantity,
  unit_price_ore: unit,
  vat_category: "food",
  ...extra,
});
const offer = (fields: Partial<Offer> & Pick<Offer, "id" | "product_ids" | "buy" | "deal">): Offer => ({
  label: fields.id,
  limit_per_visit: null,
  from: "2026-11-01",
  to: "2026-11-30",
  ...fields,
});
const threeForTwo = (ids: string[], extra: Partial<Offer> = {}) =>
  offer({ id: "3for2", label: "3 för 2", product_ids: ids, buy: 3, deal: { kind: "one_free" }, ...extra });

describe("multi-buy offers", () => {
  it("3 för 2 Bregott at 49,90: −49,90, 99,80 to pay, 5,65 VAT at 6 %", () => {
    const cart = priceCart([line("bregott", 4990, 3)], { campaigns: [], offers: [threeForTwo(["bregott"])] }, context);
    expect(cart.discounts).toEqual([
      {
        offer_id: "3for2",
        label: "3 för 2",
        times: 1,
        amount_ore: 4990,
        per_rate: [{ vat_rate_bp: 600, amount_ore: 4990 }],
        per_line: [{ line_id: "line-bregott", amount_ore: 4990 }],
      },
    ]);
    expect(cart.lines[0]).toMatchObject({ total_ore: 14970, discount_ore: 4990 });
    // 99,80 · 6/106 = 5,649… → 5,65.
    expect(cart).toMatchObject({ goods_ore: 14970, discount_ore: 4990, total_ore: 9980, vat_ore: 565 });
  });

  it("a removal takes the discount away: two Bregott pay 99,80 with no discount", () => {
    const cart = priceCart([line("bregott", 4990, 2)], { campaigns: [], offers: [threeForTwo(["bregott"])] }, context);
    expect(cart.discounts).toEqual([]);
    expect(cart.total_ore).toBe(9980);
  });

  it("2 för 35 kr at 19,90: two pay 35,00; a third pays its own 19,90", () => {
    const rules = {
      campaigns: [],
      offers: [offer({ id: "2for35", product_ids: ["juice"], buy: 2, deal: { kind: "amount", amount_ore: 3500 } })],
    };
    expect(priceCart([line("juice", 1990, 2)], rules, context).total_ore).toBe(3500);
    expect(priceCart([line("juice", 1990, 3)], rules, context)).toMatchObject({ total_ore: 5490, discount_ore: 480 });
  });

  it("mix and match over two rates: the amount is shared by price, the öre left to the larger remainder", () => {
    const rules = {
      campaigns: [],
      offers: [
        offer({ id: "chips-dip", product_ids: ["chips", "dip"], buy: 2, deal: { kind: "amount", amount_ore: 3000 } }),
      ],
    };
    const cart = priceCart([line("chips", 2490, 1, { vat_category: "standard" }), line("dip", 1490)], rules, context);
    // 39,80 for 30,00: 9,80 off (less than the cheapest, 14,90). By price: 6,1307 and 3,6693 → 6,13 and 3,67.
    expect(cart.discounts[0]!.per_rate).toEqual([
      { vat_rate_bp: 2500, amount_ore: 613 },
      { vat_rate_bp: 600, amount_ore: 367 },
    ]);
    // 25 %: 18,77 → 3,754 → 3,75; 6 %: 11,23 → 0,6357 → 0,64.
    expect(cart.vat).toEqual([
      { vatRateBp: 2500, grossOre: 1877, vatOre: 375, netOre: 1502 },
      { vatRateBp: 600, grossOre: 1123, vatOre: 64, netOre: 1059 },
    ]);
    expect(cart).toMatchObject({ total_ore: 3000, vat_ore: 439 });
    expect(cart.lines.map((l) => l.discount_ore)).toEqual([613, 367]);
  });

  it("the free unit's line gives the discount: 3 för 2 over milk at 20 and coffee at 50 takes 20 off the milk", () => {
    const cart = priceCart(
      [line("coffee", 5000, 2), line("milk", 2000)],
      { campaigns: [], offers: [threeForTwo(["coffee", "milk"])] },
      context,
    );
    expect(cart.discounts[0]!.per_line).toEqual([{ line_id: "line-milk", amount_ore: 2000 }]);
    expect(cart.lines.map((l) => l.discount_ore)).toEqual([0, 2000]);
  });

  it("an amount over units of one line stays on that line: 2 för 35 kr on one juice line", () => {
    const rules = {
      campaigns: [],
      offers: [offer({ id: "2for35", product_ids: ["juice"], buy: 2, deal: { kind: "amount", amount_ore: 3500 } })],
    };
    const cart = priceCart([line("juice", 1990, 3)], rules, context);
    expect(cart.discounts[0]!.per_line).toEqual([{ line_id: "line-juice", amount_ore: 480 }]);
    expect(cart.lines[0]!.discount_ore).toBe(480);
  });

  it("an amount never takes off more than the group's cheapest unit", () => {
    const rules = {
      campaigns: [],
      offers: [offer({ id: "3for50", product_ids: ["a", "b"], buy: 3, deal: { kind: "amount", amount_ore: 5000 } })],
    };
    // 30 + 30 + 5 = 65 for 50 would be 15 off; 5,00 is all the cheapest costs.
    expect(priceCart([line("a", 3000, 2), line("b", 500)], rules, context).discount_ore).toBe(500);
  });

  it("a limit per visit: six units of a 3 för 2 used once get one free", () => {
    const rules = { campaigns: [], offers: [threeForTwo(["bregott"], { limit_per_visit: 1 })] };
    expect(priceCart([line("bregott", 4990, 6)], rules, context).discounts[0]).toMatchObject({
      times: 1,
      amount_ore: 4990,
    });
  });

  it("mix and match gives the cheapest of each group of the dearest: 30, 20, 20, 10, 10, 10 free 20 and 10", () => {
    const cart = priceCart(
      [line("a", 3000), line("b", 2000, 2), line("c", 1000, 3)],
      { campaigns: [], offers: [threeForTwo(["a", "b", "c"])] },
      context,
    );
    expect(cart.discounts[0]).toMatchObject({ times: 2, amount_ore: 3000 });
  });

  it("overlapping offers: the combination that takes the most off wins, whichever is listed first", () => {
    const pair = offer({ id: "a-2for30", product_ids: ["y"], buy: 2, deal: { kind: "amount", amount_ore: 3000 } });
    const three = threeForTwo(["x", "y"], { id: "b-3for2" });
    for (const offers of [
      [pair, three],
      [three, pair],
    ]) {
      const cart = priceCart([line("y", 2000, 3)], { campaigns: [], offers }, context);
      // 2 för 30 then nothing (10 off) against 3 för 2 (20 off).
      expect(cart.discounts.map((d) => [d.offer_id, d.amount_ore])).toEqual([["b-3for2", 2000]]);
    }
  });

  it("among units of one price, an offer takes first those no other offer may take, in whatever order the cart is", () => {
    // Four at 49,90 for 0 kr more (p2, p9) and 3 för 2 (p2, p3). Five units at 49,90: if the four took both p2s
    // (the first by product), the 3 för 2 would have one p2 at 0,01 and the p3 left: no group. Taking the three p9s
    // first, which only the four may take, leaves it a p2.
    const four = offer({ id: "a-four", product_ids: ["p2", "p9"], buy: 4, deal: { kind: "amount", amount_ore: 0 } });
    const three = threeForTwo(["p3", "p2"], { id: "b-3for2" });
    const lines = [line("p2", 4990, 2), line("p2", 1, 1, { id: "line-p2-cheap" }), line("p3", 1), line("p9", 4990, 3)];
    for (const cart of [lines, [...lines].reverse()]) {
      for (const offers of [
        [four, three],
        [three, four],
      ]) {
        const priced = priceCart(cart, { campaigns: [], offers }, context);
        expect(priced.discounts.map((d) => [d.offer_id, d.amount_ore])).toEqual([
          ["a-four", 4990],
          ["b-3for2", 1],
        ]);
        expect(priced.total_ore).toBe(4 * 4990 + 2 - 1);
      }
    }
  });

  it("an offer outside its days, or for members only, is not given", () => {
    const cart = [line("bregott", 4990, 3)];
    expect(
      priceCart(cart, { campaigns: [], offers: [threeForTwo(["bregott"], { to: "2026-11-26" })] }, context)
        .discount_ore,
    ).toBe(0);
    expect(
      priceCart(cart, { campaigns: [], offers: [threeForTwo(["bregott"], { from: "2026-11-28" })] }, context)
        .discount_ore,
    ).toBe(0);
    const members = { campaigns: [], offers: [threeForTwo(["bregott"], { members_only: true })] };
    expect(priceCart(cart, members, context).discount_ore).toBe(0);
    expect(priceCart(cart, members, { ...context, member: true }).discount_ore).toBe(4990);
  });
});

describe("campaigns, member prices and pant", () => {
  const kaffe = [line("kaffe", 5490, 2, { vat_category: "food" })];
  const campaign = { id: "kampanj", product_id: "kaffe", price_ore: 3990, from: "2026-11-23", to: "2026-11-29" };

  it("a campaign of the day prices the line and keeps the ordinary price beside it", () => {
    const [priced] = priceCart(kaffe, { campaigns: [campaign], offers: [] }, context).lines;
    expect(priced).toMatchObject({
      ordinary_unit_ore: 5490,
      unit_price_ore: 3990,
      campaign_id: "kampanj",
      total_ore: 7980,
    });
  });

  it("the day after it ends, or a campaign dearer than the shelf, the ordinary price", () => {
    const after = priceCart(kaffe, { campaigns: [campaign], offers: [] }, { ...context, day: "2026-11-30" });
    expect(after.lines[0]).toMatchObject({ unit_price_ore: 5490, campaign_id: null });
    const dearer = priceCart(kaffe, { campaigns: [{ ...campaign, price_ore: 5990 }], offers: [] }, context);
    expect(dearer.lines[0]!.unit_price_ore).toBe(5490);
  });

  it("a member price goes to members only, and the lowest price of the day wins", () => {
    const member = { ...campaign, id: "medlem", price_ore: 3490, members_only: true };
    const rules = { campaigns: [campaign, member], offers: [] };
    expect(priceCart(kaffe, rules, context).lines[0]).toMatchObject({ unit_price_ore: 3990, members_price: false });
    expect(priceCart(kaffe, rules, { ...context, member: true }).lines[0]).toMatchObject({
      unit_price_ore: 3490,
      campaign_id: "medlem",
      members_price: true,
    });
  });

  it("pant is its own amount per unit, at the drink's rate, and no offer takes it off", () => {
    const cart = priceCart(
      [line("lask", 2190, 2, { pant_ore: 200 })],
      { campaigns: [], offers: [offer({ id: "2for1", product_ids: ["lask"], buy: 2, deal: { kind: "one_free" } })] },
      context,
    );
    expect(cart.lines[0]!.pant).toEqual({ unit_ore: 200, total_ore: 400 });
    // 43,80 − 21,90 + 4,00 = 25,90; 25,90 · 6/106 = 1,466… → 1,47.
    expect(cart).toMatchObject({ goods_ore: 4380, pant_ore: 400, discount_ore: 2190, total_ore: 2590, vat_ore: 147 });
  });

  it("a weighed label takes neither a campaign per unit nor a multi-buy", () => {
    const weighed = [line("ost", 8950, 1, { weighed: true }), line("ost", 8950, 1, { weighed: true, id: "l2" })];
    const rules = {
      campaigns: [{ ...campaign, product_id: "ost", price_ore: 100 }],
      offers: [offer({ id: "2for1", product_ids: ["ost"], buy: 2, deal: { kind: "one_free" } })],
    };
    expect(priceCart(weighed, rules, context)).toMatchObject({ total_ore: 17900, discount_ore: 0 });
  });
});
