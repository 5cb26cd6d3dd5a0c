import type { Discount, Offer } from "./pricing-rules.ts";

/**
 * Which multi-buy offers a cart gets. Each offer forms groups of `buy` units
 * from the dearest units left that it may take, which gives the most off for
 * that offer alone. Offers that share products compete for units: every order
 * of them is tried (up to MAX_ORDERED offers in one group of competitors; more
 * are taken by their own worth), and the order that takes the most off wins.
 */

/** One unit of a cart line, after the day's campaign price. */
export interface OfferUnit {
  product_id: string;
  price_ore: number;
  vat_rate_bp: number;
}

/** Competing offers whose every order is tried: 5! = 120 runs at most. */
export const MAX_ORDERED = 5;

type Applied = { offer: Offer; times: number; amount: number; perRate: Map<number, number> };

/** The discounts the cart gets, in the offers' own order (by id). */
export function bestOfferRun(units: readonly OfferUnit[], offers: readonly Offer[]): Discount[] {
  // Dearest first; equal prices keep the cart's order, so the answer never depends on a sort's whims.
  const order = units.map((_, i) => i).sort((a, b) => units[b]!.price_ore - units[a]!.price_ore || a - b);
  const inCart = new Set(units.map((unit) => unit.product_id));
  const useful = offers
    .filter((offer) => offer.product_ids.some((id) => inCart.has(id)))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  // Each offer's units, dearest first, found once: every order tried below only skips the ones taken.
  const eligible = new Map(
    useful.map((offer) => {
      const products = new Set(offer.product_ids);
      return [offer, order.filter((i) => products.has(units[i]!.product_id))];
    }),
  );
  const applied: Applied[] = [];
  for (const group of competitors(useful)) applied.push(...bestOrder(units, eligible, group));
  return applied
    .filter((a) => a.times > 0)
    .sort((a, b) => (a.offer.id < b.offer.id ? -1 : 1))
    .map((a) => ({
      offer_id: a.offer.id,
      label: a.offer.label,
      times: a.times,
      amount_ore: a.amount,
      per_rate: [...a.perRate.entries()]
        .sort(([x], [y]) => y - x)
        .map(([vat_rate_bp, amount_ore]) => ({ vat_rate_bp, amount_ore })),
    }));
}

/** Offers that share a product, transitively: each group competes for the same units, the groups do not. */
function competitors(offers: readonly Offer[]): Offer[][] {
  const groups: Offer[][] = [];
  const seen = new Set<Offer>();
  for (const first of offers) {
    if (seen.has(first)) continue;
    const group = [first];
    seen.add(first);
    const products = new Set(first.product_ids);
    for (let grew = true; grew; ) {
      grew = false;
      for (const other of offers)
        if (!seen.has(other) && other.product_ids.some((id) => products.has(id))) {
          seen.add(other);
          group.push(other);
          for (const id of other.product_ids) products.add(id);
          grew = true;
        }
    }
    groups.push(group);
  }
  return groups;
}

type Eligible = ReadonlyMap<Offer, readonly number[]>;

function bestOrder(units: readonly OfferUnit[], eligible: Eligible, group: Offer[]): Applied[] {
  const orders = group.length <= MAX_ORDERED ? permutations(group) : [byOwnWorth(units, eligible, group)];
  let best: Applied[] = [];
  let bestAmount = -1;
  for (const candidate of orders) {
    const run = applyInOrder(units, eligible, candidate);
    const amount = run.reduce((sum, a) => sum + a.amount, 0);
    if (amount > bestAmount) {
      best = run;
      bestAmount = amount;
    }
  }
  return best;
}

/** Many competitors: each by what it would take off alone, the most first. */
function byOwnWorth(units: readonly OfferUnit[], eligible: Eligible, group: Offer[]): Offer[] {
  const worth = new Map(group.map((offer) => [offer, applyInOrder(units, eligible, [offer])[0]!.amount]));
  return [...group].sort((a, b) => worth.get(b)! - worth.get(a)!);
}

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  const out: T[][] = [];
  items.forEach((item, i) => {
    for (const rest of permutations([...items.slice(0, i), ...items.slice(i + 1)])) out.push([item, ...rest]);
  });
  return out;
}

/** The offers in this order, each taking groups from the dearest units it may still take. */
function applyInOrder(units: readonly OfferUnit[], eligible: Eligible, offers: readonly Offer[]): Applied[] {
  const used = new Set<number>();
  return offers.map((offer) => {
    const applied: Applied = { offer, times: 0, amount: 0, perRate: new Map() };
    const free = eligible.get(offer)!.filter((i) => !used.has(i));
    const limit = offer.limit_per_visit ?? Number.POSITIVE_INFINITY;
    for (let start = 0; start + offer.buy <= free.length && applied.times < limit; start += offer.buy) {
      const members = free.slice(start, start + offer.buy).map((i) => units[i]!);
      const off = groupDiscount(offer, members);
      // Later groups are no dearer: once one gains nothing, none will.
      if (off <= 0) break;
      for (const i of free.slice(start, start + offer.buy)) used.add(i);
      applied.times++;
      applied.amount += off;
      for (const [rate, amount] of splitByRate(off, offer, members))
        applied.perRate.set(rate, (applied.perRate.get(rate) ?? 0) + amount);
    }
    return applied;
  });
}

/** What one group takes off: its cheapest unit, or down to the amount but never more than its cheapest unit. */
function groupDiscount(offer: Offer, members: readonly OfferUnit[]): number {
  const cheapest = members[members.length - 1]!.price_ore;
  if (offer.deal.kind === "one_free") return cheapest;
  const sum = members.reduce((total, unit) => total + unit.price_ore, 0);
  return Math.min(cheapest, sum - offer.deal.amount_ore);
}

/**
 * Where a group's discount comes from, per VAT rate: the free unit's own rate,
 * or an amount shared by price over the group's units (largest remainders
 * get the leftover öre, so the shares add up to the discount).
 */
function splitByRate(off: number, offer: Offer, members: readonly OfferUnit[]): Map<number, number> {
  if (offer.deal.kind === "one_free") return new Map([[members[members.length - 1]!.vat_rate_bp, off]]);
  const byRate = new Map<number, number>();
  for (const unit of members) byRate.set(unit.vat_rate_bp, (byRate.get(unit.vat_rate_bp) ?? 0) + unit.price_ore);
  const sum = [...byRate.values()].reduce((a, b) => a + b, 0);
  const shares = [...byRate.entries()].map(([rate, gross]) => {
    const exact = (off * gross) / sum;
    return { rate, whole: Math.floor(exact), rest: exact - Math.floor(exact) };
  });
  let left = off - shares.reduce((total, share) => total + share.whole, 0);
  for (const share of [...shares].sort((a, b) => b.rest - a.rest || b.rate - a.rate)) {
    if (left <= 0) break;
    share.whole++;
    left--;
  }
  return new Map(shares.filter((share) => share.whole > 0).map((share) => [share.rate, share.whole]));
}
