import type { Offer } from "@glide/contracts";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type OfferLine, priceFromBook, type VisitFacts } from "./cart-offers.ts";
import { dayOffers } from "./offer-book.ts";
import { type PricingBox, priceScan } from "./scan-pricing.ts";

/**
 * A scan's answer priced from the cart before it, group by group: for any
 * visit's scans, each answer is what pricing the whole cart answers; a scan
 * prices again only the group its product joins; and what the groups were
 * priced with (the day's offers, the day, the shopper) is never taken for
 * other.
 */
const DAY = "2026-11-27";
const facts = (member: boolean, day = DAY): VisitFacts => ({ store_id: "s", day, member, vouchers: [] });
const offer = (id: string, product_ids: string[], fields: Partial<Offer> = {}): Offer => ({
  id,
  label: id,
  product_ids,
  buy: 3,
  deal: { kind: "one_free" },
  limit_per_visit: null,
  from: DAY,
  to: DAY,
  ...fields,
});
const line = (product: string, unit: number, quantity = 1, fields: Partial<OfferLine> = {}): OfferLine => ({
  id: `line-${product}`,
  product_id: product,
  quantity,
  unit_price_ore: unit,
  pant_ore: 0,
  member_unit_ore: null,
  labelled: false,
  vat_category: "standard",
  ...fields,
});
/** The cart with one more unit of `product`: its line raised, or a new one at the end. */
const scanned = (lines: readonly OfferLine[], product: string, unit: number, fields: Partial<OfferLine> = {}) => {
  const at = lines.findIndex((l) => l.product_id === product && l.labelled === (fields.labelled ?? false));
  if (at >= 0) return lines.with(at, { ...lines[at]!, quantity: lines[at]!.quantity + 1 });
  return [...lines, { ...line(product, unit, 1, fields), id: `line-${product}-${lines.length}` }];
};

describe("a scan's answer", () => {
  it("prices again only the group its product joins; the other groups are taken as they were", () => {
    const day = dayOffers([offer("butter", ["butter"]), offer("mix", ["juice", "soap"]), offer("soap", ["soap"])]);
    const first: PricingBox = {};
    const cart = [line("butter", 4990, 3), line("juice", 2500, 2)];
    const answer = priceScan(cart, facts(true), day, { before: undefined, added: null, into: first });
    expect(answer).toEqual(priceFromBook(cart, facts(true), day));
    const butterGroup = first.groups!.groupOf.get(day.offers[0]!);
    expect(first.groups!.groupOf.size).toBe(2);

    // Soap joins the mix's group; butter's group is the same object, not priced again.
    const second: PricingBox = {};
    const more = scanned(cart, "soap", 1500);
    expect(priceScan(more, facts(true), day, { before: first.groups, added: "soap", into: second })).toEqual(
      priceFromBook(more, facts(true), day),
    );
    expect(second.groups!.groupOf.get(day.offers[0]!)).toBe(butterGroup);
    expect(second.groups!.groupOf.size).toBe(3);
    expect(second.groups!.groupOf.get(day.offers[1]!)).toBe(second.groups!.groupOf.get(day.offers[2]!));

    // A repeated scan (nothing added) leaves every group as it was.
    const repeat: PricingBox = {};
    priceScan(more, facts(true), day, { before: second.groups, added: null, into: repeat });
    expect(repeat.groups).toBe(second.groups);

    // A product no offer takes leaves every group as it was.
    const third: PricingBox = {};
    const bread = scanned(more, "bread", 3000);
    const answerWithBread = priceScan(bread, facts(true), day, { before: second.groups, added: "bread", into: third });
    expect(third.groups).toBe(second.groups);
    expect(answerWithBread).toEqual(priceFromBook(bread, facts(true), day));
    // 3 för 2 Bregott takes one butter off, the mix (two juices and the soap) the soap; the bread at its price.
    expect(answerWithBread.total).toBe((3 * 4990 - 4990 + 2 * 2500 + 1500 - 1500 + 3000) / 100);
  });

  it("is priced anew when the day's offers, the day or the shopper are not those the groups were priced with", () => {
    const before: PricingBox = {};
    const cart = [line("butter", 4990, 3)];
    const day = dayOffers([offer("butter", ["butter"])]);
    priceScan(cart, facts(true), day, { before: undefined, added: null, into: before });
    const cases = [
      // The offer changed: the book's new copy.
      { day: dayOffers([offer("butter", ["butter"], { buy: 2 })]), facts: facts(true), off: 4990 },
      // Another day, on which the offer does not count.
      { day, facts: facts(true, "2026-11-28"), off: 0 },
      // A members-only offer, for a shopper who is no member.
      { day: dayOffers([offer("butter", ["butter"], { members_only: true })]), facts: facts(true), off: 4990 },
    ];
    for (const c of cases) {
      const into: PricingBox = {};
      const answer = priceScan(cart, c.facts, c.day, { before: before.groups, added: null, into });
      expect(answer).toEqual(priceFromBook(cart, c.facts, c.day));
      expect(answer.total).toBe((3 * 4990 - c.off) / 100);
      expect(into.groups).not.toBe(before.groups);
    }
    const members = dayOffers([offer("butter", ["butter"], { members_only: true })]);
    // Groups priced for a shopper who is no member are not a member's: the members-only offer counts for them.
    const notAsMember: PricingBox = {};
    priceScan(cart, facts(false), members, { before: undefined, added: null, into: notAsMember });
    const member = priceScan(cart, facts(true), members, { before: notAsMember.groups, added: null, into: {} });
    expect(member).toMatchObject({ total: 99.8, member_total: null });
    const asMember: PricingBox = {};
    priceScan(cart, facts(true), members, { before: undefined, added: null, into: asMember });
    const notMember = priceScan(cart, facts(false), members, { before: asMember.groups, added: null, into: {} });
    expect(notMember).toEqual(priceFromBook(cart, facts(false), members));
    expect(notMember).toMatchObject({ discounts: [], total: 149.7, member_total: 99.8 });
  });
});

const PRODUCTS = ["p1", "p2", "p3", "p4", "p5", "p6", "p7"];
const offersArb = fc
  .uniqueArray(
    fc.record({
      id: fc.constantFrom("o1", "o2", "o3", "o4", "o5", "o6"),
      product_ids: fc.uniqueArray(fc.constantFrom(...PRODUCTS), { minLength: 1, maxLength: 3 }),
      buy: fc.integer({ min: 2, max: 4 }),
      deal: fc.oneof(
        fc.constant({ kind: "one_free" as const }),
        fc.record({ kind: fc.constant("amount" as const), amount_ore: fc.integer({ min: 0, max: 3_000 }) }),
      ),
      limit_per_visit: fc.oneof(fc.constant(null), fc.integer({ min: 1, max: 3 })),
      members_only: fc.integer({ min: 0, max: 5 }).map((n) => n === 0),
    }),
    { maxLength: 6, selector: (o) => o.id },
  )
  .map((list) => list.map((fields) => offer(fields.id, fields.product_ids, fields)));
const scanArb = fc.record({
  product: fc.constantFrom(...PRODUCTS),
  labelled: fc.integer({ min: 0, max: 8 }).map((n) => n === 0),
  memberPrice: fc.integer({ min: 0, max: 8 }).map((n) => n === 0),
});

describe("a scan's answer, in the cases a random cart seldom makes", () => {
  it("lists the discounts in the order of their offers' ids, a group priced later first in line", () => {
    const day = dayOffers([offer("a-butter", ["butter"]), offer("b-juice", ["juice"])]);
    const first: PricingBox = {};
    const juices = [line("juice", 2500, 3)];
    priceScan(juices, facts(true), day, { before: undefined, added: null, into: first });
    let cart = juices;
    let box = first;
    for (let i = 0; i < 3; i++) {
      cart = scanned(cart, "butter", 4990);
      const into: PricingBox = {};
      const answer = priceScan(cart, facts(true), day, { before: box.groups, added: "butter", into });
      expect(answer).toEqual(priceFromBook(cart, facts(true), day));
      box = into;
    }
    expect(priceScan(cart, facts(true), day, { before: box.groups, added: null, into: {} }).discounts).toMatchObject([
      { offer_id: "a-butter" },
      { offer_id: "b-juice" },
    ]);
  });

  it("counts pant and pays with vouchers as the whole cart does", () => {
    const day = dayOffers([offer("cans", ["cola"])]);
    const withVouchers = { ...facts(true), vouchers: [{ code: "P1", amount_ore: 300 }] };
    const cart = [line("cola", 1500, 3, { pant_ore: 100 }), line("bread", 3000)];
    const answer = priceScan(cart, withVouchers, day, { before: undefined, added: null, into: {} });
    expect(answer).toEqual(priceFromBook(cart, withVouchers, day));
    // Three colas, one free, their pant and the bread; the voucher's 3,00 off what the card pays.
    expect(answer).toMatchObject({ total: 2 * 15 + 3 + 30, to_pay: 60, vouchers: [{ code: "P1", amount: 3 }] });
    // A visit with no vouchers, as the statement reads it (null).
    const none = { ...facts(true), vouchers: null };
    expect(priceScan(cart, none, day, { before: undefined, added: null, into: {} })).toMatchObject({
      to_pay: 63,
      vouchers: [],
    });
  });

  it("finds every line of a group's product, a price label's line before the scanned one", () => {
    const day = dayOffers([offer("butter", ["butter"])]);
    const cart = [line("butter", 2000, 1, { labelled: true, id: "label" }), line("butter", 4990, 3)];
    const answer = priceScan(cart, facts(true), day, { before: undefined, added: null, into: {} });
    expect(answer).toEqual(priceFromBook(cart, facts(true), day));
    expect(answer.discounts).toMatchObject([{ offer_id: "butter", amount: 49.9 }]);
  });

  it("tells a shopper who is no member what a member pays once a scan brings a members-only offer", () => {
    const day = dayOffers([
      offer("all", ["butter", "juice"]),
      offer("members", ["juice"], { members_only: true, buy: 2 }),
    ]);
    const before: PricingBox = {};
    const cart = [line("butter", 4990, 2)];
    priceScan(cart, facts(false), day, { before: undefined, added: null, into: before });
    expect(before.groups!.membersOnly).toBe(false);
    // Two juices at 60 kr: 3 för 2 takes a butter off them (49,90); a member's 2 för 1 juice a juice (60,00).
    const more = [...cart, line("juice", 6000, 2)];
    const answer = priceScan(more, facts(false), day, { before: before.groups, added: "juice", into: {} });
    expect(answer).toEqual(priceFromBook(more, facts(false), day));
    expect(answer).toMatchObject({
      total: (2 * 4990 + 2 * 6000 - 4990) / 100,
      member_total: (2 * 4990 + 2 * 6000 - 6000) / 100,
    });
    // The same cart priced whole (another instance took the scans before): the same answer.
    expect(priceScan(more, facts(false), day, { before: undefined, added: null, into: {} })).toEqual(answer);
  });
});

describe("a visit's scans", () => {
  it("are each answered as pricing the whole cart answers, for any offers, shopper and scans", () => {
    // The first `unpriced` scans are not priced one by one (another instance took them, or the copy was behind):
    // the cart is then priced as a whole, and each scan after it from the one before.
    const visitArb = fc.record({
      offers: offersArb,
      member: fc.boolean(),
      scans: fc.array(scanArb, { minLength: 1, maxLength: 30 }),
      unpriced: fc.nat({ max: 20 }),
      vouchers: fc.array(
        fc.record({ code: fc.constantFrom("P1", "P2"), amount_ore: fc.integer({ min: 100, max: 5_000 }) }),
        { maxLength: 2 },
      ),
    });
    fc.assert(
      fc.property(visitArb, ({ offers, member, scans, unpriced, vouchers }) => {
        const day = dayOffers(offers);
        let lines: OfferLine[] = [];
        let box: PricingBox = {};
        scans.forEach((scan, i) => {
          const unit = 500 + PRODUCTS.indexOf(scan.product) * 300;
          lines = scanned(lines, scan.product, unit, {
            labelled: scan.labelled,
            member_unit_ore: scan.memberPrice ? unit - 100 : null,
            pant_ore: PRODUCTS.indexOf(scan.product) % 3 === 0 ? 100 : 0,
          });
          if (i < unpriced) return;
          const into: PricingBox = {};
          const shopper = { ...facts(member), vouchers };
          const answer = priceScan(lines, shopper, day, { before: box.groups, added: scan.product, into });
          expect(answer).toEqual(priceFromBook(lines, shopper, day));
          box = into;
        });
      }),
      { numRuns: 500 },
    );
  });
});
