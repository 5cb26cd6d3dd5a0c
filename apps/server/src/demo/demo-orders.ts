import { sql } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { fromOre } from "../platform/money.ts";
import { at, refundLinesOf, rowsOf } from "./demo-history.ts";
import type { PlannedVisit } from "./demo-visits.ts";

/**
 * The money of the demo's past visits, written as the checkout and the
 * console's refunds write it (checkout/order-plan.ts, refunds.service.ts):
 * each order made from the cart (charging, with its lines numbered from 0 in
 * the cart's order and the store's receipt details) and then paid with its
 * receipt number, payment id and card, so the analytics triggers count it as
 * they count a live payment; the stores' receipt counters; and the staff
 * refunds with their lines, their amounts reserved on the lines and the
 * order, and their audit entries. Runs after demo-history.ts, in its
 * transaction (its demo_clock gives the times).
 */
export async function seedDemoOrders(tx: Tx, visits: PlannedVisit[]): Promise<void> {
  const paid = visits.filter((v) => v.order);
  await tx.execute(sql`
    insert into orders (id, session_id, customer_id, store_id, state, attempt, total_ore, vat_ore, currency, store_name,
      store_legal_name, store_organization_number, store_address, charge_started_at, created_at)
    select o.id, s.id, s.customer_id, s.store_id, 'charging', 1, o.total_ore, o.vat_ore, st.currency, st.name,
      st.legal_name, st.organization_number,
      -- The receipt's address as the checkout writes it: street, then postal code and town.
      nullif(concat_ws(', ', st.address, nullif(concat_ws(' ', st.postal_code, st.city), '')), ''),
      ${at(sql`o.ms`)}, ${at(sql`o.ms`)}
    from ${rowsOf(
      paid.map((v) => ({
        id: v.order!.id,
        session_id: v.id,
        total_ore: v.order!.totalOre,
        vat_ore: v.order!.vatOre,
        ms: v.checkoutMs,
      })),
    )} as o(id uuid, session_id uuid, total_ore bigint, vat_ore bigint, ms bigint)
    join shopping_sessions s on s.id = o.session_id
    join stores st on st.id = s.store_id
    join demo_clock c on c.id = s.id`);
  await tx.execute(sql`
    insert into order_lines (id, order_id, position, product_id, name, quantity, unit_price_ore, vat_rate_bp, total_ore, weight_grams)
    select l.id, l.order_id, l.position, l.product_id, l.name, l.quantity, l.unit_ore, l.vat_rate_bp,
      l.quantity::bigint * l.unit_ore, l.grams
    from ${rowsOf(
      paid.flatMap((v) =>
        v.lines.map((line, position) => ({
          id: line.orderLineId,
          order_id: v.order!.id,
          position,
          product_id: line.product.id,
          name: line.product.name,
          quantity: line.quantity,
          unit_ore: line.unitOre,
          vat_rate_bp: line.vatRateBp,
          grams: line.weightGrams,
        })),
      ),
    )} as l(id uuid, order_id uuid, position int, product_id uuid, name text, quantity int, unit_ore int,
      vat_rate_bp int, grams int)`);
  await tx.execute(sql`
    update orders o set state = 'paid', receipt_number = p.receipt_number, paid_at = ${at(sql`p.ms`)},
      payment_intent_id = p.intent_id, card_brand = cu.card_brand, card_last4 = cu.card_last4, charge_started_at = null
    from ${rowsOf(
      paid.map((v) => ({
        id: v.order!.id,
        receipt_number: v.order!.receiptNumber,
        intent_id: v.order!.intentId,
        ms: v.order!.paidMs,
      })),
    )} as p(id uuid, receipt_number int, intent_id text, ms bigint), demo_clock c, customers cu
    where o.id = p.id and c.id = o.session_id and cu.id = o.customer_id`);
  await tx.execute(sql`
    insert into store_receipt_counters (store_id, last_number)
    select store_id, max(receipt_number) from orders where receipt_number is not null group by store_id
    on conflict (store_id) do update set last_number = excluded.last_number`);

  const refunds = paid.flatMap((v) => (v.order!.refund ? [{ visit: v, refund: v.order!.refund }] : []));
  await tx.execute(sql`
    insert into refunds (id, order_id, store_id, amount_ore, reason, source, state, idempotency_key, provider_refund_id,
      created_at, completed_at)
    select r.id, o.id, o.store_id, r.amount_ore, r.reason, 'staff', 'succeeded', r.key, r.provider_id,
      ${at(sql`r.ms`)}, ${at(sql`r.ms`)} + interval '700 milliseconds'
    from ${rowsOf(
      refunds.map(({ visit, refund }) => ({
        id: refund.id,
        order_id: visit.order!.id,
        amount_ore: refund.amountOre,
        reason: refund.reason,
        key: refund.key,
        provider_id: refund.providerId,
        ms: refund.ms,
      })),
    )} as r(id uuid, order_id uuid, amount_ore bigint, reason text, key text, provider_id text, ms bigint)
    join orders o on o.id = r.order_id
    join demo_clock c on c.id = o.session_id`);
  await tx.execute(sql`
    insert into refund_lines (refund_id, order_line_id, quantity, amount_ore)
    select l.refund_id, l.line_id, l.quantity, l.amount_ore
    from ${rowsOf(
      refunds.flatMap(({ refund }) =>
        refund.lines.map((l) => ({
          refund_id: refund.id,
          line_id: l.line.orderLineId,
          quantity: l.quantity,
          amount_ore: l.amountOre,
        })),
      ),
    )} as l(refund_id uuid, line_id uuid, quantity int, amount_ore bigint)`);
  await tx.execute(sql`
    update order_lines l set refunded_quantity = r.quantity, refunded_ore = r.amount_ore
    from (select order_line_id, sum(quantity)::int as quantity, sum(amount_ore) as amount_ore
          from refund_lines group by order_line_id) r
    where r.order_line_id = l.id`);
  await tx.execute(sql`
    update orders o set refunded_ore = r.amount_ore
    from (select order_id, sum(amount_ore) as amount_ore from refunds where state <> 'failed' group by order_id) r
    where r.order_id = o.id`);
  // The audit log's entry for each, as refund.create writes it; made before any admin existed, so by "system".
  await tx.execute(sql`
    insert into audit_log (occurred_at, actor_id, actor_email, action, entity_type, entity_id, store_id, summary, before, after)
    select ${at(sql`a.ms`)}, null, 'system', 'refund.create', 'refund', a.refund_id, o.store_id, a.summary,
      jsonb_build_object('order_id', o.id, 'refunded', 0), jsonb_build_object('order_id', o.id, 'refunded', a.amount, 'lines', a.lines)
    from ${rowsOf(
      refunds.map(({ visit, refund }) => ({
        refund_id: refund.id,
        order_id: visit.order!.id,
        ms: refund.ms,
        amount: fromOre(refund.amountOre),
        summary: `Refund of ${(refund.amountOre / 100).toFixed(2)} kr on receipt ${visit.order!.receiptNumber}: ${refund.reason}`,
        lines: refundLinesOf(refund),
      })),
    )} as a(refund_id text, order_id uuid, ms bigint, amount numeric, summary text, lines jsonb)
    join orders o on o.id = a.order_id
    join demo_clock c on c.id = o.session_id`);
}
