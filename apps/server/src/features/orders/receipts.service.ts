import type { Receipt } from "@glide/contracts";
import { type Db, queryRows, sql } from "../../db/client.ts";
import { forbidden, notFound } from "../../platform/errors.ts";
import { fromOre } from "../../platform/money.ts";
import { readReceipt } from "./receipt.ts";
import { receiptAfterwards } from "./receipt-refunds.ts";

/** The shopper's paid receipts, newest first, each with what was refunded and its latest dispute. */
export async function listReceipts(db: Db, customerId: string) {
  const rows = await queryRows<{
    id: string;
    receipt_number: number;
    store_name: string;
    paid_at: Date | string;
    total_ore: number;
  }>(
    db,
    sql`select id, receipt_number, store_name, paid_at, total_ore from orders
        where customer_id = ${customerId} and state = 'paid'
        order by paid_at desc limit 200`,
  );
  const afterwards = await receiptAfterwards(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => {
    const { refunds, refunded, dispute } = afterwards.get(row.id)!;
    return {
      id: row.id,
      number: row.receipt_number,
      store_name: row.store_name,
      paid_at: new Date(row.paid_at).toISOString(),
      total: fromOre(row.total_ore),
      refunded,
      refunds,
      dispute: dispute && { state: dispute.state, resolution: dispute.resolution },
    };
  });
}

/** One receipt, only for the shopper who paid it. */
export async function ownReceipt(db: Db, customerId: string, orderId: string): Promise<Receipt> {
  const [owner] = await queryRows<{ customer_id: string | null }>(
    db,
    sql`select customer_id from orders where id = ${orderId} and state = 'paid'`,
  );
  if (!owner) throw notFound("Kvittot finns inte.", "unknown_receipt");
  if (owner.customer_id !== customerId) throw forbidden("Det här är inte ditt kvitto.");
  const receipt = await readReceipt(db, orderId);
  if (!receipt) throw notFound("Kvittot finns inte.", "unknown_receipt");
  return receipt;
}
