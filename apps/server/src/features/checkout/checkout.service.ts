import type { CheckoutResponse, Receipt } from "@glide/contracts";
import { type Db, queryRows, sql, type Tx } from "../../db/client.ts";
import { AppError, conflict, forbidden, notFound } from "../../platform/errors.ts";
import { fromOre } from "../../platform/money.ts";
import { checkAgeLimit } from "../cart/cart.service.ts";
import { receiptAfterwards } from "../refunds/receipt-refunds.ts";
import {
  type AnnounceSession,
  announceNothing,
  recordSessionEvent,
  type SessionChange,
  visitAbandoned,
} from "../sessions/session-events.ts";
import { enqueueReceiptMail } from "./receipt-mail.outbox.ts";
import { vatPerRate } from "./vat.ts";

/** What checkout needs of the payment provider: one charge, idempotent by its key. */
export interface ChargeRequest {
  /** The provider's customer and the card on file. */
  customer: string;
  paymentMethod: string;
  amountOre: number;
  /** The store's currency as stored ("SEK"). */
  currency: string;
  /** The same key is the same charge, however often it is sent. */
  idempotencyKey: string;
  description: string;
  metadata: Record<string, string>;
}

export type ChargeOutcome =
  | { kind: "paid"; intentId: string; brand: string | null; last4: string | null }
  | { kind: "declined"; code: string; intentId: string | null }
  /** No answer, or not a final one: the same key settles it later. */
  | { kind: "unavailable"; reason: string };

export interface ChargePort {
  charge(request: ChargeRequest): Promise<ChargeOutcome>;
}

/** A request that finds another one charging waits this long for it before taking over with the same key. */
export const CHARGE_LEASE_MS = 30_000;
const WAIT_STEP_MS = 100;

type SessionRow = {
  id: string;
  customer_id: string;
  store_id: string;
  checked_out_at: Date | null;
  abandoned_at: Date | null;
  timezone: string;
  birth_date: string;
  age_verification: boolean;
  store_name: string;
  legal_name: string | null;
  organization_number: string | null;
  address: string | null;
  postal_code: string | null;
  city: string | null;
  currency: string;
  payment_customer_id: string | null;
  payment_method_id: string | null;
};

type OrderRow = {
  id: string;
  session_id: string | null;
  state: "awaiting_payment" | "charging" | "unsettled" | "declined" | "paid";
  attempt: number;
  total_ore: number;
  currency: string;
  /** A Date from node-postgres, a string from some drivers: read through `new Date`. */
  charge_started_at: Date | string | null;
  payment_intent_id: string | null;
};

export const idempotencyKeyOf = (sessionId: string, attempt: number) => `checkout-${sessionId}-${attempt}`;

/** The shopper's latest visit that went through the door: the one the exit is about. */
async function latestVisit(db: Db | Tx, customerId: string, lock: boolean): Promise<SessionRow | undefined> {
  const [row] = await queryRows<SessionRow>(
    db,
    sql`select s.id, s.customer_id, s.store_id, s.checked_out_at, s.abandoned_at, st.timezone, c.birth_date::text as birth_date,
          exists (select 1 from store_modules m where m.store_id = s.store_id
                    and m.module_id = 'age_verification' and m.enabled) as age_verification,
          st.name as store_name, st.legal_name, st.organization_number, st.address, st.postal_code, st.city,
          st.currency, c.payment_customer_id, c.payment_method_id
        from shopping_sessions s
        join stores st on st.id = s.store_id
        join customers c on c.id = s.customer_id
        where s.customer_id = ${customerId} and s.door_opened_at is not null
        order by s.door_opened_at desc
        limit 1
        ${lock ? sql`for update of s` : sql``}`,
  );
  return row;
}

async function orderOf(db: Db | Tx, sessionId: string, lock = false): Promise<OrderRow | undefined> {
  const [row] = await queryRows<OrderRow>(
    db,
    sql`select id, session_id, state, attempt, total_ore, currency, charge_started_at, payment_intent_id
        from orders where session_id = ${sessionId} ${lock ? sql`for update` : sql``}`,
  );
  return row;
}

type CartLine = {
  product_id: string;
  name: string;
  quantity: number;
  unit_price_ore: number;
  weight_grams: number | null;
  vat_rate_bp: number;
  age_limit: number | null;
};

/** What the next step is, decided under the visit's row lock. */
type Plan =
  | { kind: "done"; response: CheckoutResponse; change?: SessionChange }
  /** resumed: an earlier request's charge got no answer (or its request died) and is asked again with its key. */
  | { kind: "charge"; order: OrderRow; session: SessionRow; resumed: boolean }
  | { kind: "wait"; orderId: string };

function storeAddress(session: SessionRow): string | null {
  const town = [session.postal_code, session.city].filter(Boolean).join(" ");
  const parts = [session.address, town].filter(Boolean);
  return parts.length ? parts.join(", ") : null;
}

/**
 * Under the visit's lock: an order already paid is answered as it is; one
 * being charged by another request is waited for; otherwise the cart becomes
 * the order (lines, VAT, totals), age limits are checked again, and this
 * request takes the charge.
 */
async function plan(db: Db, customerId: string, now: Date): Promise<Plan> {
  return db.transaction(async (tx) => {
    const session = await latestVisit(tx, customerId, true);
    if (!session) throw notFound("Du har inget pågående besök att betala för.", "no_visit");
    const order = await orderOf(tx, session.id, true);
    if (order?.state === "paid") return { kind: "done", response: await paidResponse(tx, order.id) };
    if (session.checked_out_at) return { kind: "done", response: { status: "empty", receipt: null } };
    // Closed by the abandoned sweep: the cart is kept for the record and never charged.
    if (session.abandoned_at) throw visitAbandoned();

    if (order && (order.state === "charging" || order.state === "unsettled")) {
      const leaseOver =
        order.state === "unsettled" ||
        !order.charge_started_at ||
        now.getTime() - new Date(order.charge_started_at).getTime() > CHARGE_LEASE_MS;
      if (!leaseOver) return { kind: "wait", orderId: order.id };
      // The same amount and the same key: a charge the provider already made is answered, not repeated.
      await tx.execute(sql`update orders set state = 'charging', charge_started_at = ${now} where id = ${order.id}`);
      return { kind: "charge", order: { ...order, state: "charging" }, session, resumed: true };
    }

    const lines = await queryRows<CartLine>(
      tx,
      sql`select i.product_id, p.name, i.quantity, i.unit_price_ore, i.weight_grams, p.vat_rate_bp, p.age_limit
          from cart_items i join products p on p.id = i.product_id
          where i.session_id = ${session.id}
          order by i.created_at, i.id`,
    );
    if (lines.length === 0) {
      // Nothing to pay: the visit ends, nothing is charged, no receipt.
      if (order) await tx.execute(sql`delete from orders where id = ${order.id}`);
      await tx.execute(sql`update shopping_sessions set checked_out_at = ${now} where id = ${session.id}`);
      await recordSessionEvent(tx, {
        sessionId: session.id,
        storeId: session.store_id,
        kind: "checkout",
        source: "system",
        detail: { amount: 0, empty: true },
      });
      return {
        kind: "done",
        response: { status: "empty", receipt: null },
        change: { store_id: session.store_id, session_id: session.id, kind: "checkout" },
      };
    }
    for (const line of lines) checkAgeLimit(session, line, now);
    if (!session.payment_customer_id || !session.payment_method_id)
      throw new AppError(
        409,
        "no_payment_method",
        "Du har inget betalkort sparat. Lägg till ett kort för att betala automatiskt.",
      );

    const totals = lines.map((line) => ({
      totalOre: line.unit_price_ore * line.quantity,
      vatRateBp: line.vat_rate_bp,
    }));
    const totalOre = totals.reduce((sum, line) => sum + line.totalOre, 0);
    const vatOre = vatPerRate(totals).reduce((sum, rate) => sum + rate.vatOre, 0);
    // A declined try is over at the provider: the next one is a new charge under a new key.
    const attempt = order ? order.attempt + (order.state === "declined" ? 1 : 0) : 1;
    const snapshot = {
      name: session.store_name,
      legal: session.legal_name,
      org: session.organization_number,
      address: storeAddress(session),
    };
    const [saved] = await queryRows<OrderRow>(
      tx,
      sql`insert into orders (session_id, customer_id, store_id, state, attempt, total_ore, vat_ore, currency,
            store_name, store_legal_name, store_organization_number, store_address, charge_started_at)
          values (${session.id}, ${session.customer_id}, ${session.store_id}, 'charging', ${attempt}, ${totalOre},
            ${vatOre}, ${session.currency}, ${snapshot.name}, ${snapshot.legal}, ${snapshot.org}, ${snapshot.address}, ${now})
          on conflict (session_id) do update set state = 'charging', attempt = excluded.attempt,
            total_ore = excluded.total_ore, vat_ore = excluded.vat_ore, currency = excluded.currency,
            store_name = excluded.store_name, store_legal_name = excluded.store_legal_name,
            store_organization_number = excluded.store_organization_number, store_address = excluded.store_address,
            charge_started_at = excluded.charge_started_at, failure_code = null
          returning id, session_id, state, attempt, total_ore, currency, charge_started_at, payment_intent_id`,
    );
    const orderId = saved!.id;
    await tx.execute(sql`delete from order_lines where order_id = ${orderId}`);
    await tx.execute(
      sql`insert into order_lines (order_id, position, product_id, name, quantity, unit_price_ore, vat_rate_bp, total_ore, weight_grams)
          select ${orderId}, l.position, l.product_id, l.name, l.quantity, l.unit_price_ore, l.vat_rate_bp,
                 l.quantity * l.unit_price_ore, l.weight_grams
          from jsonb_to_recordset(${JSON.stringify(lines.map((line, position) => ({ ...line, position })))}::jsonb)
            as l(position int, product_id uuid, name text, quantity int, unit_price_ore int, vat_rate_bp int, weight_grams int)`,
    );
    await recordSessionEvent(tx, {
      sessionId: session.id,
      storeId: session.store_id,
      kind: "checkout",
      source: "system",
      detail: { amount: fromOre(totalOre), attempt },
    });
    return { kind: "charge", order: saved!, session, resumed: false };
  });
}

/** Records the provider's answer; the first request to record a payment gives the receipt number. */
async function record(
  db: Db,
  charge: { order: OrderRow; sessionId: string; outcome: ChargeOutcome; resumed: boolean },
  now: Date,
): Promise<SessionChange | null> {
  const { order, sessionId, outcome } = charge;
  return db.transaction(async (tx) => {
    // Locks in the order plan() takes them, visit then order, so two requests never wait on each other in a circle.
    const [visit] = await queryRows<{ store_id: string }>(
      tx,
      sql`select store_id from shopping_sessions where id = ${sessionId} for update`,
    );
    const current = await orderOf(tx, sessionId, true);
    if (!current || current.id !== order.id || current.state === "paid") return null;
    let receiptNumber: number | null = null;
    if (outcome.kind === "paid") {
      const [counter] = await queryRows<{ last_number: number; store_id: string }>(
        tx,
        sql`insert into store_receipt_counters (store_id, last_number)
            select store_id, 1 from orders where id = ${order.id} and store_id is not null
            on conflict (store_id) do update set last_number = store_receipt_counters.last_number + 1
            returning last_number, store_id`,
      );
      receiptNumber = counter?.last_number ?? null;
      await tx.execute(
        sql`update orders set state = 'paid', receipt_number = ${receiptNumber}, paid_at = ${now},
              payment_intent_id = ${outcome.intentId}, card_brand = ${outcome.brand}, card_last4 = ${outcome.last4},
              failure_code = null, charge_started_at = null
            where id = ${order.id}`,
      );
      await tx.execute(sql`update shopping_sessions set checked_out_at = ${now} where id = ${sessionId}`);
      await enqueueReceiptMail(tx, order.id);
    } else if (outcome.kind === "declined") {
      await tx.execute(
        sql`update orders set state = 'declined', failure_code = ${outcome.code}, charge_started_at = null,
              payment_intent_id = coalesce(${outcome.intentId}, payment_intent_id)
            where id = ${order.id}`,
      );
    } else {
      await tx.execute(sql`update orders set state = 'unsettled', charge_started_at = null where id = ${order.id}`);
    }
    return recordChargeEvent(tx, {
      sessionId,
      storeId: visit?.store_id ?? null,
      order: current,
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
    order: OrderRow;
    outcome: ChargeOutcome;
    /** The receipt number the payment was just given. */
    receiptNumber: number | null;
    /** The charge was asked again after an earlier try got no answer. */
    settledLater: boolean;
  },
): Promise<SessionChange> {
  const { order, outcome } = opts;
  let kind: string;
  let detail: Record<string, unknown>;
  if (outcome.kind === "paid") {
    kind = "charged";
    // settled_later: the first try got no answer and a later one (the shopper's or the periodic job's) settled it.
    detail = {
      amount: fromOre(order.total_ore),
      receipt_number: opts.receiptNumber,
      settled_later: opts.settledLater,
    };
  } else if (outcome.kind === "declined") {
    kind = "charge_failed";
    detail = { amount: fromOre(order.total_ore), code: outcome.code };
  } else {
    kind = "unsettled";
    detail = { amount: fromOre(order.total_ore) };
  }
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

const declined = () =>
  new AppError(
    402,
    "payment_declined",
    "Betalningen nekades av din bank. Kontrollera kortet eller byt kort och försök igen.",
  );
const unavailable = () =>
  new AppError(
    503,
    "payment_unavailable",
    "Betalningen kunde inte slutföras just nu. Försök igen om en stund – du debiteras bara en gång.",
  );

/**
 * POST /api/v1/checkout: the open visit's cart becomes an order and is charged
 * once. Concurrent and repeated calls for one visit share one order, one
 * provider charge (one idempotency key) and answer the same receipt.
 */
export async function checkout(opts: {
  db: Db;
  payments: ChargePort;
  customerId: string;
  userId: string;
  now?: () => Date;
  announce?: AnnounceSession;
  /** Called once the charge this request made went through, before the answer (the spot-check draw). */
  afterPaid?: (visit: { sessionId: string; storeId: string }) => Promise<void>;
}): Promise<CheckoutResponse> {
  const now = opts.now ?? (() => new Date());
  const announce = opts.announce ?? announceNothing;
  if (opts.userId !== opts.customerId) throw forbidden("Du kan bara betala för ditt eget besök.");
  const deadline = Date.now() + CHARGE_LEASE_MS + 5_000;
  for (;;) {
    const next = await plan(opts.db, opts.customerId, now());
    if (next.kind === "done") {
      if (next.change) await announce(next.change);
      return next.response;
    }
    if (next.kind === "wait") {
      if (Date.now() > deadline) throw unavailable();
      await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
      continue;
    }
    const { order, session, resumed } = next;
    await announce({ store_id: session.store_id, session_id: session.id, kind: "checkout" });
    const outcome = await opts.payments.charge({
      customer: session.payment_customer_id!,
      paymentMethod: session.payment_method_id!,
      amountOre: order.total_ore,
      currency: order.currency,
      idempotencyKey: idempotencyKeyOf(session.id, order.attempt),
      description: `${session.store_name}, besök ${session.id}`,
      metadata: { order_id: order.id, session_id: session.id, store_id: session.store_id },
    });
    const change = await record(opts.db, { order, sessionId: session.id, outcome, resumed }, now());
    if (change) await announce(change);
    if (outcome.kind === "declined") throw declined();
    if (outcome.kind === "unavailable") throw unavailable();
    if (change && opts.afterPaid) await opts.afterPaid({ sessionId: session.id, storeId: session.store_id });
    const paid = await orderOf(opts.db, session.id);
    return paidResponse(opts.db, paid!.id);
  }
}

/**
 * Orders whose charge got no answer: asked again with the same key (the
 * provider answers the charge it made, or makes it once). Run by housekeeping.
 */
export async function settleUnsettled(opts: {
  db: Db;
  payments: ChargePort;
  now?: () => Date;
  announce?: AnnounceSession;
}): Promise<number> {
  const now = opts.now ?? (() => new Date());
  const stale = new Date(now().getTime() - CHARGE_LEASE_MS);
  const rows = await queryRows<{ customer_id: string }>(
    opts.db,
    sql`select customer_id from orders
        where customer_id is not null
          and (state = 'unsettled' or (state = 'charging' and charge_started_at < ${stale}))
        limit 100`,
  );
  let settled = 0;
  for (const row of rows) {
    try {
      const answer = await checkout({ ...opts, customerId: row.customer_id, userId: row.customer_id, now });
      if (answer.status === "paid") settled++;
    } catch {
      // Still no answer, or declined: the order says so; the shopper's next try or the next run goes on.
    }
  }
  return settled;
}

type ReceiptOrderRow = {
  id: string;
  receipt_number: number;
  store_name: string;
  store_legal_name: string | null;
  store_organization_number: string | null;
  store_address: string | null;
  paid_at: Date;
  total_ore: number;
  currency: string;
  card_brand: string | null;
  card_last4: string | null;
};

type ReceiptLineRow = {
  name: string;
  quantity: number;
  unit_price_ore: number;
  total_ore: number;
  vat_rate_bp: number;
  weight_grams: number | null;
};

export async function readReceipt(db: Db | Tx, orderId: string): Promise<Receipt | null> {
  const [order] = await queryRows<ReceiptOrderRow>(
    db,
    sql`select id, receipt_number, store_name, store_legal_name, store_organization_number, store_address,
          paid_at, total_ore, currency, card_brand, card_last4
        from orders where id = ${orderId} and state = 'paid'`,
  );
  if (!order) return null;
  const lines = await queryRows<ReceiptLineRow>(
    db,
    sql`select name, quantity, unit_price_ore, total_ore, vat_rate_bp, weight_grams
        from order_lines where order_id = ${orderId} order by position`,
  );
  return {
    id: order.id,
    number: order.receipt_number,
    store: {
      name: order.store_name,
      legal_name: order.store_legal_name,
      organization_number: order.store_organization_number,
      address: order.store_address,
    },
    paid_at: new Date(order.paid_at).toISOString(),
    items: lines.map((line) => ({
      name: line.name,
      quantity: line.quantity,
      unit_price: fromOre(line.unit_price_ore),
      total: fromOre(line.total_ore),
      vat_rate: line.vat_rate_bp / 10_000,
      weight_grams: line.weight_grams,
    })),
    total: fromOre(order.total_ore),
    vat: vatPerRate(lines.map((line) => ({ totalOre: line.total_ore, vatRateBp: line.vat_rate_bp }))).map((rate) => ({
      rate: rate.vatRateBp / 10_000,
      amount: fromOre(rate.vatOre),
      net: fromOre(rate.netOre),
      gross: fromOre(rate.grossOre),
    })),
    currency: order.currency,
    payment: order.card_brand && order.card_last4 ? { brand: order.card_brand, last4: order.card_last4 } : null,
    ...(await receiptAfterwards(db, [order.id])).get(order.id)!,
  };
}

async function paidResponse(db: Db | Tx, orderId: string): Promise<CheckoutResponse> {
  const receipt = await readReceipt(db, orderId);
  if (!receipt) throw conflict("Kvittot finns inte.", "no_receipt");
  return { status: "paid", receipt };
}
