import type { VisitState } from "@glide/contracts";
import { type Db, queryRows, sql } from "../../db/client.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import { fromOre, toOre } from "../../platform/money.ts";
import { singleFlight } from "../../platform/single-flight.ts";
import { assertCanManageStore } from "../admin-auth/admin-auth.hooks.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";
import { recordAudit } from "../audit/audit.ts";
import { type ChargeVisitOptions, chargeVisit } from "../checkout/checkout.service.ts";
import { lineValueOre } from "../pant/pant.ts";
import type { ChargePort } from "../payments/charge.ts";
import { cartTotals } from "../pricing/cart-offers.ts";
import { type AnnounceSession, announceNothing, recordSessionEvent } from "../sessions/session-events.ts";
import { mustTransition } from "../visits/visit-state.ts";
import { moveVisit } from "../visits/visits.ts";

/**
 * What a store does with a visit left unpaid (docs/sessions.md): charge the
 * card on file through the same exactly-once path as the shopper's own
 * checkout, or write the goods off with a reason. Both are for the store's
 * own admins and platform admins, and both are audited.
 */

type UnpaidVisit = {
  id: string;
  store_id: string;
  store_name: string;
  state: VisitState;
  total_ore: number;
  has_card: boolean;
};

/** The visit, checked for the admin's store; 404 for a visit that never went through the door. */
async function visitFor(db: Db, actor: AdminActor, id: string): Promise<UnpaidVisit> {
  const [visit] = await queryRows<UnpaidVisit>(
    db,
    sql`select s.id, s.store_id, st.name as store_name, s.state,
          (select coalesce(sum(${lineValueOre("i")}), 0)::bigint from cart_items i
            where i.session_id = s.id) as total_ore,
          c.payment_method_id is not null as has_card
        from shopping_sessions s join stores st on st.id = s.store_id join customers c on c.id = s.customer_id
        where s.id = ${id} and s.door_opened_at is not null`,
  );
  if (!visit) throw notFound(`Session ${id} not found`);
  assertCanManageStore(actor, visit.store_id);
  // What the exit would charge now: the lines less the day's multi-buy discounts.
  if (Number(visit.total_ore) === 0) return visit;
  return { ...visit, total_ore: toOre((await cartTotals(db, visit.id, new Date())).total) };
}

const shortId = (id: string) => id.slice(0, 8);

/**
 * Staff charge the card on file for a visit left unpaid. Two staff pressing
 * at once, or one pressing twice, share one order and one provider charge.
 */
export async function chargeUnpaid(
  opts: Omit<ChargeVisitOptions, "payments"> & {
    /** Asked for only once the visit may be charged: a visit in the wrong state hears so even without a provider. */
    payments: () => ChargePort;
    actor: AdminActor;
    id: string;
  },
): Promise<void> {
  const { db, actor } = opts;
  const visit = await visitFor(db, actor, opts.id);
  // Refused before anything is recorded: only a visit left unpaid (or one whose charge is under way) is charged here.
  // Goods or not is decided again under the visit's lock, by the charge itself.
  mustTransition(visit.state, "staff_charge", { hasGoods: true, gone: true });
  if (!visit.has_card)
    throw new AppError(
      409,
      "no_payment_method",
      "The shopper has no card on file; write the visit off or contact the shopper",
    );
  const payments = opts.payments();
  // Staff pressing at once in this instance share one run, one timeline entry and one audit entry.
  return staffCharges(db, visit.id, async () => {
    await recordSessionEvent(db, {
      sessionId: visit.id,
      storeId: visit.store_id,
      kind: "staff_charge",
      source: "staff",
      adminId: actor.id,
      detail: { amount: fromOre(visit.total_ore) },
      activity: false,
    });
    let receiptNumber: number | null;
    try {
      const answer = await chargeVisit({ ...opts, payments, sessionId: visit.id, event: "staff_charge" });
      receiptNumber = answer.receipt?.number ?? null;
    } catch (err) {
      // Another instance's request charged it while this one waited: the same charge, already paid.
      const paid = err instanceof AppError && err.code === "not_left_unpaid" ? await paidReceipt(db, visit.id) : null;
      if (paid !== null) return;
      await auditCharge(db, actor, visit, err instanceof AppError ? err.code : "failed");
      throw staffWords(err);
    }
    await auditCharge(db, actor, visit, receiptNumber === null ? "nothing to pay" : `paid, receipt ${receiptNumber}`);
    if (receiptNumber === null) throw new AppError(409, "nothing_to_pay", "The visit has nothing left to pay");
  });
}

const staffCharges = singleFlight<void>();

/** The receipt number of the visit's paid order, or null. */
async function paidReceipt(db: Db, sessionId: string): Promise<number | null> {
  const [order] = await queryRows<{ receipt_number: number }>(
    db,
    sql`select receipt_number from orders where session_id = ${sessionId} and state = 'paid'`,
  );
  return order?.receipt_number ?? null;
}

function auditCharge(db: Db, actor: AdminActor, visit: UnpaidVisit, outcome: string) {
  return recordAudit(db, {
    actor,
    action: "session.charge",
    entityType: "session",
    entityId: visit.id,
    storeId: visit.store_id,
    summary: `Unpaid visit ${shortId(visit.id)} in "${visit.store_name}" charged ${fromOre(visit.total_ore).toFixed(2)} kr to the card on file: ${outcome}`,
    before: { state: visit.state, total: fromOre(visit.total_ore) },
    after: { outcome },
  });
}

/** The checkout's refusals are in the shopper's Swedish; staff read the console's English. */
function staffWords(err: unknown): unknown {
  if (!(err instanceof AppError)) return err;
  const english: Record<string, string> = {
    payment_declined: "The card on file was declined; the visit stays unpaid",
    payment_unavailable: "The payment provider did not answer; the charge is settled later with the same key",
    no_payment_method: "The shopper has no card on file; write the visit off or contact the shopper",
    payments_not_configured: "No payment provider is configured",
  };
  const detail = english[err.code];
  return detail ? new AppError(err.status, err.code, detail) : err;
}

/** Staff write off the goods of a visit left unpaid, with a reason; nothing is charged. */
export async function writeOffUnpaid(opts: {
  db: Db;
  actor: AdminActor;
  id: string;
  reason: string;
  announce?: AnnounceSession;
}): Promise<void> {
  const { db, actor } = opts;
  const visit = await visitFor(db, actor, opts.id);
  await db.transaction(async (tx) => {
    const [locked] = await queryRows<{ state: VisitState }>(
      tx,
      sql`select state from shopping_sessions where id = ${visit.id} for update`,
    );
    const next = mustTransition(locked!.state, "write_off", { hasGoods: true, gone: true });
    await moveVisit(tx, visit.id, next.to, new Date());
    const amount = fromOre(visit.total_ore);
    await recordSessionEvent(tx, {
      sessionId: visit.id,
      storeId: visit.store_id,
      kind: "written_off",
      source: "staff",
      adminId: actor.id,
      detail: { amount, reason: opts.reason },
      activity: false,
    });
    await recordAudit(tx, {
      actor,
      action: "session.write_off",
      entityType: "session",
      entityId: visit.id,
      storeId: visit.store_id,
      summary: `Unpaid visit ${shortId(visit.id)} in "${visit.store_name}" written off (${amount.toFixed(2)} kr): ${opts.reason}`,
      before: { state: locked!.state, total: amount },
      after: { state: next.to, reason: opts.reason },
    });
  });
  await (opts.announce ?? announceNothing)({ store_id: visit.store_id, session_id: visit.id, kind: "written_off" });
}
