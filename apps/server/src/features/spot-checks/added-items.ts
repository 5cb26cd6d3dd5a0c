import { type Db, queryRows, sql, type Tx } from "../../db/client.ts";
import { vatPerRate } from "../orders/vat.ts";
import { lineValueOre } from "../pant/pant.ts";
import type { ChargePort } from "../payments/charge.ts";
import type { Adjustments, CheckRow } from "./spot-check-list.ts";

/**
 * The extra charge for items added at the check, on the card on file, under
 * spotcheck-<id>; the new lines and the order's higher total and VAT are
 * written only when it went through. No transaction is open meanwhile.
 */
export async function chargeAdded(deps: { db: Db; charges: ChargePort }, check: CheckRow) {
  const [payer] = await queryRows<{
    payment_customer_id: string | null;
    payment_method_id: string | null;
    currency: string;
  }>(
    deps.db,
    sql`select c.payment_customer_id, c.payment_method_id, o.currency
        from orders o join customers c on c.id = o.customer_id where o.id = ${check.order_id}`,
  );
  const setCharge = (charge: Adjustments["charge"], intentId: string | null = null) =>
    sql`update spot_checks set adjustments = jsonb_set(adjustments, '{charge}', ${JSON.stringify(charge)}::jsonb),
          charge_intent_id = coalesce(${intentId}, charge_intent_id)
        where id = ${check.id}`;
  if (!payer?.payment_customer_id || !payer.payment_method_id) {
    await deps.db.execute(setCharge({ state: "declined", failure_code: "no_payment_method" }));
    return;
  }
  const outcome = await deps.charges.charge({
    customer: payer.payment_customer_id,
    paymentMethod: payer.payment_method_id,
    amountOre: check.charge_ore!,
    currency: payer.currency,
    idempotencyKey: `spotcheck-${check.id}`,
    description: `${check.store_name ?? "Butik"}, kontroll vid utgången`,
    metadata: { order_id: check.order_id!, spot_check_id: check.id },
  });
  if (outcome.kind === "unavailable") return;
  if (outcome.kind === "declined") {
    await deps.db.execute(setCharge({ state: "declined", failure_code: outcome.code }, outcome.intentId));
    return;
  }
  await deps.db.transaction(async (tx) => {
    const [locked] = await queryRows<{ adjustments: Adjustments }>(
      tx,
      sql`select adjustments from spot_checks where id = ${check.id} for update`,
    );
    if (locked?.adjustments.charge?.state !== "pending") return;
    await addLines(tx, check.order_id!, locked.adjustments.added ?? []);
    await tx.execute(setCharge({ state: "paid", failure_code: null }, outcome.intentId));
  });
}

/** What an item added at a check costs: its units' price and pant. */
export function addedValueOre(item: NonNullable<Adjustments["added"]>[number]): number {
  return (item.unit_price_ore + (item.pant_ore ?? 0)) * item.quantity;
}

/** Items added at a check become the order's lines (origin spot_check), its total and VAT rising by theirs. */
export async function addLines(tx: Tx, orderId: string, added: NonNullable<Adjustments["added"]>) {
  const [order] = await queryRows<{ id: string; next: number }>(
    tx,
    sql`select o.id, coalesce((select max(position) + 1 from order_lines where order_id = o.id), 0) as next
        from orders o where o.id = ${orderId} for update`,
  );
  await tx.execute(
    sql`insert into order_lines (order_id, position, product_id, name, quantity, unit_price_ore, pant_ore, vat_rate_bp,
          total_ore, origin, ordinary_unit_ore)
        select ${order!.id}, ${order!.next} + l.i, l.product_id, l.name, l.quantity, l.unit_price_ore, l.pant_ore,
               l.vat_rate_bp, ${lineValueOre("l")}, 'spot_check', l.ordinary_unit_ore
        from jsonb_to_recordset(${JSON.stringify(added.map((item, i) => ({ ...item, pant_ore: item.pant_ore ?? 0, i })))}::jsonb)
          as l(i int, product_id uuid, name text, quantity int, unit_price_ore int, pant_ore int, vat_rate_bp int,
            ordinary_unit_ore int)`,
  );
  const totalOre = added.reduce((sum, item) => sum + addedValueOre(item), 0);
  // VAT is rounded once per rate over the whole receipt, the added lines with the earlier ones of their rate:
  // adding the added lines' own rounded VAT would be off by an öre where a rate already had lines.
  const lines = await queryRows<{ total_ore: number; vat_rate_bp: number }>(
    tx,
    sql`select total_ore - discount_ore as total_ore, vat_rate_bp from order_lines where order_id = ${order!.id}`,
  );
  const vatOre = vatPerRate(lines.map((line) => ({ totalOre: line.total_ore, vatRateBp: line.vat_rate_bp }))).reduce(
    (sum, rate) => sum + rate.vatOre,
    0,
  );
  await tx.execute(
    sql`update orders set total_ore = total_ore + ${totalOre}, vat_ore = ${vatOre} where id = ${order!.id}`,
  );
}
