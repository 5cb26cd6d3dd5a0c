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
  /** The index of the unit's line in the cart, which its share of a discount is taken from. */
  line: number;
}

/** Competing offers whose every order is tried: 5! = 120 runs at most. */
export const MAX_ORDERED = 5;

type Applied = { offer: Offer; times: number; amount: number; perUnit: Map<number, number> };

/** A discount with its shares per cart line (by index), which add up to its amount. */
export type LinedDiscount = Omit<Discount, "per_line"> & { per_line: { line: number; amount_ore: number }[] };

/** The discounts the cart gets, in the offers' own order (by id). */
export function bestOfferRun(units: readonly OfferUnit[], offers: readonly Offer[]): LinedDiscount[] {
  const inCart = new Set(units.map((unit) => unit.product_id));
  const useful = offers
    .filter((offer) => offer.product_ids.some((id) => inCart.has(id)))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  // How many offers may take each product's units.
  const wanted = new Map<string, number>();
  for (const offer of useful) for (const id of new Set(offer.product_ids)) wanted.set(id, (wanted.get(id) ?? 0) + 1);
  // Dearest first. Among equal prices, the units fewer offers may take go first, so an offer leaves the others
  // what only they can use; then by product, so the cart's order never changes what is paid (units of one product
  // at one price are alike); then the cart's order, so the answer never depends on a sort's whims.
  const order = units
    .map((_, i) => i)
    .sort((a, b) => {
      const [x, y] = [units[a]!, units[b]!];
      return (
        y.price_ore - x.price_ore ||
        (wanted.get(x.product_id) ?? 0) - (wanted.get(y.product_id) ?? 0) ||
        (x.product_id < y.product_id ? -1 : x.product_id > y.product_id ? 1 : 0) ||
        a - b
      );
    });
  // Each offer's units, dearest first, found once: every order tried below only skips the ones taken. A
  // product's units are listed once in that order; an offer's are its products' lists merged by rank.
  const rank = new Array<number>(units.length);
  const byProduct = new Map<string, number[]>();
  order.forEach((i, r) => {
    rank[i] = r;
    const list = byProduct.get(units[i]!.product_id);
    if (list) list.push(i);
    else byProduct.set(units[i]!.product_id, [i]);
  });
  const eligible = new Map(
    useful.map((offer) => {
      const lists = [...new Set(offer.product_ids)].flatMap((id) => byProduct.get(id) ?? []);
      return [offer, lists.sort((a, b) => rank[a]! - rank[b]!)];
    }),
  );
  const applied: Applied[] = [];
  for (const group of competitors(useful)) applied.push(...bestOrder(units, eligible, group));
  return applied
    .filter((a) => a.times > 0)
    .sort((a, b) => (a.offer.id < b.offer.id ? -1 : 1))
    .map((a) => {
      const perRate = new Map<number, number>();
      const perLine = new Map<number, number>();
      for (const [i, amount] of a.perUnit) {
        const unit = units[i]!;
        perRate.set(unit.vat_rate_bp, (perRate.get(unit.vat_rate_bp) ?? 0) + amount);
        perLine.set(unit.line, (perLine.get(unit.line) ?? 0) + amount);
      }
      return {
        offer_id: a.offer.id,
        label: a.offer.label,
        times: a.times,
        amount_ore: a.amount,
        per_rate: [...perRate.entries()]
          .sort(([x], [y]) => y - x)
          .map(([vat_rate_bp, amount_ore]) => ({ vat_rate_bp, amount_ore })),
        per_line: [...perLine.entries()].sort(([x], [y]) => x - y).map(([line, amount_ore]) => ({ line, amount_ore })),
      };
    });
}

/**
 * Offers that share a product, transitively: each group competes for the
 * same units, the groups do not. Each offer joins the group of the first
 * offer before it that named one of its products (groups met that way are
 * merged), so the groups and their offers keep the offers' order.
 */
export function competitors(offers: readonly Offer[]): Offer[][] {
  const parent = offers.map((_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  const owner = new Map<string, number>();
  offers.forEach((offer, i) => {
    for (const id of offer.product_ids) {
      const first = owner.get(id);
      if (first === undefined) owner.set(id, i);
      else {
        const [a, b] = [root(first), root(i)];
        // The group keeps its earliest offer as its root, so groups come out in the offers' order.
        if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
      }
    }
  });
  const groups = new Map<number, Offer[]>();
  offers.forEach((offer, i) => {
    const r = root(i);
    const group = groups.get(r);
    if (group) group.push(offer);
    else groups.set(r, [offer]);
  });
  return [...groups.values()];
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
    const applied: Applied = { offer, times: 0, amount: 0, perUnit: new Map() };
    const free = eligible.get(offer)!.filter((i) => !used.has(i));
    const limit = offer.limit_per_visit ?? Number.POSITIVE_INFINITY;
    for (let start = 0; start + offer.buy <= free.length && applied.times < limit; start += offer.buy) {
      const group = free.slice(start, start + offer.buy);
      const members = group.map((i) => units[i]!);
      const off = groupDiscount(offer, members);
      // Later groups are no dearer: once one gains nothing, none will.
      if (off <= 0) break;
      for (const i of group) used.add(i);
      applied.times++;
      applied.amount += off;
      for (const [i, amount] of splitByUnit(off, offer, group, units)) applied.perUnit.set(i, amount);
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
 * Where a group's discount comes from, unit by unit: the free unit (the
 * cheapest), or an amount shared by price over the group's units (largest
 * remainders get the leftover öre, the dearer unit first on a tie, so the
 * shares add up to the discount). A refund of a unit gives back what was
 * paid for it; its VAT is the rate of the goods it was taken from.
 */
function splitByUnit(
  off: number,
  offer: Offer,
  group: readonly number[],
  units: readonly OfferUnit[],
): Map<number, number> {
  if (offer.deal.kind === "one_free") return new Map([[group[group.length - 1]!, off]]);
  const sum = group.reduce((total, i) => total + units[i]!.price_ore, 0);
  const shares = group.map((i) => {
    const exact = (off * units[i]!.price_ore) / sum;
    return { i, whole: Math.floor(exact), rest: exact - Math.floor(exact) };
  });
  let left = off - shares.reduce((total, share) => total + share.whole, 0);
  for (const share of [...shares].sort((a, b) => b.rest - a.rest)) {
    if (left <= 0) break;
    share.whole++;
    left--;
  }
  return new Map(shares.filter((share) => share.whole > 0).map((share) => [share.i, share.whole]));
}
