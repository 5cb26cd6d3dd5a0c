import type { SessionDetail } from "@glide/contracts";
import { type Db, queryRows, sql } from "../../db/client.ts";
import { fromOre } from "../../platform/money.ts";
import { linePant } from "../pant/pant.ts";
import { discountAnswer, type VisitVoucher, voucherAnswer } from "../pricing/cart-offers.ts";
import { ordinaryUnitPrice } from "../pricing/shelf-price.ts";
import { iso } from "./session-row.ts";

/** The visit's order with each line and what was refunded of it, or null when it has none. */
export async function readOrder(db: Db, orderId: string | null): Promise<SessionDetail["order"]> {
  if (!orderId) return null;
  const [[order], lines, discounts, vouchers] = await Promise.all([
    queryRows<{
      id: string;
      state: string;
      receipt_number: number | null;
      total_ore: number;
      vat_ore: number;
      refunded_ore: number;
      paid_at: Date | string | null;
      failure_code: string | null;
      card_brand: string | null;
      card_last4: string | null;
    }>(
      db,
      sql`select id, state, receipt_number, total_ore, vat_ore, refunded_ore, paid_at, failure_code, card_brand, card_last4
          from orders where id = ${orderId}`,
    ),
    queryRows<{
      id: string;
      name: string;
      quantity: number;
      unit_price_ore: number;
      pant_ore: number;
      ordinary_unit_ore: number | null;
      total_ore: number;
      discount_ore: number;
      refunded_quantity: number;
      refunded_ore: number;
      origin: string;
    }>(
      db,
      sql`select id, name, quantity, unit_price_ore, pant_ore, ordinary_unit_ore, total_ore, discount_ore,
            refunded_quantity, refunded_ore, origin
          from order_lines where order_id = ${orderId} order by position`,
    ),
    queryRows<{ offer_id: string | null; label: string; times: number; amount_ore: number }>(
      db,
      sql`select offer_id, label, times, amount_ore from order_discounts where order_id = ${orderId} order by position`,
    ),
    queryRows<VisitVoucher>(
      db,
      sql`select code, amount_ore from pant_vouchers where order_id = ${orderId} order by scanned_at, code`,
    ),
  ]);
  if (!order) return null;
  return {
    id: order.id,
    state: order.state,
    receipt_number: order.receipt_number,
    total: fromOre(order.total_ore),
    vat: fromOre(order.vat_ore),
    refunded: fromOre(order.refunded_ore),
    paid_at: iso(order.paid_at),
    failure_code: order.failure_code,
    card: order.card_brand && order.card_last4 ? { brand: order.card_brand, last4: order.card_last4 } : null,
    lines: lines.map((line) => ({
      id: line.id,
      name: line.name,
      quantity: line.quantity,
      unit_price: fromOre(line.unit_price_ore),
      ordinary_unit_price: ordinaryUnitPrice(line.ordinary_unit_ore),
      total: fromOre(line.total_ore - line.pant_ore * line.quantity),
      pant: linePant(line.pant_ore, line.quantity),
      discount: fromOre(line.discount_ore),
      refunded_quantity: line.refunded_quantity,
      refunded: fromOre(line.refunded_ore),
      origin: line.origin,
    })),
    discounts: discounts.map(discountAnswer),
    vouchers: vouchers.map(voucherAnswer),
  };
}

/** The refunds of the visit's order, oldest first, with the staff member who asked for each. */
export async function readRefunds(db: Db, orderId: string | null): Promise<SessionDetail["refunds"]> {
  const refunds = await queryRows<{
    id: string;
    amount_ore: number;
    reason: string;
    state: string;
    source: string;
    staff_email: string | null;
    created_at: Date | string;
  }>(
    db,
    sql`select r.id, r.amount_ore, r.reason, r.state, r.source, a.email as staff_email, r.created_at
        from refunds r left join admin_users a on a.id = r.requested_by
        where r.order_id = ${orderId} order by r.created_at, r.id`,
  );
  return refunds.map((r) => ({
    id: r.id,
    amount: fromOre(r.amount_ore),
    reason: r.reason,
    state: r.state,
    source: r.source,
    staff_email: r.staff_email,
    created_at: iso(r.created_at)!,
  }));
}

/** The disputes of the visit's order, oldest first. */
export async function readDisputes(db: Db, orderId: string | null): Promise<SessionDetail["disputes"]> {
  const disputes = await queryRows<{
    id: string;
    state: string;
    message: string;
    resolution: string | null;
    created_at: Date | string;
    resolved_at: Date | string | null;
  }>(
    db,
    sql`select id, state, message, resolution, created_at, resolved_at from disputes
        where order_id = ${orderId} order by created_at, id`,
  );
  return disputes.map((d) => ({
    id: d.id,
    state: d.state,
    message: d.message,
    resolution: d.resolution,
    created_at: iso(d.created_at)!,
    resolved_at: iso(d.resolved_at),
  }));
}
