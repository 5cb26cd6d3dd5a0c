import type { OrderRefunds, Refund } from "@glide/contracts";
import { type Db, queryRows, sql, type Tx } from "../../db/client.ts";
import { notFound } from "../../platform/errors.ts";
import { fromOre } from "../../platform/money.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";
import { assertOrderStore, linesOf, type OrderRow, type RefundRow } from "./refund-order.ts";

/** The order's refunds as the API shows them, oldest first (or only `refundId`). */
async function refundsOf(db: Db | Tx, where: { orderId: string } | { refundId: string }): Promise<Refund[]> {
  const filter = "orderId" in where ? sql`r.order_id = ${where.orderId}` : sql`r.id = ${where.refundId}`;
  const rows = await queryRows<
    RefundRow & { lines: Array<{ line_id: string; name: string; quantity: number; amount_ore: number }> }
  >(
    db,
    sql`select r.id, r.order_id, r.state, r.amount_ore, r.reason, r.source, r.failure_code, r.created_at, r.completed_at,
          r.provider_refund_id,
          coalesce((select json_agg(json_build_object('line_id', l.id, 'name', l.name, 'quantity', rl.quantity,
                                                      'amount_ore', rl.amount_ore) order by l.position)
                    from refund_lines rl join order_lines l on l.id = rl.order_line_id
                    where rl.refund_id = r.id and rl.quantity > 0), '[]'::json) as lines
        from refunds r where ${filter} order by r.created_at, r.id`,
  );
  return rows.map((row) => ({
    id: row.id,
    order_id: row.order_id,
    state: row.state,
    amount: fromOre(row.amount_ore),
    reason: row.reason,
    source: row.source,
    failure_code: row.failure_code,
    created_at: new Date(row.created_at).toISOString(),
    completed_at: row.completed_at ? new Date(row.completed_at).toISOString() : null,
    lines: row.lines.map((line) => ({
      line_id: line.line_id,
      name: line.name,
      quantity: line.quantity,
      amount: fromOre(line.amount_ore),
    })),
  }));
}

/** One refund as the API shows it; an unknown id is 404. */
export async function oneRefund(db: Db | Tx, refundId: string): Promise<Refund> {
  const [refund] = await refundsOf(db, { refundId });
  if (!refund) throw notFound("Unknown refund");
  return refund;
}

/** GET /api/v1/admin/orders/:id/refunds: what the refund dialog shows. */
export async function readOrderRefunds(opts: { db: Db; actor: AdminActor; orderId: string }): Promise<OrderRefunds> {
  const [order] = await queryRows<OrderRow>(
    opts.db,
    sql`select id, session_id, store_id, state, receipt_number, total_ore, voucher_ore, refunded_ore, payment_intent_id
        from orders where id = ${opts.orderId}`,
  );
  if (!order) throw notFound("Unknown order");
  assertOrderStore(opts.actor, order);
  const lines = await linesOf(opts.db, order.id);
  return {
    order_id: order.id,
    store_id: order.store_id,
    receipt_number: order.receipt_number,
    state: order.state,
    total: fromOre(order.total_ore),
    refunded: fromOre(order.refunded_ore),
    voucher: fromOre(order.voucher_ore),
    lines: lines.map(({ position: _position, ...line }) => line),
    refunds: await refundsOf(opts.db, { orderId: order.id }),
  };
}
