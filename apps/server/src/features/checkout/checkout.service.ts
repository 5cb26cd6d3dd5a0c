import type { CheckoutResponse } from "@glide/contracts";
import { type Db, queryRows, sql } from "../../db/client.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import { singleFlight } from "../../platform/single-flight.ts";
import { paidResponse } from "../orders/receipt.ts";
import { type ChargePort, type ChargeRequest, idempotencyKeyOf } from "../payments/charge.ts";
import { type AnnounceSession, announceNothing } from "../sessions/session-events.ts";
import { latestVisit, owingVisits } from "../visits/visits.ts";
import { CHARGE_LEASE_MS, type ChargeEvent, type OrderRow, planCharge, recordCharge } from "./order-plan.ts";

const WAIT_STEP_MS = 100;

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

export type ChargeVisitOptions = {
  db: Db;
  payments: ChargePort;
  now?: () => Date;
  announce?: AnnounceSession;
  /** Queue the receipt e-mail of a paid order: true where a mail server is set up (app.receiptMails.sends). */
  mailReceipts?: boolean;
  /** Called once the charge this request made went through, before the answer (the spot-check draw). */
  afterPaid?: (visit: { sessionId: string; storeId: string }) => Promise<void>;
};

/**
 * One visit's order, charged exactly once: the shopper's checkout, staff
 * charging a visit left unpaid, and the job that settles charges the
 * provider did not answer all come here. Concurrent and repeated calls for a
 * visit share one order and one provider charge (one idempotency key), and
 * answer the same receipt.
 */
export async function chargeVisit(
  opts: ChargeVisitOptions & { sessionId: string; event: ChargeEvent },
): Promise<CheckoutResponse> {
  const now = opts.now ?? (() => new Date());
  const announce = opts.announce ?? announceNothing;
  const deadline = Date.now() + CHARGE_LEASE_MS + 5_000;
  for (;;) {
    const next = await planCharge(opts.db, { sessionId: opts.sessionId, event: opts.event, now: now() });
    if (next.kind === "done") {
      if (next.change) await announce(next.change);
      return next.response;
    }
    if (next.kind === "wait") {
      if (Date.now() > deadline) throw unavailable();
      await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
      continue;
    }
    const { order, visit, resumed } = next;
    await announce({ store_id: visit.store_id, session_id: visit.id, kind: "checkout" });
    const outcome = await opts.payments.charge(chargeRequestOf(order, visit));
    const change = await recordCharge(
      opts.db,
      { order, sessionId: visit.id, outcome, resumed, mailReceipt: opts.mailReceipts ?? false },
      now(),
    );
    if (change) await announce(change);
    if (outcome.kind === "declined") throw declined();
    if (outcome.kind === "unavailable") throw unavailable();
    if (change && opts.afterPaid) await opts.afterPaid({ sessionId: visit.id, storeId: visit.store_id });
    return paidResponse(opts.db, order.id);
  }
}

function chargeRequestOf(
  order: OrderRow,
  visit: { id: string; store_id: string; store_name: string; payment_customer_id: string; payment_method_id: string },
): ChargeRequest {
  return {
    customer: visit.payment_customer_id,
    paymentMethod: visit.payment_method_id,
    // Pant machine vouchers paid the rest.
    amountOre: order.total_ore - order.voucher_ore,
    currency: order.currency,
    idempotencyKey: idempotencyKeyOf(visit.id, order.attempt),
    description: `${visit.store_name}, besök ${visit.id}`,
    metadata: { order_id: order.id, session_id: visit.id, store_id: visit.store_id },
  };
}

/** One checkout per shopper at a time in an instance: 1,000 duplicates share one run and one connection. */
const inFlight = singleFlight<CheckoutResponse>();

/**
 * POST /api/v1/checkout, the exit gate and the face check's payment: every
 * visit the shopper owes is settled (open ones in any store, and those left
 * unpaid), each its own order and charge. The answer is about the visit the
 * exit is about; if any charge fails, the shopper hears that one and the
 * gate stays shut.
 */
export async function checkout(opts: ChargeVisitOptions & { customerId: string }): Promise<CheckoutResponse> {
  return inFlight(opts.db, opts.customerId, async () => {
    const exit = await latestVisit(opts.db, opts.customerId);
    if (!exit) throw notFound("Du har inget pågående besök att betala för.", "no_visit");
    const owing = await owingVisits(opts.db, opts.customerId);
    // Nothing owed: the last visit is answered as it ended (a repeated checkout, an empty cart).
    if (owing.length === 0) return chargeVisit({ ...opts, sessionId: exit.id, event: "checkout" });
    const answers = new Map<string, CheckoutResponse>();
    let failure: unknown = null;
    for (const visit of owing) {
      try {
        answers.set(visit.id, await chargeVisit({ ...opts, sessionId: visit.id, event: "checkout" }));
      } catch (err) {
        failure ??= err;
      }
    }
    if (failure) throw failure;
    // The exit's own receipt; when it had nothing to pay, the receipt of what else was just paid.
    const paid = [...answers.values()].filter((answer) => answer.status === "paid");
    const own = answers.get(exit.id);
    return own?.status === "paid" ? own : (paid.at(-1) ?? own ?? [...answers.values()].at(-1)!);
  });
}

/**
 * Charges the provider did not answer (or whose request died): asked again
 * with the same key, so the provider answers the charge it made, or makes it
 * once. Run by housekeeping on every instance; the visit's lock lets one ask.
 */
export async function settleUnsettled(opts: ChargeVisitOptions): Promise<number> {
  const now = opts.now ?? (() => new Date());
  const stale = new Date(now().getTime() - CHARGE_LEASE_MS);
  const rows = await queryRows<{ session_id: string }>(
    opts.db,
    sql`select session_id from orders
        where session_id is not null
          and (state = 'unsettled' or (state = 'charging' and charge_started_at < ${stale}))
        limit 100`,
  );
  let settled = 0;
  for (const row of rows) {
    try {
      const answer = await chargeVisit({ ...opts, sessionId: row.session_id, event: "checkout", now });
      if (answer.status === "paid") settled++;
    } catch {
      // Still no answer, or declined: the order says so; the shopper's next try or the next run goes on.
    }
  }
  return settled;
}
