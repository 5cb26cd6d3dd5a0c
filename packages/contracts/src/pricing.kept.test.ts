import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Offer, type OfferRuns, offerRuns, type PriceLine, type PricingContext, priceCart } from "./pricing.ts";

/**
 * A visit's carts priced one after another with the offers' answers kept
 * (OfferRuns): each answer is the one the cart gets priced alone, whatever
 * came before it; a change to one group of competing offers searches that
 * group again and takes the others as kept; and the kept answers stay as
 * few as the groups of the last carts.
 */
const context: PricingContext = { day: "2026-11-27", member: false, vatRateOf: () => 2500 };
const line = (product: string, unit: number, quantity = 1): PriceLine => ({
  id: `line-${product}`,
  product_id: product,
  quantity,
  unit_price_ore: unit,
  vat_category: "standard",
});
const offer = (id: string, product_ids: string[], fields: Partial<Offer> = {}): Offer => ({
  id,
  label: id,
  product_ids,
  buy: 3,
  deal: { kind: "one_free" },
  limit_per_visit: null,
  from: "2026-11-01",
  to: "2026-11-30",
  ...fields,
});
const price = (lines: PriceLine[], offers: Offer[], runs?: OfferRuns) =>
  priceCart(lines, { campaigns: [], offers }, context, runs);

describe("a kept answer", () => {
  it("is taken for a group the change did not touch, and only the touched group is searched again", () => {
    const offers = [offer("butter", ["butter"]), offer("juice", ["juice"])];
    const runs = offerRuns();
    price([line("butter", 4990, 3), line("juice", 2500, 3)], offers, runs);
    const before = [...runs.keys()];
    expect(before).toHaveLength(2);
    // The juice group's kept answer is made to say something else: the next cart takes it as it is.
    const juiceKey = before.find((key) => runs.get(key)!.some((a) => a.amount === 2500))!;
    runs.set(juiceKey, [{ ...runs.get(juiceKey)![0]!, amount: 1 }]);
    const next = price([line("butter", 4990, 4), line("juice", 2500, 3)], offers, runs);
    expect(next.discounts.map((d) => [d.offer_id, d.amount_ore])).toEqual([
      ["butter", 4990],
      ["juice", 1],
    ]);
    // One answer more (the butter group's new cart); the juice one is the kept one.
    expect(runs.size).toBe(3);
    expect(runs.has(juiceKey)).toBe(true);
  });

  it("is not taken for the same prices on another product of the group", () => {
    // Two butters at 10 kr and a juice at 5 kr, then two juices at 10 kr and a butter at 5 kr: the same prices in
    // the same order, but only juice has "2 för 1 juice" (1,000 öre off), and the mix "2 för 18 kr" gives 200.
    const offers = [
      offer("mix", ["butter", "juice"], { buy: 2, deal: { kind: "amount", amount_ore: 1800 } }),
      offer("juice2", ["juice"], { buy: 2 }),
    ];
    const runs = offerRuns();
    const first = price([line("butter", 1000, 2), line("juice", 500)], offers, runs);
    expect(first.discounts.map((d) => [d.offer_id, d.amount_ore])).toEqual([["mix", 200]]);
    const second = price([line("juice", 1000, 2), line("butter", 500)], offers, runs);
    expect(second.discounts.map((d) => [d.offer_id, d.amount_ore])).toEqual([["juice2", 1000]]);
    expect(second).toEqual(price([line("juice", 1000, 2), line("butter", 500)], offers));
    // The same with bread at the end of both: only the runs before it tell the two carts apart.
    const withBread = [offers[0]!, offers[1]!, offer("bread", ["bread"], { buy: 9 })];
    withBread[0] = offer("mix", ["butter", "juice", "bread"], { buy: 2, deal: { kind: "amount", amount_ore: 1800 } });
    price([line("butter", 1000, 2), line("juice", 500), line("bread", 300)], withBread, runs);
    const juices = [line("juice", 1000, 2), line("butter", 500), line("bread", 300)];
    expect(price(juices, withBread, runs).discounts.map((d) => [d.offer_id, d.amount_ore])).toEqual([["juice2", 1000]]);
  });

  it("is not taken for units one after another that differ in product or in price", () => {
    const offers = [
      offer("butter2", ["butter"], { buy: 2 }),
      offer("mix", ["butter", "juice"], { buy: 2, deal: { kind: "amount", amount_ore: 1800 } }),
    ];
    const runs = offerRuns();
    expect(price([line("butter", 1000, 2)], offers, runs).discount_ore).toBe(1000);
    // A butter and a juice at the same price: only the mix takes them.
    const mixed = [line("butter", 1000), line("juice", 1000)];
    expect(price(mixed, offers, runs).discounts.map((d) => [d.offer_id, d.amount_ore])).toEqual([["mix", 200]]);
    // Two lines of butter, the second at a lower price (another line key): 2 för 1 takes the cheaper one.
    const twoLines = [line("butter", 1000), { ...line("butter", 500), id: "line-butter-2" }];
    expect(price(twoLines, offers, runs).discount_ore).toBe(500);
  });

  it("is known by its own group's products, whatever the other groups of the cart", () => {
    // Counted over the whole cart, a group's products would move up by one when a group before it (bread's)
    // leaves the cart, and the juices below would look like the butters above.
    const offers = [
      offer("bread", ["bread"]),
      offer("mix", ["butter", "juice"], { buy: 2, deal: { kind: "amount", amount_ore: 1800 } }),
      offer("two", ["soap", "butter"], { buy: 2 }),
    ];
    const runs = offerRuns();
    const butters = price([line("butter", 1000, 2), line("juice", 10), line("bread", 500)], offers, runs);
    expect(butters.discounts.map((d) => [d.offer_id, d.amount_ore])).toEqual([["two", 1000]]);
    const juices = [line("juice", 1000, 2), line("soap", 10)];
    expect(price(juices, offers, runs)).toEqual(price(juices, offers));
    expect(price(juices, offers).discounts.map((d) => [d.offer_id, d.amount_ore])).toEqual([["mix", 200]]);
  });

  it("is not taken for an offer changed since (a new object with the same id)", () => {
    const runs = offerRuns();
    const cart = [line("butter", 4990, 4)];
    expect(price(cart, [offer("butter", ["butter"])], runs).discount_ore).toBe(4990);
    const changed = offer("butter", ["butter"], { buy: 2 });
    expect(price(cart, [changed], runs).discount_ore).toBe(2 * 4990);
    const amount = offer("butter", ["butter"], { buy: 2, deal: { kind: "amount", amount_ore: 9000 } });
    expect(price(cart, [amount], runs).discount_ore).toBe(2 * 980);
    const limited = offer("butter", ["butter"], { buy: 2, limit_per_visit: 1 });
    expect(price(cart, [limited], runs).discount_ore).toBe(4990);
  });
});

describe("the answers kept", () => {
  it("are at most twice the groups of the last cart priced, the least recently used forgotten first", () => {
    const offers = [offer("butter", ["butter"]), offer("juice", ["juice"])];
    const runs = offerRuns();
    for (let quantity = 1; quantity <= 6; quantity++)
      price([line("butter", 4990, quantity), line("juice", 2500, 3)], offers, runs);
    // The juice group's answer, used by every cart, and the butter group's last three.
    expect(runs.size).toBe(4);
    price([line("juice", 2500, 3)], offers, runs);
    expect(runs.size).toBe(2);
    price([line("soap", 1000, 3)], offers, runs);
    expect(runs.size).toBe(0);
  });
});

const PRODUCTS = ["p1", "p2", "p3", "p4", "p5", "p6"];
const offerArb = fc.record({
  id: fc.constantFrom("o1", "o2", "o3", "o4", "o5"),
  product_ids: fc.uniqueArray(fc.constantFrom(...PRODUCTS), { minLength: 1, maxLength: 3 }),
  buy: fc.integer({ min: 2, max: 4 }),
  deal: fc.oneof(
    fc.constant({ kind: "one_free" as const }),
    fc.record({ kind: fc.constant("amount" as const), amount_ore: fc.integer({ min: 0, max: 30_000 }) }),
  ),
  limit_per_visit: fc.oneof(fc.constant(null), fc.integer({ min: 1, max: 3 })),
});
const offersArb = fc
  .uniqueArray(offerArb, { maxLength: 5, selector: (o) => o.id })
  .map((list) => list.map((fields) => offer(fields.id, fields.product_ids, fields)));
/** One change to the cart or the rules between two pricings of a visit. */
const stepArb = fc.oneof(
  fc.record({ kind: fc.constant("scan" as const), product: fc.constantFrom(...PRODUCTS) }),
  fc.record({ kind: fc.constant("remove" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("price" as const), at: fc.nat(), unit: fc.integer({ min: 0, max: 9_000 }) }),
  fc.record({ kind: fc.constant("offers" as const), offers: offersArb }),
);

describe("a visit's carts priced one after another", () => {
  it("each cost what it costs priced alone, whatever was kept before it", () => {
    fc.assert(
      fc.property(offersArb, fc.array(stepArb, { minLength: 1, maxLength: 25 }), (first, steps) => {
        const runs = offerRuns();
        let offers = first;
        let lines: PriceLine[] = [];
        for (const step of steps) {
          if (step.kind === "scan") {
            const at = lines.findIndex((l) => l.product_id === step.product);
            // Two prices for six products: alike prices on other products, one after another.
            const unit = 500 + (PRODUCTS.indexOf(step.product) % 2) * 500;
            if (at < 0) lines = [...lines, line(step.product, unit)];
            else lines = lines.with(at, { ...lines[at]!, quantity: lines[at]!.quantity + 1 });
          } else if (step.kind === "remove" && lines.length > 0) lines = lines.toSpliced(step.at % lines.length, 1);
          else if (step.kind === "price" && lines.length > 0)
            lines = lines.with(step.at % lines.length, {
              ...lines[step.at % lines.length]!,
              unit_price_ore: step.unit,
            });
          else if (step.kind === "offers") offers = step.offers;
          expect(price(lines, offers, runs)).toEqual(price(lines, offers));
        }
      }),
      { numRuns: 500 },
    );
  });
});
