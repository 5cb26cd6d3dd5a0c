import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Campaign, type Offer, type PriceLine, type PricingContext, priceCart } from "./pricing.ts";
import { VAT_CATEGORIES, type VatCategory } from "./vat.ts";

/**
 * What must hold for every cart, every set of rules and every day: random
 * carts of up to eight lines over six products, up to five offers that may
 * overlap (mix and match, amounts, limits, members only) and campaigns.
 */
const RATES: Record<VatCategory, number> = {
  standard: 2500,
  food: 600,
  alcoholic_drink: 2500,
  books_newspapers: 600,
  exempt: 0,
};
const PRODUCTS = ["p1", "p2", "p3", "p4", "p5", "p6"];
const DAYS = ["2026-11-01", "2026-11-15", "2026-11-30"];

const lineArb = fc.record({
  product_id: fc.constantFrom(...PRODUCTS),
  quantity: fc.integer({ min: 1, max: 6 }),
  unit_price_ore: fc.oneof(fc.integer({ min: 0, max: 20_000 }), fc.constantFrom(0, 1, 4990, 1990)),
  vat_category: fc.constantFrom(...VAT_CATEGORIES),
  pant_ore: fc.constantFrom(0, 100, 200, 300),
  weighed: fc.integer({ min: 0, max: 6 }).map((n) => n === 0),
});
const validity = { from: fc.constantFrom(...DAYS), to: fc.constantFrom(...DAYS), members_only: fc.boolean() };
const offerArb = fc.record({
  id: fc.constantFrom("o1", "o2", "o3", "o4", "o5"),
  label: fc.constant("erbjudande"),
  product_ids: fc.uniqueArray(fc.constantFrom(...PRODUCTS), { minLength: 1, maxLength: 3 }),
  buy: fc.integer({ min: 2, max: 4 }),
  deal: fc.oneof(
    fc.constant({ kind: "one_free" as const }),
    fc.record({ kind: fc.constant("amount" as const), amount_ore: fc.integer({ min: 0, max: 60_000 }) }),
  ),
  limit_per_visit: fc.oneof(fc.constant(null), fc.integer({ min: 1, max: 3 })),
  ...validity,
});
const campaignArb = fc.record({
  id: fc.constantFrom("c1", "c2", "c3"),
  product_id: fc.constantFrom(...PRODUCTS),
  price_ore: fc.integer({ min: 0, max: 20_000 }),
  ...validity,
});
const cartArb = fc.record({
  lines: fc
    .array(lineArb, { minLength: 1, maxLength: 8 })
    .map((lines) => lines.map((line, i): PriceLine => ({ ...line, id: `l${i}` }))),
  offers: fc.uniqueArray(offerArb, { maxLength: 5, selector: (offer) => offer.id }) as fc.Arbitrary<Offer[]>,
  campaigns: fc.uniqueArray(campaignArb, { maxLength: 3, selector: (c) => c.id }) as fc.Arbitrary<Campaign[]>,
  day: fc.constantFrom(...DAYS),
  member: fc.boolean(),
});

type CartCase = typeof cartArb extends fc.Arbitrary<infer T> ? T : never;

const price = (input: CartCase) => {
  const context: PricingContext = { day: input.day, member: input.member, vatRateOf: (c) => RATES[c] };
  return priceCart(input.lines, { offers: input.offers, campaigns: input.campaigns }, context);
};

describe("pricing a cart, for any cart and rules", () => {
  it("the total is never below zero, and is the goods plus pant less the discounts", () => {
    fc.assert(
      fc.property(cartArb, (input) => {
        const cart = price(input);
        expect(cart.total_ore).toBeGreaterThanOrEqual(0);
        expect(cart.total_ore).toBe(cart.goods_ore + cart.pant_ore - cart.discount_ore);
      }),
      { numRuns: 400 },
    );
  });

  it("the VAT lines add up to the VAT and their gross to the total; each rate's VAT is G·r/(1+r) once", () => {
    fc.assert(
      fc.property(cartArb, (input) => {
        const cart = price(input);
        expect(cart.vat.reduce((sum, rate) => sum + rate.vatOre, 0)).toBe(cart.vat_ore);
        expect(cart.vat.reduce((sum, rate) => sum + rate.grossOre, 0)).toBe(cart.total_ore);
        for (const rate of cart.vat) {
          expect(rate.grossOre).toBeGreaterThanOrEqual(0);
          expect(rate.vatOre).toBe(Math.round((rate.grossOre * rate.vatRateBp) / (10_000 + rate.vatRateBp)));
        }
      }),
      { numRuns: 400 },
    );
  });

  it("a discount never exceeds the goods it applies to, and its shares per rate add up to it", () => {
    fc.assert(
      fc.property(cartArb, (input) => {
        const cart = price(input);
        for (const discount of cart.discounts) {
          const offer = input.offers.find((o) => o.id === discount.offer_id)!;
          const goods = cart.lines
            .filter((line, i) => offer.product_ids.includes(line.product_id) && !input.lines[i]!.weighed)
            .reduce((sum, line) => sum + line.total_ore, 0);
          expect(discount.amount_ore).toBeGreaterThan(0);
          expect(discount.amount_ore).toBeLessThanOrEqual(goods);
          expect(discount.per_rate.reduce((sum, share) => sum + share.amount_ore, 0)).toBe(discount.amount_ore);
          if (offer.limit_per_visit !== null) expect(discount.times).toBeLessThanOrEqual(offer.limit_per_visit);
        }
        expect(cart.discount_ore).toBeLessThanOrEqual(cart.goods_ore);
      }),
      { numRuns: 400 },
    );
  });

  it("a discount's shares per line add up to it, and no line gives more than its goods", () => {
    fc.assert(
      fc.property(cartArb, (input) => {
        const cart = price(input);
        for (const discount of cart.discounts)
          expect(discount.per_line.reduce((sum, share) => sum + share.amount_ore, 0)).toBe(discount.amount_ore);
        cart.lines.forEach((line, i) => {
          const shares = cart.discounts.flatMap((d) => d.per_line.filter((share) => share.line_id === line.id));
          expect(line.discount_ore).toBe(shares.reduce((sum, share) => sum + share.amount_ore, 0));
          expect(line.discount_ore).toBeLessThanOrEqual(line.total_ore);
          if (input.lines[i]!.weighed) expect(line.discount_ore).toBe(0);
        });
      }),
      { numRuns: 400 },
    );
  });

  it("taking one item out never raises the total", () => {
    fc.assert(
      fc.property(cartArb, fc.nat(), (input, pick) => {
        const before = price(input).total_ore;
        const at = pick % input.lines.length;
        const lines = input.lines.flatMap((line, i) =>
          i !== at ? [line] : line.quantity > 1 ? [{ ...line, quantity: line.quantity - 1 }] : [],
        );
        expect(price({ ...input, lines }).total_ore).toBeLessThanOrEqual(before);
      }),
      { numRuns: 1000 },
    );
  });

  it("the order of the cart's lines and of the offers does not change what is paid", () => {
    fc.assert(
      fc.property(cartArb, (input) => {
        const reversed = price({ ...input, lines: [...input.lines].reverse(), offers: [...input.offers].reverse() });
        expect(reversed.total_ore).toBe(price(input).total_ore);
      }),
      { numRuns: 400 },
    );
  });
});
