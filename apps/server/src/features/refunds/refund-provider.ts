import { type Db, queryRows, sql } from "../../db/client.ts";
import type { PaymentProvider } from "../../platform/payments/provider.ts";
import { enqueueRefundMail } from "../orders/refund-mail.ts";
import { lockOrder } from "./refund-order.ts";

/** A refund the provider has not answered is asked again (same key) once it is this old. */
export const REFUND_SETTLE_AFTER_MS = 30_000;

/** What the round trip to the provider needs. */
export type RefundProviderDeps = {
  db: Db;
  /** The payment provider; asked for only once the caller may refund (503 without one). */
  provider: () => PaymentProvider;
  /** Tells the receipt mail sender there is something to send. */
  kickMails?: () => void;
};

/** One provider call under the refund's own key, and its answer recorded; repeating it never pays twice. */
export async function askProvider(deps: RefundProviderDeps, refundId: string, intentId: string): Promise<void> {
  const [row] = await queryRows<{ amount_ore: number }>(
    deps.db,
    sql`select amount_ore from refunds where id = ${refundId}`,
  );
  const answer = await deps.provider().refund({
    paymentIntentId: intentId,
    amountOre: row!.amount_ore,
    idempotencyKey: `refund-${refundId}`,
    reason: "requested_by_customer",
  });
  if (answer.status === "refunded") {
    const mailed = await deps.db.transaction(async (tx) => {
      const done = await queryRows<{ id: string }>(
        tx,
        sql`update refunds set state = 'succeeded', completed_at = now(), provider_refund_id = ${answer.refundId}
            where id = ${refundId} and state = 'pending' returning id`,
      );
      return done.length > 0 && (await enqueueRefundMail(tx, refundId));
    });
    if (mailed) deps.kickMails?.();
    return;
  }
  // No answer, or the key is busy or was used otherwise: the same key settles it later, never a guess.
  if (answer.status === "unavailable" || answer.status === "key_reused") return;
  await releaseFailed(deps.db, refundId, answer.code);
}

/** A definite no from the provider: the refund failed and what it reserved is free again. */
async function releaseFailed(db: Db, refundId: string, code: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [refund] = await queryRows<{ order_id: string; amount_ore: number }>(
      tx,
      sql`select order_id, amount_ore from refunds where id = ${refundId}`,
    );
    if (!refund) return;
    await lockOrder(tx, refund.order_id);
    const failed = await queryRows<{ id: string }>(
      tx,
      sql`update refunds set state = 'failed', failure_code = ${code}, completed_at = now()
          where id = ${refundId} and state = 'pending' returning id`,
    );
    if (failed.length === 0) return;
    await tx.execute(
      sql`update order_lines l set refunded_quantity = l.refunded_quantity - rl.quantity,
            refunded_ore = l.refunded_ore - rl.amount_ore
          from refund_lines rl where rl.refund_id = ${refundId} and rl.order_line_id = l.id`,
    );
    await tx.execute(
      sql`update orders set refunded_ore = refunded_ore - ${refund.amount_ore} where id = ${refund.order_id}`,
    );
  });
}

/**
 * Refunds the provider did not answer, asked again with their own keys (the
 * provider answers the refund it made, or makes it once). Run on a timer.
 */
export async function settlePendingRefunds(
  deps: RefundProviderDeps & { olderThanMs?: number },
): Promise<{ succeeded: number; failed: number; pending: number }> {
  const age = deps.olderThanMs ?? REFUND_SETTLE_AFTER_MS;
  const rows = await queryRows<{ id: string; order_id: string; origin: string | null }>(
    deps.db,
    sql`select r.id, r.order_id,
          (select l.origin from refund_lines rl join order_lines l on l.id = rl.order_line_id
           where rl.refund_id = r.id and rl.quantity > 0 limit 1) as origin
        from refunds r
        where r.state = 'pending' and r.created_at <= now() - ${age}::float8 * interval '1 millisecond'
        order by r.created_at limit 100`,
  );
  const counts = { succeeded: 0, failed: 0, pending: 0 };
  for (const row of rows) {
    const intentId = await storedIntent(deps.db, row.order_id, row.origin);
    if (intentId) await askProvider(deps, row.id, intentId);
    const [now] = await queryRows<{ state: keyof typeof counts }>(
      deps.db,
      sql`select state from refunds where id = ${row.id}`,
    );
    if (now) counts[now.state]++;
  }
  return counts;
}

async function storedIntent(db: Db, orderId: string, origin: string | null): Promise<string | null> {
  const [row] = await queryRows<{ intent: string | null }>(
    db,
    origin === "spot_check"
      ? sql`select charge_intent_id as intent from spot_checks where order_id = ${orderId} and charge_intent_id is not null limit 1`
      : sql`select payment_intent_id as intent from orders where id = ${orderId}`,
  );
  return row?.intent ?? null;
}
