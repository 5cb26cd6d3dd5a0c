import { weightedLru } from "../../platform/weighted-lru.ts";
import type { OfferLine } from "../pricing/cart-offers.ts";
import type { PricingBox } from "../pricing/scan-pricing.ts";

/**
 * A visit's cart lines as this instance last read or wrote them, under the
 * visit's cart_version at that moment. Every transaction that changes a
 * visit's lines raises its cart_version (migration 0031), so one number
 * always names one committed set of lines: a scan whose statement finds the
 * version it was told need not read the lines again, and a copy that is
 * behind is never used, only read anew. Lines are shared, never changed.
 */
export type KeptCart = {
  version: string;
  lines: readonly OfferLine[];
  /** The lines priced group by group (scan-pricing.ts), once a scan's answer has priced them. */
  priced?: PricingBox;
};

/**
 * Lines kept per instance at most (a line is a few numbers): about 15 MB, 3,000 carts of 30 lines. A cart's
 * lines priced group by group (`priced`) come to about a sixth more.
 */
export const KEPT_CART_LINES = 100_000;

/** The öre a cart's lines come to, as the database sums them (pant/lineValueOre). */
export const linesOre = (lines: readonly OfferLine[]) =>
  lines.reduce((sum, line) => sum + line.quantity * (line.unit_price_ore + line.pant_ore), 0);

export type KeptCarts = ReturnType<typeof keptCarts>;

/** The carts kept, the least recently used forgotten first past `maxLines` lines in all. */
export function keptCarts(maxLines = KEPT_CART_LINES) {
  const carts = weightedLru<KeptCart>({ budget: maxLines, weigh: (cart) => cart.lines.length });
  return {
    get: carts.get,
    set: carts.set,
    drop: carts.drop,
    get size() {
      return carts.size;
    },
    get lines() {
      return carts.weight;
    },
  };
}
