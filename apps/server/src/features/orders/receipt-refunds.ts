import type { Receipt } from "@glide/contracts";
import { type Db, queryRows, sql, type Tx } from "../../db/client.ts";
import { fromOre } from "../../platform/money.ts";
import { vatPerRate } from "./vat.ts";

export type ReceiptAfterwards = Pick<Receipt, "refunds" | "refunded" | "dispute">;

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/**
 * What happened to receipts after they were paid: the refunds that went
 * through or are under way (a failed one gave nothing back, so it is not
 * shown) and the latest dispute. One query each for any number of orders.
 */
export async function receiptAfterwards(db: Db | Tx, orderIds: string[]): Promise<Map<string, ReceiptAfterwards>> {
  const found = new Map<string, ReceiptAfterwards>(
    orderIds.map((id) => [id, { refunds: [], refunded: 0, dispute: null }]),
  );
  if (orderIds.length === 0) return found;
  const ids = sql`(select unnest(${`{${orderIds.join(",")}}`}::uuid[]))`;
  const refunds = await queryRows<{
    id: string;
    order_id: string;
    amount_ore: number;
    state: "pending" | "succeeded";
    created_at: Date | string;
    lines: Array<{ name: string; quantity: number; amount_ore: number }>;
  }>(
    db,
    sql`select r.id, r.order_id, r.amount_ore, r.state, r.created_at,
          coalesce((select json_agg(json_build_object('name', l.name, 'quantity', rl.quantity, 'amount_ore', rl.amount_ore)
                                    order by l.position)
                    from refund_lines rl join order_lines l on l.id = rl.order_line_id
                    where rl.refund_id = r.id and rl.quantity > 0), '[]'::json) as lines
        from refunds r
        where r.order_id in ${ids} and r.state <> 'failed'
        order by r.created_at, r.id`,
  );
  for (const refund of refunds) {
    const entry = found.get(refund.order_id)!;
    entry.refunded += refund.amount_ore;
    entry.refunds.push({
      id: refund.id,
      amount: fromOre(refund.amount_ore),
      state: refund.state,
      created_at: iso(refund.created_at)!,
      lines: refund.lines.map((line) => ({
        name: line.name,
        quantity: line.quantity,
        amount: fromOre(line.amount_ore),
      })),
    });
  }
  for (const entry of found.values()) entry.refunded = fromOre(entry.refunded);
  const disputes = await queryRows<{
    id: string;
    order_id: string;
    state: "open" | "resolved" | "rejected";
    message: string;
    resolution: string | null;
    created_at: Date | string;
    resolved_at: Date | string | null;
  }>(
    db,
    sql`select distinct on (order_id) id, order_id, state, message, resolution, created_at, resolved_at
        from disputes where order_id in ${ids}
        order by order_id, created_at desc, id`,
  );
  for (const dispute of disputes) {
    found.get(dispute.order_id)!.dispute = {
      id: dispute.id,
      state: dispute.state,
      message: dispute.message,
      resolution: dispute.resolution,
      created_at: iso(dispute.created_at)!,
      resolved_at: iso(dispute.resolved_at),
    };
  }
  return found;
}

/**
 * What one order's refunds (succeeded or under way) gave back per VAT rate.
 * Each refund is a credit of its own, so its VAT is rounded once per rate
 * within it, then the refunds are added up: the receipt's VAT minus this is
 * exact to the öre against what the books say was given back.
 */
export async function refundedVat(db: Db | Tx, orderId: string): Promise<Receipt["refunded_vat"]> {
  const rows = await queryRows<{ refund_id: string; vat_rate_bp: number; amount_ore: number }>(
    db,
    sql`select rl.refund_id, l.vat_rate_bp, rl.amount_ore
        from refund_lines rl join refunds r on r.id = rl.refund_id join order_lines l on l.id = rl.order_line_id
        where r.order_id = ${orderId} and r.state <> 'failed' and rl.amount_ore > 0`,
  );
  const byRefund = Map.groupBy(rows, (row) => row.refund_id);
  const total = new Map<number, { grossOre: number; vatOre: number }>();
  for (const lines of byRefund.values()) {
    for (const rate of vatPerRate(lines.map((line) => ({ totalOre: line.amount_ore, vatRateBp: line.vat_rate_bp })))) {
      const sum = total.get(rate.vatRateBp) ?? { grossOre: 0, vatOre: 0 };
      total.set(rate.vatRateBp, { grossOre: sum.grossOre + rate.grossOre, vatOre: sum.vatOre + rate.vatOre });
    }
  }
  return [...total.entries()]
    .sort(([a], [b]) => b - a)
    .map(([rateBp, sum]) => ({
      rate: rateBp / 10_000,
      amount: fromOre(sum.vatOre),
      net: fromOre(sum.grossOre - sum.vatOre),
      gross: fromOre(sum.grossOre),
    }));
}
