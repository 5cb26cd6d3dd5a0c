import type { RefundableLine } from "@glide/contracts";
import { type Db, queryRows, sql, type Tx } from "../../db/client.ts";
import { AppError } from "../../platform/errors.ts";
import { assertCanManageStore } from "../admin-auth/admin-auth.hooks.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";

/** The order as a refund sees it: what was paid, what is already given back, and the checkout's payment. */
export type OrderRow = {
  id: string;
  session_id: string | null;
  store_id: string | null;
  state: string;
  receipt_number: number | null;
  total_ore: number;
  /** Paid with pant machine vouchers: never given back. */
  voucher_ore: number;
  refunded_ore: number;
  payment_intent_id: string | null;
};

/** An order line with what is left of it to refund. */
export type LineRow = RefundableLine & { position: number };

/** A refund row as stored. */
export type RefundRow = {
  id: string;
  order_id: string;
  state: "pending" | "succeeded" | "failed";
  amount_ore: number;
  reason: string;
  source: string;
  failure_code: string | null;
  created_at: Date | string;
  completed_at: Date | string | null;
  provider_refund_id: string | null;
};

/** Öre as the console's words say it: "12.50 kr". */
export const kr = (ore: number) => `${(ore / 100).toFixed(2)} kr`;

/** The order, locked for the refund's transaction: one reservation or release at a time. */
export async function lockOrder(tx: Tx, orderId: string): Promise<OrderRow | undefined> {
  const [order] = await queryRows<OrderRow>(
    tx,
    sql`select id, session_id, store_id, state, receipt_number, total_ore, voucher_ore, refunded_ore, payment_intent_id
        from orders where id = ${orderId} for update`,
  );
  return order;
}

/**
 * The order's lines in receipt order, each with what was paid for it
 * (total_ore: its goods and pant less the multi-buy discounts taken from
 * it), so a refund of a discounted line gives back what was paid, not more.
 */
export async function linesOf(db: Db | Tx, orderId: string): Promise<LineRow[]> {
  return queryRows<LineRow>(
    db,
    sql`select id, position, name, quantity, total_ore - discount_ore as total_ore, refunded_quantity, refunded_ore,
          weight_grams, origin
        from order_lines where order_id = ${orderId} order by position, id`,
  );
}

/** An order of a deleted store is for platform admins only. */
export function assertOrderStore(actor: AdminActor, order: OrderRow) {
  if (order.store_id) assertCanManageStore(actor, order.store_id);
  else if (actor.role !== "platform_admin") throw new AppError(403, "forbidden", "You do not manage this store");
}
