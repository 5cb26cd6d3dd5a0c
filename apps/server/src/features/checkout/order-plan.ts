import type { CheckoutResponse, VisitState } from "@glide/contracts";
import { type Db, queryRows, sql, type Tx } from "../../db/client.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import { fromOre } from "../../platform/money.ts";
import { checkAgeLimit } from "../cart/age-limit.ts";
import { paidResponse } from "../orders/receipt.ts";
import { enqueueReceiptMail } from "../orders/receipt-mail.outbox.ts";
import { lineValueOre } from "../pant/pant.ts";
import type { ChargeOutcome } from "../payments/charge.ts";
import { recordSessionEvent, type SessionChange } from "../sessions/session-events.ts";
import { type ChargeDetails, loadVisit, type Visit } from "../visits/visit-loader.ts";
import { mustTransition, transition } from "../visits/visit-state.ts";
import { moveVisit } from "../visits/visits.ts";
import { checkVouchers, priceOrder } from "./order-pricing.ts";

/** A request that finds another one charging waits this long for it before taking over with the same key. */
export const CHARGE_LEASE_MS = 30_000;

/** Who asks for a visit to be charged: its shopper (or the settling job), or staff for a visit left unpaid. */
export type ChargeEvent = "checkout" | "staff_charge";

/** The visit with what its charge needs: age limits are checked again, the receipt names the store. */
export type VisitToCharge = Visit<"age_verification"> & ChargeDetails;

export type OrderRow = {
  id: string;
  session_id: string | null;
  state: "awaiting_payment" | "charging" | "unsettled" | "declined" | "paid";
  attempt: number;
  total_ore: number;
  /** Paid with pant machine vouchers; the card pays the rest. */
  voucher_ore: number;
  currency: string;
  /** A Date from node-postgres, a string from some drivers: read through `new Date`. */
  charge_started_at: Date | string | null;
  payment_intent_id: string | null;
};

/** What the next step is, decided under the visit's row lock. */
export type Plan =
  | { kind: "done"; response: CheckoutResponse; change?: SessionChange }
  /** resumed: an earlier request's charge got no answer (or its request died) and is asked again with its key. */
  | {
      kind: "charge";
      order: OrderRow;
      visit: VisitToCharge & { payment_customer_id: string; payment_method_id: string };
      resumed: boolean;
    }
  | { kind: "wait"; orderId: string };

/** The visit with what its charge needs, locked FOR UPDATE: scans and line changes wait (cart/cart-visit.ts). */
function lockVisitToCharge(tx: Tx, sessionId: string): Promise<VisitToCharge | undefined> {
  return loadVisit(tx, { sessionId }, { lock: "update", modules: ["age_verification"], charge: true });
}

async function orderOf(db: Db | Tx, sessionId: string, lock = false): Promise<OrderRow | undefined> {
  const [row] = await queryRows<OrderRow>(
    db,
    sql`select id, session_id, state, attempt, total_ore, voucher_ore, currency, charge_started_at, payment_intent_id
        from orders where session_id = ${sessionId} ${lock ? sql`for update` : sql``}`,
  );
  return row;
}

function storeAddress(visit: VisitToCharge): string | null {
  const town = [visit.postal_code, visit.city].filter(Boolean).join(" ");
  const parts = [visit.address, town].filter(Boolean);
  return parts.length ? parts.join(", ") : null;
}

const noCard = () =>
  new AppError(
    409,
    "no_payment_method",
    "Du har inget betalkort sparat. Lägg till ett kort för att betala automatiskt.",
  );

/**
 * Under the visit's lock, the state machine decides: a paid or ended visit
 * is answered as it is; a charge under way is waited for (or taken over
 * after its lease); an empty cart ends the visit; otherwise the cart
 * becomes the order (lines, VAT, totals; age limits checked again for the
 * shopper's own checkout), the visit is charging (its cart frozen) and this
 * request takes the charge.
 */
export async function planCharge(
  db: Db,
  opts: { sessionId: string; event: "checkout" | "staff_charge"; now: Date },
): Promise<Plan> {
  const { now } = opts;
  return db.transaction(async (tx) => {
    const visit = await lockVisitToCharge(tx, opts.sessionId);
    if (!visit) throw notFound("Du har inget pågående besök att betala för.", "no_visit");
    const order = await orderOf(tx, visit.id, true);
    // A statement of its own, after the lock: its snapshot sees a scan that held the visit until just now.
    const [{ has_goods: hasGoods } = { has_goods: false }] = await queryRows<{ has_goods: boolean }>(
      tx,
      sql`select exists (select 1 from cart_items where session_id = ${visit.id}) as has_goods`,
    );
    const next = mustTransition(visit.state, opts.event, { hasGoods, gone: visit.gone });
    if (visit.state === "paid" && order) return { kind: "done", response: await paidResponse(tx, order.id) };
    if (visit.state !== "charging" && next.to === visit.state) return { kind: "done", response: emptyAnswer };

    if (next.wait) {
      // The request charging it holds a lease; once that is over (or the provider never answered), this one takes over.
      const started = order?.state === "charging" ? order.charge_started_at : null;
      if (order && started && now.getTime() - new Date(started).getTime() <= CHARGE_LEASE_MS)
        return { kind: "wait", orderId: order.id };
      // The same amount and the same key: a charge the provider already made is answered, not repeated.
      if (order && (order.state === "charging" || order.state === "unsettled")) {
        await tx.execute(sql`update orders set state = 'charging', charge_started_at = ${now} where id = ${order.id}`);
        return { kind: "charge", order: { ...order, state: "charging" }, visit: withCard(visit), resumed: true };
      }
    }

    if (next.to === "ended_empty") return endEmpty(tx, visit, order, now);
    if (opts.event === "checkout" && visit.state === "in_store") return makeOrder(tx, visit, order, now, true);
    return makeOrder(tx, visit, order, now, false);
  });
}

const emptyAnswer: CheckoutResponse = { status: "empty", receipt: null };

function withCard(visit: VisitToCharge) {
  if (!visit.payment_customer_id || !visit.payment_method_id) throw noCard();
  return { ...visit, payment_customer_id: visit.payment_customer_id, payment_method_id: visit.payment_method_id };
}

/** Nothing to pay: the visit ends, nothing is charged, no receipt. */
async function endEmpty(tx: Tx, visit: VisitToCharge, order: OrderRow | undefined, now: Date): Promise<Plan> {
  if (order) await tx.execute(sql`delete from orders where id = ${order.id}`);
  await moveVisit(tx, visit.id, "ended_empty", now);
  await recordSessionEvent(tx, {
    sessionId: visit.id,
    storeId: visit.store_id,
    kind: "checkout",
    source: "system",
    detail: { amount: 0, empty: true },
  });
  return {
    kind: "done",
    response: emptyAnswer,
    change: { store_id: visit.store_id, session_id: visit.id, kind: "checkout" },
  };
}

/**
 * The cart becomes the order, in öre summed as bigint; the visit is charging
 * from here on. Each line's VAT rate is the one valid on the store's calendar
 * day of this moment (the payment's), kept on the line so the receipt never
 * changes afterwards.
 */
async function makeOrder(
  tx: Tx,
  visit: VisitToCharge,
  order: OrderRow | undefined,
  now: Date,
  checkAge: boolean,
): Promise<Plan> {
  const { lines, priced, cart, totalOre, vatOre, voucherOre } = await priceOrder(tx, visit, now);
  if (checkAge) for (const line of lines) checkAgeLimit(visit, line, now);
  const charged = withCard(visit);
  checkVouchers(totalOre, voucherOre);
  // A declined try is over at the provider: the next one is a new charge under a new key.
  const attempt = order ? order.attempt + (order.state === "declined" ? 1 : 0) : 1;
  const [saved] = await queryRows<OrderRow>(
    tx,
    sql`insert into orders (session_id, customer_id, store_id, state, attempt, total_ore, vat_ore, voucher_ore, currency,
          store_name, store_legal_name, store_organization_number, store_address, charge_started_at)
        values (${visit.id}, ${visit.customer_id}, ${visit.store_id}, 'charging', ${attempt}, ${totalOre},
          ${vatOre}, ${voucherOre}, ${visit.currency}, ${visit.store_name}, ${visit.legal_name}, ${visit.organization_number},
          ${storeAddress(visit)}, ${now})
        on conflict (session_id) do update set state = 'charging', attempt = excluded.attempt,
          total_ore = excluded.total_ore, vat_ore = excluded.vat_ore, voucher_ore = excluded.voucher_ore, currency = excluded.currency,
          store_name = excluded.store_name, store_legal_name = excluded.store_legal_name,
          store_organization_number = excluded.store_organization_number, store_address = excluded.store_address,
          charge_started_at = excluded.charge_started_at, failure_code = null
        returning id, session_id, state, attempt, total_ore, voucher_ore, currency, charge_started_at, payment_intent_id`,
  );
  const orderId = saved!.id;
  await tx.execute(sql`delete from order_lines where order_id = ${orderId}`);
  await tx.execute(sql`delete from order_discounts where order_id = ${orderId}`);
  await tx.execute(
    sql`insert into order_lines (order_id, position, product_id, name, quantity, unit_price_ore, pant_ore, vat_rate_bp,
          total_ore, weight_grams, ordinary_unit_ore, discount_ore)
        select ${orderId}, l.position, l.product_id, l.name, l.quantity, l.unit_price_ore, l.pant_ore, l.vat_rate_bp,
               ${lineValueOre("l")}, l.weight_grams, l.ordinary_unit_ore, l.discount_ore
        from jsonb_to_recordset(${JSON.stringify(priced)}::jsonb)
          as l(position int, product_id uuid, name text, quantity int, unit_price_ore int, pant_ore int, vat_rate_bp int,
            weight_grams int, ordinary_unit_ore int, discount_ore bigint)`,
  );
  if (cart.discounts.length > 0)
    await tx.execute(
      sql`insert into order_discounts (order_id, position, offer_id, label, times, amount_ore)
          select ${orderId}, d.position, d.offer_id, d.label, d.times, d.amount_ore
          from jsonb_to_recordset(${JSON.stringify(cart.discounts.map((d, position) => ({ ...d, position })))}::jsonb)
            as d(position int, offer_id uuid, label text, times int, amount_ore bigint)`,
    );
  await tx.execute(sql`update pant_vouchers set order_id = ${orderId} where session_id = ${visit.id}`);
  await moveVisit(tx, visit.id, "charging", now);
  await recordSessionEvent(tx, {
    sessionId: visit.id,
    storeId: visit.store_id,
    kind: "checkout",
    source: "system",
    detail: { amount: fromOre(totalOre), attempt },
  });
  return { kind: "charge", order: saved!, visit: charged, resumed: false };
}

/**
 * Records the provider's answer and moves the visit as the state machine
 * says: paid (the first request to record it gives the receipt number),
 * declined (back in the store with its cart open, or left unpaid if the
 * shopper has gone), or no answer (still charging, settled later).
 */
export async function recordCharge(
  db: Db,
  charge: {
    order: OrderRow;
    sessionId: string;
    outcome: ChargeOutcome;
    resumed: boolean;
    /** Queue the receipt e-mail (a mail server is set up). */
    mailReceipt: boolean;
  },
  now: Date,
): Promise<SessionChange | null> {
  const { order, sessionId, outcome } = charge;
  return db.transaction(async (tx) => {
    // Locks in the order planCharge takes them, visit then order, so two requests never wait on each other in a circle.
    const [visit] = await queryRows<{ store_id: string; state: VisitState; gone: boolean }>(
      tx,
      sql`select store_id, state, (exited_at is not null or abandoned_at is not null) as gone
          from shopping_sessions where id = ${sessionId} for update`,
    );
    const current = await orderOf(tx, sessionId, true);
    if (!current || current.id !== order.id || current.state === "paid") return null;
    const event = outcome.kind === "paid" ? "paid" : outcome.kind === "declined" ? "declined" : "no_answer";
    const next = visit ? transition(visit.state, event, { hasGoods: true, gone: visit.gone }) : null;
    let receiptNumber: number | null = null;
    if (outcome.kind === "paid") {
      const [counter] = await queryRows<{ last_number: number }>(
        tx,
        sql`insert into store_receipt_counters (store_id, last_number)
            select store_id, 1 from orders where id = ${order.id} and store_id is not null
            on conflict (store_id) do update set last_number = store_receipt_counters.last_number + 1
            returning last_number`,
      );
      receiptNumber = counter?.last_number ?? null;
      await tx.execute(
        sql`update orders set state = 'paid', receipt_number = ${receiptNumber}, paid_at = ${now},
              payment_intent_id = ${outcome.intentId}, card_brand = ${outcome.brand}, card_last4 = ${outcome.last4},
              failure_code = null, charge_started_at = null
            where id = ${order.id}`,
      );
      if (charge.mailReceipt) await enqueueReceiptMail(tx, order.id);
    } else if (outcome.kind === "declined") {
      await tx.execute(
        sql`update orders set state = 'declined', failure_code = ${outcome.code}, charge_started_at = null,
              payment_intent_id = coalesce(${outcome.intentId}, payment_intent_id)
            where id = ${order.id}`,
      );
    } else {
      await tx.execute(sql`update orders set state = 'unsettled', charge_started_at = null where id = ${order.id}`);
    }
    if (next?.ok) await moveVisit(tx, sessionId, next.to, now);
    return recordChargeEvent(tx, {
      sessionId,
      storeId: visit?.store_id ?? null,
      totalOre: current.total_ore,
      outcome,
      receiptNumber,
      settledLater: charge.resumed,
    });
  });
}

/** The provider's answer, once recorded, on the visit's timeline: charged (with the receipt number), charge_failed or unsettled. */
async function recordChargeEvent(
  tx: Tx,
  opts: {
    sessionId: string;
    storeId: string | null;
    totalOre: number;
    outcome: ChargeOutcome;
    /** The receipt number the payment was just given. */
    receiptNumber: number | null;
    /** The charge was asked again after an earlier try got no answer. */
    settledLater: boolean;
  },
): Promise<SessionChange> {
  const { outcome } = opts;
  const amount = fromOre(opts.totalOre);
  const [kind, detail]: [string, Record<string, unknown>] =
    outcome.kind === "paid"
      ? // settled_later: the first try got no answer and a later one (the shopper's or the periodic job's) settled it.
        ["charged", { amount, receipt_number: opts.receiptNumber, settled_later: opts.settledLater }]
      : outcome.kind === "declined"
        ? ["charge_failed", { amount, code: outcome.code }]
        : ["unsettled", { amount }];
  // The provider's answer is not the shopper's doing: it does not keep the visit from being called abandoned.
  await recordSessionEvent(tx, {
    sessionId: opts.sessionId,
    storeId: opts.storeId,
    kind,
    source: "system",
    detail,
    activity: false,
  });
  return { store_id: opts.storeId, session_id: opts.sessionId, kind };
}
