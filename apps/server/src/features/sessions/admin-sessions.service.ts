import type { SessionDetail } from "@glide/contracts";
import type { Db } from "../../db/client.ts";
import { notFound } from "../../platform/errors.ts";
import { toOre } from "../../platform/money.ts";
import { assertCanManageStore } from "../admin-auth/admin-auth.hooks.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";
import { cartTotals } from "../pricing/cart-offers.ts";
import { readCartLines, readSpotCheck, readTimeline } from "./session-activity.ts";
import { readDisputes, readOrder, readRefunds } from "./session-payments.ts";
import { readVisit, toRow } from "./session-row.ts";

/**
 * GET /api/v1/admin/sessions/:id: the row, its timeline, the cart (while
 * open, with its discounts and vouchers at `at`, the sale clock), the order
 * with what was refunded of each line, refunds, disputes and the spot
 * check. Unknown (or never through the door): 404; another store's: 403,
 * as for every other store-owned record.
 */
export async function getSession(opts: { db: Db; actor: AdminActor; id: string; at: Date }): Promise<SessionDetail> {
  const { db, id } = opts;
  const visit = await readVisit(db, id);
  if (!visit) throw notFound(`Session ${id} not found`);
  assertCanManageStore(opts.actor, visit.store_id);
  const [timeline, cart, order, refunds, disputes, spotCheck, openCart] = await Promise.all([
    readTimeline(db, id),
    readCartLines(db, id),
    readOrder(db, visit.order_id),
    readRefunds(db, visit.order_id),
    readDisputes(db, visit.order_id),
    readSpotCheck(db, id),
    // An open cart as its shopper sees it now: the day's discounts, the total after them, the vouchers (which
    // may be there before any goods).
    visit.open_cart || visit.order_id === null ? cartTotals(db, id, opts.at) : null,
  ]);
  return {
    ...toRow(openCart ? { ...visit, total_ore: toOre(openCart.total) } : visit),
    timeline,
    cart,
    cart_discounts: openCart?.discounts ?? [],
    cart_vouchers: openCart?.vouchers ?? [],
    order,
    refunds,
    disputes,
    spot_check_detail: spotCheck,
  };
}
