import type { SettingValues } from "@glide/contracts";
import { type Db, queryRows, sql } from "../../db/client.ts";
import { boundedCache } from "../../platform/bounded-cache.ts";
import { conflict } from "../../platform/errors.ts";

/**
 * How much a cart may hold: units on one line, and its total in öre. A
 * store's settings store/max_line_quantity and store/max_cart_total give
 * them; whatever they are, sums are bigint from the cart to the charge, so
 * the largest cart allowed is charged or declined, never an overflow.
 */
export type CartLimits = { maxLineQuantity: number; maxTotalOre: number };

export const limitsFrom = (settings: SettingValues): CartLimits => ({
  maxLineQuantity: settings.store.max_line_quantity,
  maxTotalOre: settings.store.max_cart_total * 100,
});

const kronor = (ore: number) =>
  `${(ore / 100).toLocaleString("sv-SE", { minimumFractionDigits: 0, maximumFractionDigits: 2 })} kr`;

/** Refuses a change after which the line would hold more than the limit, or the cart come to more. */
export function checkLimits(
  limits: CartLimits,
  product: { name: string },
  after: { quantity: number; totalOre: number },
): void {
  if (after.quantity > limits.maxLineQuantity)
    throw conflict(`Du kan köpa högst ${limits.maxLineQuantity} st av ${product.name}.`, "line_quantity_limit");
  if (after.totalOre > limits.maxTotalOre)
    throw conflict(
      `Kundvagnen kan vara på högst ${kronor(limits.maxTotalOre)}. Betala det du har och handla resten i ett nytt besök.`,
      "cart_total_limit",
    );
}

/**
 * The store of a visit, which never changes: kept per instance so a scan,
 * which names only its visit, can be held to its store's limits without an
 * extra round trip but the first.
 */
const storeOfVisit = boundedCache<string>(10_000);

export async function visitStore(db: Db, sessionId: string): Promise<string | null> {
  const known = storeOfVisit.get(sessionId);
  if (known) return known;
  const [row] = await queryRows<{ store_id: string }>(
    db,
    sql`select store_id from shopping_sessions where id = ${sessionId}`,
  );
  if (!row) return null;
  storeOfVisit.set(sessionId, row.store_id);
  return row.store_id;
}
