import type { SpotCheck, SpotCheckDecision } from "@glide/contracts";
import { type Db, queryRows, sql, type Tx } from "../../db/client.ts";
import { conflict, forbidden, notFound } from "../../platform/errors.ts";
import { fromOre } from "../../platform/money.ts";
import { assertCanManageStore } from "../admin-auth/admin-auth.hooks.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";
import { recordAudit } from "../audit/audit.ts";
import type { ChargePort } from "../checkout/charge.ts";
import { vatPerRate } from "../checkout/vat.ts";
import { storeScope } from "../refunds/disputes.service.ts";
import { createRefund, type RefundDeps } from "../refunds/refunds.service.ts";
import { type AnnounceSession, recordSessionEvent } from "../sessions/session-events.ts";

/**
 * Whether an exit is picked for a staff check: with probability `share`
 * (0–0.2, the store's setting), never on the shopper's first visit to the
 * store. `draw` is uniform in [0, 1).
 */
export function pickForSpotCheck(share: number, firstVisit: boolean, draw: number): boolean {
  return !firstVisit && share > 0 && draw < share;
}

let draw: () => number = Math.random;
/** Tests seed the draws; the returned function puts Math.random back. */
export function useSpotCheckRandom(random: () => number): () => void {
  draw = random;
  return () => {
    draw = Math.random;
  };
}

/**
 * After a paid exit, at the gate or paid from the phone (a face check, or
 * "Kunde inte scanna? Tryck här"): the visit's one draw, taken by whichever
 * exit comes first, so neither a repeated gate read nor paying again gives a
 * second chance. Picked with the store's share, never on the shopper's first
 * visit to the store. True when the visit was flagged.
 */
export async function flagAtExit(opts: {
  db: Db;
  announce: AnnounceSession;
  sessionId: string;
  storeId: string;
  customerId: string;
  /** Read before any transaction: store/spot_check_share. */
  share: number;
}): Promise<boolean> {
  if (opts.share <= 0) return false;
  const [visit] = await queryRows<{ earlier: boolean }>(
    opts.db,
    sql`update shopping_sessions set spot_check_drawn_at = now()
        where id = ${opts.sessionId} and spot_check_drawn_at is null
        returning exists (select 1 from shopping_sessions s where s.customer_id = ${opts.customerId}
                            and s.store_id = ${opts.storeId} and s.id <> ${opts.sessionId}
                            and s.checked_out_at is not null) as earlier`,
  );
  if (!visit) return false;
  if (!pickForSpotCheck(opts.share, !visit.earlier, draw())) return false;
  const flagged = await opts.db.transaction(async (tx) => {
    const rows = await queryRows<{ id: string }>(
      tx,
      sql`insert into spot_checks (session_id, order_id, store_id, customer_id)
          select ${opts.sessionId}, (select id from orders where session_id = ${opts.sessionId}), ${opts.storeId}, ${opts.customerId}
          on conflict (session_id) do nothing returning id`,
    );
    if (rows.length === 0) return false;
    await recordSessionEvent(tx, {
      sessionId: opts.sessionId,
      storeId: opts.storeId,
      kind: "spot_check_flagged",
      source: "system",
      activity: false,
      detail: { spot_check_id: rows[0]!.id },
    });
    return true;
  });
  if (flagged) await opts.announce({ store_id: opts.storeId, session_id: opts.sessionId, kind: "spot_check_flagged" });
  return flagged;
}

/** What the exit page tells a shopper whose visit was picked (GET /api/v1/exit/status). */
export const SPOT_CHECK_NOTICE = "Personalen gör en snabb kontroll vid utgången.";

/** The notice while the visit's check is waiting for staff; null when it was not picked or is decided. */
export async function spotCheckNotice(db: Db, sessionId: string): Promise<string | null> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select id from spot_checks where session_id = ${sessionId} and outcome is null`,
  );
  return rows.length > 0 ? SPOT_CHECK_NOTICE : null;
}

type CheckRow = {
  id: string;
  session_id: string | null;
  order_id: string | null;
  store_id: string | null;
  store_name: string | null;
  receipt_number: number | null;
  customer_name: string | null;
  flagged_at: Date | string;
  outcome: SpotCheck["outcome"];
  note: string | null;
  decided_at: Date | string | null;
  adjustments: Adjustments | null;
  charge_ore: number | null;
  refund_id: string | null;
  lines: Array<{
    id: string;
    name: string;
    quantity: number;
    total_ore: number;
    refunded_quantity: number;
    origin: string;
  }>;
};

/** What staff decided, kept with the check: the request's key, and the extra charge's progress. */
type Adjustments = {
  idempotency_key: string;
  request: SpotCheckDecision;
  /** When the request claimed the check (before any money moved). */
  claimed_at?: string;
  added?: Array<{ product_id: string; name: string; quantity: number; unit_price_ore: number; vat_rate_bp: number }>;
  charge?: { state: "pending" | "paid" | "declined"; failure_code: string | null };
};

const SELECT = sql`select k.id, k.session_id, k.order_id, k.store_id, o.store_name, o.receipt_number,
    c.name as customer_name, k.flagged_at, k.outcome, k.note, k.decided_at, k.adjustments, k.charge_ore, k.refund_id,
    coalesce((select json_agg(json_build_object('id', l.id, 'name', l.name, 'quantity', l.quantity,
                'total_ore', l.total_ore, 'refunded_quantity', l.refunded_quantity, 'origin', l.origin) order by l.position)
              from order_lines l where l.order_id = k.order_id), '[]'::json) as lines
  from spot_checks k left join orders o on o.id = k.order_id left join customers c on c.id = k.customer_id`;

function view(row: CheckRow): SpotCheck {
  const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());
  return {
    id: row.id,
    session_id: row.session_id,
    order_id: row.order_id,
    store_id: row.store_id,
    store_name: row.store_name,
    receipt_number: row.receipt_number,
    customer_name: row.customer_name,
    flagged_at: iso(row.flagged_at)!,
    outcome: row.outcome,
    note: row.note,
    decided_at: iso(row.decided_at),
    charge:
      row.charge_ore !== null && row.adjustments?.charge
        ? {
            amount: fromOre(row.charge_ore),
            state: row.adjustments.charge.state,
            failure_code: row.adjustments.charge.failure_code,
          }
        : null,
    refund_id: row.refund_id,
    lines: row.lines.map((line) => ({
      id: line.id,
      name: line.name,
      quantity: line.quantity,
      total: fromOre(line.total_ore),
      refunded_quantity: line.refunded_quantity,
      origin: line.origin,
    })),
  };
}

/** GET /api/v1/admin/spot-checks: pending ones (oldest first, to be seen to) or decided ones (newest first). */
export async function listSpotChecks(opts: {
  db: Db;
  actor: AdminActor;
  query: { store_id?: string; state?: "pending" | "decided"; limit: number; offset: number };
}): Promise<{ items: SpotCheck[]; total: number }> {
  const state =
    opts.query.state === "pending"
      ? sql`k.outcome is null`
      : opts.query.state === "decided"
        ? sql`k.outcome is not null`
        : sql`true`;
  const where = sql`${storeScope(opts.actor, opts.query.store_id, sql.raw("k.store_id"))} and ${state}`;
  const [count] = await queryRows<{ n: number }>(
    opts.db,
    sql`select count(*)::int as n from spot_checks k where ${where}`,
  );
  const order = opts.query.state === "pending" ? sql`k.flagged_at asc` : sql`coalesce(k.decided_at, k.flagged_at) desc`;
  const rows = await queryRows<CheckRow>(
    opts.db,
    sql`${SELECT} where ${where} order by ${order}, k.id limit ${opts.query.limit} offset ${opts.query.offset}`,
  );
  return { items: rows.map(view), total: count!.n };
}

async function readCheck(db: Db, id: string): Promise<CheckRow | undefined> {
  const [row] = await queryRows<CheckRow>(db, sql`${SELECT} where k.id = ${id}`);
  return row;
}

export type SpotCheckDeps = RefundDeps & { charges: ChargePort };

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
      const products = await queryRows<{ id: string; name: string; price_ore: number; vat_rate_bp: number }>(
        tx,
        sql`select id, name, price_ore, vat_rate_bp from products
            where id in (select unnest(${`{${ids.join(",")}}`}::uuid[]))`,
      );
      const byId = new Map(products.map((p) => [p.id, p]));
      adjustments.added = (decision.items_added ?? []).map((item) => {
        const product = byId.get(item.product_id);
        if (!product) throw notFound(`Unknown product ${item.product_id}`, "unknown_product");
        return {
          product_id: product.id,
          name: product.name,
          quantity: item.quantity,
          unit_price_ore: product.price_ore,
          vat_rate_bp: product.vat_rate_bp,
        };
      });
      chargeOre = adjustments.added.reduce((sum, item) => sum + item.unit_price_ore * item.quantity, 0);
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

/**
 * The extra charge for items added at the check, on the card on file, under
 * spotcheck-<id>; the new lines and the order's higher total and VAT are
 * written only when it went through. No transaction is open meanwhile.
 */
async function chargeAdded(deps: SpotCheckDeps, check: CheckRow) {
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

/** Items added at a check become the order's lines (origin spot_check), its total and VAT rising by theirs. */
async function addLines(tx: Tx, orderId: string, added: NonNullable<Adjustments["added"]>) {
  const [order] = await queryRows<{ id: string; next: number }>(
    tx,
    sql`select o.id, coalesce((select max(position) + 1 from order_lines where order_id = o.id), 0) as next
        from orders o where o.id = ${orderId} for update`,
  );
  await tx.execute(
    sql`insert into order_lines (order_id, position, product_id, name, quantity, unit_price_ore, vat_rate_bp, total_ore, origin)
        select ${order!.id}, ${order!.next} + l.i, l.product_id, l.name, l.quantity, l.unit_price_ore, l.vat_rate_bp,
               l.quantity::bigint * l.unit_price_ore, 'spot_check'
        from jsonb_to_recordset(${JSON.stringify(added.map((item, i) => ({ ...item, i })))}::jsonb)
          as l(i int, product_id uuid, name text, quantity int, unit_price_ore int, vat_rate_bp int)`,
  );
  const totalOre = added.reduce((sum, item) => sum + item.unit_price_ore * item.quantity, 0);
  // VAT is rounded once per rate over the whole receipt, the added lines with the earlier ones of their rate:
  // adding the added lines' own rounded VAT would be off by an öre where a rate already had lines.
  const lines = await queryRows<{ total_ore: number; vat_rate_bp: number }>(
    tx,
    sql`select total_ore, vat_rate_bp from order_lines where order_id = ${order!.id}`,
  );
  const vatOre = vatPerRate(lines.map((line) => ({ totalOre: line.total_ore, vatRateBp: line.vat_rate_bp }))).reduce(
    (sum, rate) => sum + rate.vatOre,
    0,
  );
  await tx.execute(
    sql`update orders set total_ore = total_ore + ${totalOre}, vat_ore = ${vatOre} where id = ${order!.id}`,
  );
}
