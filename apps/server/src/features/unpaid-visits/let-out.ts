import type { VisitState } from "@glide/contracts";
import { type Db, queryRows, sql } from "../../db/client.ts";
import type { DoorController } from "../../platform/door.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import { fromOre } from "../../platform/money.ts";
import { assertCanManageStore } from "../admin-auth/admin-auth.hooks.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";
import { recordAudit } from "../audit/audit.ts";
import { LINE_VALUE_ORE } from "../pant/pant.ts";
import { type AnnounceSession, announceNothing, recordSessionEvent } from "../sessions/session-events.ts";
import { mustTransition } from "../visits/visit-state.ts";
import { moveVisit } from "../visits/visits.ts";

/**
 * Staff open the exit gate for a shopper who is inside and cannot pay (no
 * card on file, a card the bank declines): the visit is let out unpaid. With
 * goods in the cart it becomes left unpaid, which staff then charge to a card
 * or write off (docs/sessions.md); with an empty cart nothing is owed and it
 * ends. For the store's own admins and platform admins; audited.
 */
export async function letOut(opts: {
  db: Db;
  door: DoorController;
  actor: AdminActor;
  id: string;
  announce?: AnnounceSession;
}): Promise<void> {
  const { db, actor } = opts;
  const [found] = await queryRows<{ store_id: string }>(
    db,
    sql`select store_id from shopping_sessions where id = ${opts.id} and door_opened_at is not null`,
  );
  if (!found) throw notFound(`Session ${opts.id} not found`);
  assertCanManageStore(actor, found.store_id);
  await db.transaction(async (tx) => {
    // The visit's row lock: a checkout or a scan either finished first, or waits and finds the visit let out.
    const [visit] = await queryRows<{ state: VisitState; store_name: string }>(
      tx,
      sql`select s.state, st.name as store_name from shopping_sessions s join stores st on st.id = s.store_id
          where s.id = ${opts.id} for update of s`,
    );
    const [cart] = await queryRows<{ total_ore: number | string; lines: number }>(
      tx,
      sql`select coalesce(sum(${LINE_VALUE_ORE}), 0)::bigint as total_ore, count(*)::int as lines
          from cart_items where session_id = ${opts.id}`,
    );
    const amount = fromOre(Number(cart!.total_ore));
    const next = mustTransition(visit!.state, "let_out", { hasGoods: cart!.lines > 0, gone: true });
    await moveVisit(tx, opts.id, next.to, new Date());
    await tx.execute(sql`update shopping_sessions set exited_at = coalesce(exited_at, now()) where id = ${opts.id}`);
    await recordSessionEvent(tx, {
      sessionId: opts.id,
      storeId: found.store_id,
      kind: "let_out",
      source: "staff",
      adminId: actor.id,
      detail: { amount, left_unpaid: next.to === "left_unpaid" },
      activity: false,
    });
    await recordAudit(tx, {
      actor,
      action: "session.let_out",
      entityType: "session",
      entityId: opts.id,
      storeId: found.store_id,
      summary: `Visit ${opts.id.slice(0, 8)} in "${visit!.store_name}" let out through the exit gate unpaid (${amount.toFixed(2)} kr)`,
      before: { state: visit!.state, total: amount },
      after: { state: next.to },
    });
    // Last, so a refusal above never opens it; a gate that does not answer undoes the whole change.
    try {
      await opts.door.open({ storeId: found.store_id, sessionId: opts.id });
    } catch (err) {
      throw new AppError(
        502,
        "gate_unavailable",
        `The exit gate did not open, so nothing was changed; try again (${(err as Error).message})`,
      );
    }
  });
  await (opts.announce ?? announceNothing)({ store_id: found.store_id, session_id: opts.id, kind: "let_out" });
}
