import { sql } from "drizzle-orm";
import { queryRows, type Tx } from "../../db/client.ts";
import type { ExpiryJob } from "../../platform/housekeeping.ts";

/**
 * In the transaction that marks the order paid: the receipt mail is queued
 * when the shopper has given an e-mail, so it commits with the payment or not
 * at all. Once per order; the sender does the rest. True when one was queued.
 */
export async function enqueueReceiptMail(tx: Tx, orderId: string): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`insert into receipt_mails (order_id, to_address)
        select o.id, c.email from orders o join customers c on c.id = o.customer_id
        where o.id = ${orderId} and c.email is not null
        on conflict (order_id) where kind = 'receipt' do nothing
        returning id`,
  );
  return rows.length > 0;
}

/** The outbox keeps a copy of the address: it goes a month after the mail was queued (the order itself stays). */
export const receiptMailExpiry: ExpiryJob = {
  table: "receipt_mails",
  deleteExpired: sql`delete from receipt_mails where created_at < now() - interval '30 days'`,
};
