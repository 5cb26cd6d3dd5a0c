import type { SessionDetail } from "@glide/contracts";
import type { Db } from "../../db/client.ts";
import { notFound } from "../../platform/errors.ts";
import { assertCanManageStore } from "../admin-auth/admin-auth.hooks.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";
import { readCartLines, readSpotCheck, readTimeline } from "./session-activity.ts";
import { readDisputes, readOrder, readRefunds } from "./session-payments.ts";
import { readVisit, toRow } from "./session-row.ts";

/**
 * GET /api/v1/admin/sessions/:id: the row, its timeline, the cart, the
 * order with what was refunded of each line, refunds, disputes and the spot
 * check. Unknown (or never through the door): 404; another store's: 403,
 * as for every other store-owned record.
 */
export async function getSession(opts: { db: Db; actor: AdminActor; id: string }): Promise<SessionDetail> {
  const { db, id } = opts;
  const visit = await readVisit(db, id);
  if (!visit) throw notFound(`Session ${id} not found`);
  assertCanManageStore(opts.actor, visit.store_id);
  const [timeline, cart, order, refunds, disputes, spotCheck] = await Promise.all([
    readTimeline(db, id),
    readCartLines(db, id),
    readOrder(db, visit.order_id),
    readRefunds(db, visit.order_id),
    readDisputes(db, visit.order_id),
    readSpotCheck(db, id),
  ]);
  return {
    ...toRow(visit),
    timeline,
    cart,
    order,
    refunds,
    disputes,
    spot_check_detail: spotCheck,
  };
}
