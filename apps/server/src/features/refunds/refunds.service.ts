import { lineRefundOre, type Refund, type RefundCreate } from "@glide/contracts";
import { queryRows, sql, type Tx } from "../../db/client.ts";
import { AppError, conflict, isUniqueViolation, notFound } from "../../platform/errors.ts";
import { fromOre } from "../../platform/money.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";
import { recordAudit } from "../audit/audit.ts";
import { type AnnounceSession, recordSessionEvent } from "../sessions/session-events.ts";
import { oneRefund } from "./order-refunds.ts";
import {
  assertOrderStore,
  kr,
  type LineRow,
  linesOf,
  lockOrder,
  type OrderRow,
  type RefundRow,
} from "./refund-order.ts";
import { askProvider, type RefundProviderDeps } from "./refund-provider.ts";

/** Who may ask for a refund: the console's admins, and the spot-check outcome acting for one. */
export type RefundSource = "staff" | "spot_check" | "dispute";

/** What issuing a refund needs: the provider round trip's, and the console's live Sessions feed. */
export type RefundDeps = RefundProviderDeps & { announce: AnnounceSession };

type Planned = { line: LineRow; quantity: number; amountOre: number };

/** The units asked for, priced with lineRefundOre; more than is left of a line is refused by name. */
function plan(lines: LineRow[], request: RefundCreate): Planned[] {
  if (request.whole) {
    return lines
      .map((line) => ({ line, quantity: line.quantity - line.refunded_quantity, amountOre: 0 }))
      .map((p) => ({ ...p, amountOre: lineRefundOre(p.line, p.quantity) }));
  }
  const byId = new Map(lines.map((line) => [line.id, line]));
  return (request.lines ?? []).map((asked, index) => {
    const line = byId.get(asked.line_id);
    if (!line)
      throw new AppError(404, "unknown_line", "That line is not on this order", [
        { path: `lines.${index}.line_id`, message: "not a line of this order" },
      ]);
    const left = line.quantity - line.refunded_quantity;
    if (asked.quantity > left) {
      const detail = `${line.name}: only ${left} of ${line.quantity} left, only ${kr(lineRefundOre(line, left))} is left to refund`;
      throw new AppError(409, "refund_exceeds_captured", detail, [
        { path: `lines.${index}.quantity`, message: detail },
      ]);
    }
    return { line, quantity: asked.quantity, amountOre: lineRefundOre(line, asked.quantity) };
  });
}

/**
 * The payment a line was paid with: the checkout's charge, or the extra
 * charge of a spot check (lines added there). A refund gives back to one
 * payment, so a request touching both makes one refund of each.
 */
type Payment = "checkout" | "spot_check";
const PAYMENTS: Payment[] = ["checkout", "spot_check"];
const paymentOf = (line: { origin: string }): Payment => (line.origin === "spot_check" ? "spot_check" : "checkout");

/** Each refund row has a unique key: the request's own on the checkout's refund, one derived from it on the other. */
const refundKey = (requestKey: string, payment: Payment) =>
  payment === "checkout" ? requestKey : `${requestKey}:spot_check`;

const REFUND_COLUMNS = sql`id, order_id, state, amount_ore, reason, source, failure_code, created_at, completed_at, provider_refund_id`;

/**
 * The same key again is the same request only when it asks for the same
 * thing. A whole-order request names every line of each payment it refunded
 * (some with 0 units); one of some lines names only those.
 */
async function sameRequest(tx: Tx, existing: RefundRow[], orderId: string, request: RefundCreate, reason: string) {
  if (existing.some((refund) => refund.order_id !== orderId || refund.reason !== reason)) return false;
  const rows = await queryRows<{ refund_id: string; order_line_id: string; quantity: number }>(
    tx,
    sql`select refund_id, order_line_id, quantity from refund_lines
        where refund_id in (select unnest(${`{${existing.map((refund) => refund.id).join(",")}}`}::uuid[]))`,
  );
  if (request.whole) {
    const lines = await linesOf(tx, orderId);
    return existing.every((refund) => {
      const named = new Set(rows.filter((row) => row.refund_id === refund.id).map((row) => row.order_line_id));
      const payment = paymentOf(lines.find((line) => named.has(line.id)) ?? { origin: "cart" });
      const ofPayment = lines.filter((line) => paymentOf(line) === payment);
      return named.size === ofPayment.length && ofPayment.every((line) => named.has(line.id));
    });
  }
  const asked = new Map((request.lines ?? []).map((line) => [line.line_id, line.quantity]));
  const named = rows.filter((row) => row.quantity > 0);
  return named.length === asked.size && named.every((row) => asked.get(row.order_line_id) === row.quantity);
}

/** The provider's id of a payment of the order; refunding an unpaid one is a conflict. */
async function intentOf(tx: Tx, order: OrderRow, payment: Payment): Promise<string> {
  if (payment === "checkout") {
    if (!order.payment_intent_id) throw conflict("This order has no captured payment to refund", "order_not_paid");
    return order.payment_intent_id;
  }
  const [check] = await queryRows<{ charge_intent_id: string | null }>(
    tx,
    sql`select charge_intent_id from spot_checks where order_id = ${order.id} and charge_intent_id is not null limit 1`,
  );
  if (!check?.charge_intent_id) throw conflict("The spot check's extra charge was never paid", "order_not_paid");
  return check.charge_intent_id;
}

/** The planned units split by the payment they were paid with, checkout first; a payment with nothing to give back is left out. */
function byPayment(planned: Planned[]): Array<{ payment: Payment; planned: Planned[]; amountOre: number }> {
  return PAYMENTS.map((payment) => {
    const own = planned.filter((p) => paymentOf(p.line) === payment);
    return { payment, planned: own, amountOre: own.reduce((sum, p) => sum + p.amountOre, 0) };
  }).filter((group) => group.planned.some((p) => p.quantity > 0));
}

/**
 * What the checkout's card can still be given back when pant machine
 * vouchers paid part of the order: the card paid the checkout's lines less
 * the vouchers, and a voucher is never paid out. Refunds go to the card
 * until that is given back; units asked for beyond it are taken back with
 * nothing more to give (their share was the vouchers'). A group with
 * nothing left to give is left out.
 */
function capToCard(groups: ReturnType<typeof byPayment>, lines: LineRow[], voucherOre: number) {
  if (voucherOre === 0) return groups;
  const own = lines.filter((line) => paymentOf(line) === "checkout");
  const paid = own.reduce((sum, line) => sum + line.total_ore, 0);
  const given = own.reduce((sum, line) => sum + line.refunded_ore, 0);
  let left = Math.max(0, paid - voucherOre - given);
  return groups
    .map((group) => {
      if (group.payment !== "checkout" || group.amountOre <= left) return group;
      const planned = group.planned.map((p) => {
        const amountOre = Math.min(p.amountOre, left);
        left -= amountOre;
        return { ...p, amountOre };
      });
      return { ...group, planned, amountOre: planned.reduce((sum, p) => sum + p.amountOre, 0) };
    })
    .filter((group) => group.amountOre > 0);
}

type Made = { refundId: string; intentId: string };
type Reserved =
  | { kind: "existing"; refundIds: string[]; sessionId: string | null }
  | { kind: "new"; made: Made[]; sessionId: string | null };

type ReserveOpts = {
  actor: AdminActor;
  orderId: string;
  request: RefundCreate;
  source: RefundSource;
  disputeId?: string | null;
};

/**
 * Under the order's row lock: the key's earlier refunds are answered as they
 * are; otherwise the amount is computed, checked against what is left,
 * reserved on the lines and the order (their CHECK constraints are the last
 * guard), and one pending refund per payment is written, each with its event
 * and audit entry. All of it commits together or not at all.
 */
async function reserve(deps: RefundDeps, opts: ReserveOpts): Promise<Reserved> {
  const reason = opts.request.reason.trim();
  const key = opts.request.idempotency_key;
  return deps.db.transaction(async (tx) => {
    const order = await lockOrder(tx, opts.orderId);
    if (!order) throw notFound("Unknown order");
    assertOrderStore(opts.actor, order);
    deps.provider();
    const existing = await queryRows<RefundRow>(
      tx,
      sql`select ${REFUND_COLUMNS} from refunds
          where idempotency_key in (${refundKey(key, "checkout")}, ${refundKey(key, "spot_check")})
          order by idempotency_key = ${key} desc, id`,
    );
    if (existing.length > 0) {
      if (!(await sameRequest(tx, existing, order.id, opts.request, reason)))
        throw conflict(
          "This idempotency key was already used for a different refund; open the dialog again for a new one",
          "idempotency_key_reused",
        );
      return { kind: "existing", refundIds: existing.map((refund) => refund.id), sessionId: order.session_id };
    }
    if (order.state !== "paid") throw conflict("Only a paid order can be refunded", "order_not_paid");

    const lines = await linesOf(tx, order.id);
    const groups = capToCard(byPayment(plan(lines, opts.request)), lines, order.voucher_ore);
    if (groups.reduce((sum, group) => sum + group.amountOre, 0) <= 0)
      throw conflict(
        `Only ${kr(order.total_ore - order.voucher_ore - order.refunded_ore)} is left to refund on this order` +
          (order.voucher_ore > 0
            ? ` (${kr(order.voucher_ore)} was paid with pant vouchers, which are not paid out)`
            : ""),
        "nothing_left",
      );
    const made: Made[] = [];
    let refundedOre = order.refunded_ore;
    for (const group of groups) {
      const intentId = await intentOf(tx, order, group.payment);
      const refundId = await writeRefund(tx, {
        ...opts,
        order,
        reason,
        key: refundKey(key, group.payment),
        planned: group.planned,
        amountOre: group.amountOre,
        refundedBeforeOre: refundedOre,
      });
      refundedOre += group.amountOre;
      made.push({ refundId, intentId });
    }
    return { kind: "new", made, sessionId: order.session_id };
  });
}

/** One payment's part of a request: reserved on its lines and the order, written pending, with its event and audit entry. */
async function writeRefund(
  tx: Tx,
  opts: ReserveOpts & {
    order: OrderRow;
    reason: string;
    key: string;
    planned: Planned[];
    amountOre: number;
    refundedBeforeOre: number;
  },
): Promise<string> {
  const { order, planned, amountOre, reason } = opts;
  for (const p of planned) {
    await tx.execute(
      sql`update order_lines set refunded_quantity = refunded_quantity + ${p.quantity},
            refunded_ore = refunded_ore + ${p.amountOre}
          where id = ${p.line.id}`,
    );
  }
  await tx.execute(sql`update orders set refunded_ore = refunded_ore + ${amountOre} where id = ${order.id}`);
  const [refund] = await queryRows<{ id: string }>(
    tx,
    sql`insert into refunds (order_id, store_id, amount_ore, reason, source, idempotency_key, requested_by, dispute_id)
        values (${order.id}, ${order.store_id}, ${amountOre}, ${reason}, ${opts.source},
                ${opts.key}, ${opts.actor.id}, ${opts.disputeId ?? null})
        returning id`,
  );
  const refundId = refund!.id;
  await tx.execute(
    sql`insert into refund_lines (refund_id, order_line_id, quantity, amount_ore)
        select ${refundId}, l.id, l.quantity, l.amount_ore
        from jsonb_to_recordset(${JSON.stringify(planned.map((p) => ({ id: p.line.id, quantity: p.quantity, amount_ore: p.amountOre })))}::jsonb)
          as l(id uuid, quantity int, amount_ore bigint)`,
  );
  const lineDetail = planned
    .filter((p) => p.quantity > 0)
    .map((p) => ({ line_id: p.line.id, name: p.line.name, quantity: p.quantity, amount: fromOre(p.amountOre) }));
  if (order.session_id)
    await recordSessionEvent(tx, {
      sessionId: order.session_id,
      storeId: order.store_id,
      kind: "refund",
      source: "staff",
      adminId: opts.actor.id,
      activity: false,
      detail: { refund_id: refundId, origin: opts.source, amount: fromOre(amountOre), reason, lines: lineDetail },
    });
  await recordAudit(tx, {
    actor: opts.actor,
    action: "refund.create",
    entityType: "refund",
    entityId: refundId,
    storeId: order.store_id,
    summary: `Refund of ${kr(amountOre)} on receipt ${order.receipt_number ?? order.id}: ${reason}`,
    before: { order_id: order.id, refunded: fromOre(opts.refundedBeforeOre) },
    after: { order_id: order.id, refunded: fromOre(opts.refundedBeforeOre + amountOre), lines: lineDetail },
  });
  return refundId;
}

/**
 * POST /api/v1/admin/orders/:id/refunds. Reserved under the order's lock,
 * then asked of the provider with no transaction open (one call per payment,
 * each under its refund's key refund-<id>), then recorded: succeeded, failed
 * (the amount is free again) or, without a definite answer, left pending for
 * settlePendingRefunds. The refunds come back checkout's first.
 */
export async function createRefund(
  deps: RefundDeps,
  opts: { actor: AdminActor; orderId: string; request: RefundCreate; source?: RefundSource; disputeId?: string | null },
): Promise<{ created: boolean; refunds: Refund[] }> {
  let reserved: Reserved;
  try {
    reserved = await reserve(deps, { ...opts, source: opts.source ?? "staff" });
  } catch (err) {
    // The same key raced in on another order (or another instance): answer from the rows that won.
    if (isUniqueViolation(err)) return createRefund(deps, opts);
    if (isCheckViolation(err))
      throw conflict("Only what is left of the order can be refunded", "refund_exceeds_captured");
    throw err;
  }
  const answer = async (ids: string[]) => Promise.all(ids.map((id) => oneRefund(deps.db, id)));
  if (reserved.kind === "existing") return { created: false, refunds: await answer(reserved.refundIds) };
  const [order] = await queryRows<{ store_id: string | null }>(
    deps.db,
    sql`select store_id from orders where id = ${opts.orderId}`,
  );
  if (reserved.sessionId)
    await deps.announce({ store_id: order?.store_id ?? null, session_id: reserved.sessionId, kind: "refund" });
  for (const { refundId, intentId } of reserved.made) await askProvider(deps, refundId, intentId);
  return { created: true, refunds: await answer(reserved.made.map((made) => made.refundId)) };
}

/** PostgreSQL's check_violation: the reservation went past what was captured. */
function isCheckViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === "23514" || e?.cause?.code === "23514";
}
