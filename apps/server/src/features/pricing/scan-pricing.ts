import { type CalendarDay, competitors, type Discount, type Offer } from "@glide/contracts";
import { type OfferLine, priceFromBook, priceWithOffers, totalsAnswer, type VisitFacts } from "./cart-offers.ts";
import { type DayOffers, offersTouching } from "./offer-book.ts";

/**
 * A scan's answer priced from the cart before it. The offers a cart's
 * products touch fall into groups that share products; a group's discounts
 * depend only on its own products' lines (priceCart searches each group
 * apart). So the cart priced group by group is kept with its lines, and the
 * next scan prices again only the group its product joins: the groups of
 * every offer that takes it, merged. A long cart then costs a scan what its
 * one group costs, not what the whole cart does (priceFromBook), and the
 * answer is the same (scan-pricing.test.ts).
 */

/** A cart's offers in groups, and each group's discounts: the pricing of one set of lines, with one day's offers. */
export type PricedGroups = {
  on: PricedOn;
  /** Each offer the lines' products touch, and its group. */
  groupOf: ReadonlyMap<Offer, Group>;
  /** Whether a touched offer is for members only (a shopper who is no member is then told a member's total). */
  membersOnly: boolean;
};
type Group = { offers: readonly Offer[]; discounts: readonly Discount[] };
/** What a cart's groups were priced with: the day's offers (the book's copy), the day, and whether a member. */
type PricedOn = { offers: DayOffers; day: CalendarDay; member: boolean };

/** The pricing of one set of lines, filled by whoever prices them first: kept with them for the next scan. */
export type PricingBox = { groups?: PricedGroups };

/** What a scan's answer is priced from: the pricing of the lines before it, and the product it added a unit of. */
export type ScanPricing = { before: PricedGroups | undefined; added: string | null; into: PricingBox };

/**
 * The cart's discounts and totals as priceFromBook answers them, from the
 * groups of the lines before the scan when they were priced with the same
 * offers for the same shopper. A shopper who is no member, with a members'
 * price or a members-only offer in the cart, is priced as a whole (a
 * member's total beside theirs).
 */
export function priceScan(lines: readonly OfferLine[], facts: VisitFacts, day: DayOffers, scan: ScanPricing) {
  const on: PricedOn = { offers: day, day: facts.day, member: facts.member };
  const before = scan.before;
  const same = before && before.on.offers === on.offers && before.on.day === on.day && before.on.member === on.member;
  const groups = same ? afterScan(before, lines, scan.added) : grouped(lines, on);
  scan.into.groups = groups;
  if (!facts.member && (groups.membersOnly || lines.some((line) => line.member_unit_ore !== null)))
    return priceFromBook(lines, facts, day);
  const discounts = [...new Set(groups.groupOf.values())]
    .flatMap((group) => group.discounts)
    .sort((a, b) => (a.offer_id < b.offer_id ? -1 : 1));
  const totalOre =
    lines.reduce((sum, line) => sum + (line.unit_price_ore + line.pant_ore) * line.quantity, 0) -
    discounts.reduce((sum, discount) => sum + discount.amount_ore, 0);
  return totalsAnswer(discounts, totalOre, facts.vouchers ?? []);
}

/** Every group of the cart priced anew. */
function grouped(lines: readonly OfferLine[], on: PricedOn): PricedGroups {
  const touched = offersTouching(
    on.offers,
    lines.map((line) => line.product_id),
  );
  // Offers that share a product, transitively, are one group, as priceCart groups them.
  const groups = competitors(touched);
  // Each group's lines, found through the lines of each product. Their order changes no discount (alike units are
  // taken alike), only how one is shared over the lines, which a scan's answer does not tell.
  const at = new Map<string, number[]>();
  lines.forEach((line, i) => {
    const list = at.get(line.product_id);
    if (list) list.push(i);
    else at.set(line.product_id, [i]);
  });
  const groupOf = new Map<Offer, Group>();
  for (const offers of groups) {
    const own = [...new Set(offers.flatMap((offer) => offer.product_ids))]
      .flatMap((product) => at.get(product) ?? [])
      .map((i) => lines[i]!);
    const group = priceGroup(own, offers, on);
    for (const offer of offers) groupOf.set(offer, group);
  }
  return { on, groupOf, membersOnly: touched.some((offer) => offer.members_only) };
}

/** The groups after a unit of `added` came into the cart: the groups its offers join, merged and priced anew. */
function afterScan(before: PricedGroups, lines: readonly OfferLine[], added: string | null): PricedGroups {
  const named = added === null ? [] : (before.on.offers.byProduct.get(added) ?? []);
  // No offer takes it: every group's discounts stand.
  if (named.length === 0) return before;
  const offers = new Set<Offer>(named);
  for (const offer of named)
    for (const product of offer.product_ids)
      for (const other of before.on.offers.byProduct.get(product)!)
        for (const member of before.groupOf.get(other)?.offers ?? []) offers.add(member);
  const products = new Set([...offers].flatMap((offer) => offer.product_ids));
  const own = lines.filter((line) => products.has(line.product_id));
  const group = priceGroup(own, [...offers], before.on);
  const groupOf = new Map(before.groupOf);
  for (const offer of offers) groupOf.set(offer, group);
  return { ...before, groupOf, membersOnly: before.membersOnly || named.some((offer) => offer.members_only) };
}

/** One group's discounts: `own`, the cart's lines of its products, priced with its offers. */
function priceGroup(own: readonly OfferLine[], offers: readonly Offer[], on: PricedOn): Group {
  const found = { day: on.day, member: on.member, offers: [...offers], vouchers: [] };
  return { offers, discounts: priceWithOffers(own, found).discounts };
}
