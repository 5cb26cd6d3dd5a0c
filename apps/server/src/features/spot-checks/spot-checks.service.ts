import type { SpotCheck, SpotCheckDecision, VatCategory } from "@glide/contracts";
import { type Db, queryRows, sql } from "../../db/client.ts";
import { conflict, forbidden, notFound } from "../../platform/errors.ts";
import { fromOre } from "../../platform/money.ts";
import { assertCanManageStore } from "../admin-auth/admin-auth.hooks.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";
import { recordAudit } from "../audit/audit.ts";
import { pantOreOf } from "../pant/pant.ts";
import type { ChargePort } from "../payments/charge.ts";
import { campaignPrice, shelfPriceOf } from "../pricing/shelf-price.ts";
import { createRefund, type RefundDeps } from "../refunds/refunds.service.ts";
import { recordSessionEvent } from "../sessions/session-events.ts";
import { saleVatRates, storeOfOrder } from "../vat-rates/vat-rate-table.ts";
import { addedValueOre, addLines, chargeAdded } from "./added-items.ts";
import { type Adjustments, type CheckRow, readCheck, view } from "./spot-check-list.ts";

/** What deciding a check needs: the refund service's, and the charge for items added. */
export type SpotCheckDeps = RefundDeps & {
  charges: ChargePort;
  /** When items added at the check are sold (their VAT rate's day): app.saleClock, the real time by default. */
  saleClock?: () => Date;
};

/**
 * PUT /api/v1/admin/spot-checks/:id/outcome. The decision is taken once: the
 * request's key claims the check in one statement before any money moves, so
 * two staff deciding at once cannot both adjust the order; the other is told
 * it was decided. The same request again answers the same (and finishes what
 * an interrupted one left: a refund, an extra charge the provider had not
 * answered). Items removed are refunded through the refund service; items
 * added become order lines charged apart on the saved card, added to the
 * order's total only once that charge went through.
 */
export async function decideSpotCheck(
  deps: SpotCheckDeps,
  opts: { actor: AdminActor; checkId: string; decision: SpotCheckDecision },
): Promise<SpotCheck> {
  const current = await readCheck(deps.db, opts.checkId);
  if (!current) throw notFound("Unknown spot check");
  if (current.store_id) assertCanManageStore(opts.actor, current.store_id);
  else if (opts.actor.role !== "platform_admin") throw forbidden("You do not manage this store");
  const key = opts.decision.idempotency_key;
  const mine = current.adjustments?.idempotency_key === key;
  if (current.outcome && !mine) throw alreadyDecided(current.outcome);
  if (!current.outcome && !current.order_id) throw conflict("This visit has no order to adjust", "no_order");
  // Money moves for both adjustments: without a provider (503) nothing is claimed or decided.
  if ((mine ? current.adjustments!.request : opts.decision).outcome !== "ok") deps.provider();
  const claimed = mine ? current.adjustments! : await claim(deps.db, current.id, opts.decision);
  if (claimed.idempotency_key !== key) {
    const [now] = await queryRows<{ outcome: CheckRow["outcome"] }>(
      deps.db,
      sql`select outcome from spot_checks where id = ${current.id}`,
    );
    throw now?.outcome
      ? alreadyDecided(now.outcome)
      : conflict(
          "Someone else is recording this spot check just now; reload to see their decision",
          "spot_check_decided",
        );
  }
  const decision = claimed.request;
  let decided: CheckRow;
  try {
    if (decision.outcome === "items_removed" && !current.refund_id)
      await removeItems(deps, opts.actor, current, decision);
    decided = await record(deps, opts.actor, current, decision);
  } catch (err) {
    // Nothing was adjusted: the check is free for this or another decision again.
    await release(deps.db, current.id, key).catch(() => {});
    throw err;
  }
  if (decision.outcome === "items_added" && decided.adjustments?.charge?.state === "pending")
    await chargeAdded(deps, decided);
  const after = (await readCheck(deps.db, opts.checkId))!;
  if (current.session_id && !current.outcome)
    await deps.announce({ store_id: current.store_id, session_id: current.session_id, kind: "spot_check_outcome" });
  return view(after);
}

const alreadyDecided = (outcome: NonNullable<CheckRow["outcome"]>) =>
  conflict(`This spot check was already decided (${outcome.replace("_", " ")})`, "spot_check_decided");

/** A claim that no request finished (its process stopped midway) is free again after this long, unless it moved money. */
export const SPOT_CHECK_CLAIM_MS = 2 * 60_000;

/**
 * Claims the undecided check for this request's key, in one statement; the
 * claim that holds afterwards (this one, or another request's) is answered.
 * A stale claim that moved no money is taken over.
 */
async function claim(db: Db, checkId: string, decision: SpotCheckDecision): Promise<Adjustments> {
  const adjustments: Adjustments = {
    idempotency_key: decision.idempotency_key,
    request: decision,
    claimed_at: new Date().toISOString(),
  };
  const [won] = await queryRows<{ adjustments: Adjustments }>(
    db,
    sql`update spot_checks k set adjustments = ${JSON.stringify(adjustments)}::jsonb
        where k.id = ${checkId} and k.outcome is null
          and (k.adjustments is null
               or (k.refund_id is null and (k.adjustments->>'claimed_at')::timestamptz < now() - ${SPOT_CHECK_CLAIM_MS}::float8 * interval '1 millisecond'
                   and not exists (select 1 from refunds r
                                   where r.idempotency_key in (k.adjustments->>'idempotency_key', (k.adjustments->>'idempotency_key') || ':spot_check'))))
        returning k.adjustments`,
  );
  if (won) return won.adjustments;
  const [held] = await queryRows<{ adjustments: Adjustments }>(
    db,
    sql`select adjustments from spot_checks where id = ${checkId}`,
  );
  return held!.adjustments;
}

/** Gives up this key's claim when nothing was recorded and no refund was made under it. */
async function release(db: Db, checkId: string, key: string): Promise<void> {
  await db.execute(
    sql`update spot_checks k set adjustments = null
        where k.id = ${checkId} and k.outcome is null and k.refund_id is null
          and k.adjustments->>'idempotency_key' = ${key}
          and not exists (select 1 from refunds r where r.idempotency_key in (${key}, ${`${key}:spot_check`}))`,
  );
}

/** The refund of the removed items, under a key of the check's own, so a repeated request refunds once. */
async function removeItems(deps: SpotCheckDeps, actor: AdminActor, check: CheckRow, decision: SpotCheckDecision) {
  const { refunds } = await createRefund(deps, {
    actor,
    orderId: check.order_id!,
    source: "spot_check",
    request: {
      idempotency_key: decision.idempotency_key,
      reason: decision.note?.trim() || "Items removed at a spot check",
      lines: decision.items_removed,
    },
  });
  // Removed items are cart lines (a check is decided once, so none was added at it): one refund.
  await deps.db.execute(sql`update spot_checks set refund_id = ${refunds[0]!.id} where id = ${check.id}`);
}

/** Writes the outcome once, with its event and audit entry; an earlier identical decision is kept as it is. */
async function record(deps: SpotCheckDeps, actor: AdminActor, check: CheckRow, decision: SpotCheckDecision) {
  await deps.db.transaction(async (tx) => {
    const [locked] = await queryRows<{ outcome: string | null; key: string | null }>(
      tx,
      sql`select outcome, adjustments->>'idempotency_key' as key from spot_checks where id = ${check.id} for update`,
    );
    if (locked?.outcome) return;
    // A claim this slow was taken over by another request: that one decides.
    if (locked?.key !== decision.idempotency_key)
      throw conflict(
        "Someone else is recording this spot check just now; reload to see their decision",
        "spot_check_decided",
      );
    const adjustments: Adjustments = {
      idempotency_key: decision.idempotency_key,
      request: decision,
      claimed_at: new Date().toISOString(),
    };
    let chargeOre: number | null = null;
    if (decision.outcome === "items_added") {
      const ids = (decision.items_added ?? []).map((item) => item.product_id);
      // Sold at the check: the store's price and campaigns, and the rate, of the store's day of the decision.
      const soldAt = deps.saleClock?.() ?? new Date();
      const storeOfCheck = sql`(select store_id from orders where id = ${check.order_id})`;
      // The shopper's membership today: a member's goods are sold at members' prices.
      const member = sql`coalesce((select c.member_since is not null from orders o join customers c on c.id = o.customer_id
        where o.id = ${check.order_id}), false)`;
      const shelf = shelfPriceOf("p", storeOfCheck, soldAt, member);
      const products = await queryRows<{
        id: string;
        name: string;
        price_ore: number;
        campaign_ore: number | null;
        pant_ore: number;
        vat_category: VatCategory;
      }>(
        tx,
        sql`select p.id, p.name, ${shelf.ordinary} as price_ore, ${shelf.campaign} as campaign_ore, p.vat_category,
              ${pantOreOf("p", storeOfCheck)} as pant_ore
            from products p
            where p.id in (select unnest(${`{${ids.join(",")}}`}::uuid[]))`,
      );
      const rateOf = await saleVatRates(tx, await storeOfOrder(tx, check.order_id!), soldAt);
      const byId = new Map(products.map((p) => [p.id, p]));
      adjustments.added = (decision.items_added ?? []).map((item) => {
        const product = byId.get(item.product_id);
        if (!product) throw notFound(`Unknown product ${item.product_id}`, "unknown_product");
        const { unitOre, ordinaryOre } = campaignPrice(product);
        return {
          product_id: product.id,
          name: product.name,
          quantity: item.quantity,
          unit_price_ore: unitOre,
          ordinary_unit_ore: ordinaryOre,
          pant_ore: product.pant_ore,
          vat_rate_bp: rateOf(product.vat_category),
        };
      });
      chargeOre = adjustments.added.reduce((sum, item) => sum + addedValueOre(item), 0);
      adjustments.charge = { state: chargeOre > 0 ? "pending" : "paid", failure_code: null };
      // Free items (0 kr) need no charge: they are on the receipt at once.
      if (chargeOre === 0) await addLines(tx, check.order_id!, adjustments.added);
    }
    await tx.execute(
      sql`update spot_checks set outcome = ${decision.outcome}, note = ${decision.note?.trim() || null},
            adjustments = ${JSON.stringify(adjustments)}::jsonb, charge_ore = ${chargeOre},
            decided_by = ${actor.id}, decided_at = now()
          where id = ${check.id}`,
    );
    if (check.session_id)
      await recordSessionEvent(tx, {
        sessionId: check.session_id,
        storeId: check.store_id,
        kind: "spot_check_outcome",
        source: "staff",
        adminId: actor.id,
        activity: false,
        detail: {
          spot_check_id: check.id,
          outcome: decision.outcome,
          charge: chargeOre === null ? null : fromOre(chargeOre),
        },
      });
    await recordAudit(tx, {
      actor,
      action: "spot_check.outcome",
      entityType: "spot_check",
      entityId: check.id,
      storeId: check.store_id,
      summary: `Spot check on receipt ${check.receipt_number ?? check.order_id}: ${decision.outcome.replace("_", " ")}`,
      before: { outcome: null },
      after: {
        outcome: decision.outcome,
        note: decision.note?.trim() || null,
        added: adjustments.added ?? null,
        removed: decision.items_removed ?? null,
      },
    });
  });
  return (await readCheck(deps.db, check.id))!;
}
