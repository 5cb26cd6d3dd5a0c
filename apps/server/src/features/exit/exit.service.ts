import type { CheckoutResponse, Receipt } from "@glide/contracts";
import type { FastifyBaseLogger } from "fastify";
import { type Db, queryRows, sql } from "../../db/client.ts";
import { AppError, conflict, forbidden, isUniqueViolation, notFound, safeError } from "../../platform/errors.ts";
import { type ChargeVisitOptions, checkout } from "../checkout/checkout.service.ts";
import { readReceipt } from "../orders/receipt.ts";
import type { ChargePort } from "../payments/charge.ts";
import { cartTotals } from "../pricing/cart-offers.ts";
import { type AnnounceSession, announceNothing, recordSessionEvent } from "../sessions/session-events.ts";
import { flagAtExit, spotCheckNotice } from "../spot-checks/exit-draw.ts";
import { OWING_STATES } from "../visits/visit-state.ts";
import { type LatestVisit, latestVisit } from "../visits/visits.ts";
import { type ExitClaims, signExitToken, verifyExitToken } from "./exit-token.ts";

/**
 * The exit QR code for the shopper's visit in the store: the open one (or
 * one the sweep closed while its shopper was still inside, which the gate
 * then charges).
 */
export async function issueExitToken(db: Db, key: Buffer, customerId: string, now = new Date()) {
  const visit = await latestVisit(db, customerId);
  if (!visit || !OWING_STATES.includes(visit.state)) throw notFound("Du har inget pågående besök.", "no_visit");
  const { token, claims } = signExitToken(key, { sessionId: visit.id, storeId: visit.store_id }, now);
  return { token, session_id: visit.id, expires_at: new Date(claims.expiresAt * 1000).toISOString() };
}

export type GateAnswer = {
  gate_opened: boolean;
  /** paid: charged; empty: nothing to pay; pending: the provider did not answer, the charge is settled later. */
  status: "paid" | "empty" | "pending";
  receipt_number: number | null;
};

/**
 * The exit gate read a shopper's exit code: the code must be this store's,
 * unexpired and unspent; every visit the shopper owes is paid (once, however
 * many gates or phones ask), and the gate opens. A declined card, or any
 * visit with goods that cannot be paid, keeps it shut: nothing leaves unpaid.
 */
type GateOptions = {
  db: Db;
  key: Buffer;
  payments: ChargePort;
  /** Queue the receipt e-mail of what the gate charges (a mail server is set up). */
  mailReceipts?: boolean;
  gateStoreId: string;
  token: string;
  openGate: (visit: { storeId: string; sessionId: string }) => Promise<void>;
  now?: Date;
  /** When the charge prices the order (app.saleClock). */
  saleClock?: () => Date;
  announce?: AnnounceSession;
  /** The store's store/spot_check_share, read before any transaction; none: no spot checks. */
  spotCheckShare?: number;
  log?: Pick<FastifyBaseLogger, "warn">;
};

export async function scanAtGate(opts: GateOptions): Promise<GateAnswer> {
  const announce = opts.announce ?? announceNothing;
  const checked = verifyExitToken(opts.key, opts.token, opts.now);
  if (!checked.ok) {
    if (checked.reason === "expired") throw new AppError(410, "exit_code_expired", "The exit code has expired");
    throw new AppError(400, "invalid_exit_code", "Not an exit code of this system");
  }
  const { claims } = checked;
  const [visit] = await queryRows<{ id: string; store_id: string; customer_id: string }>(
    opts.db,
    sql`select id, store_id, customer_id from shopping_sessions where id = ${claims.sessionId}`,
  );
  if (!visit) {
    if (claims.storeId !== opts.gateStoreId) throw forbidden("The exit code is for another store", "wrong_store");
    throw notFound("The visit no longer exists", "unknown_session");
  }
  try {
    return await passGate(opts, claims, visit, announce);
  } catch (err) {
    // A refusal of a real code is on the visit's timeline, with its code, so staff see why the gate stayed shut.
    if (err instanceof AppError) await recordRefusal(opts, visit, err.code, announce);
    throw err;
  }
}

/** The gate's refusal on the visit's timeline; the gate still answers it if it cannot be written. */
async function recordRefusal(
  opts: Pick<GateOptions, "db" | "log">,
  visit: { id: string; store_id: string },
  code: string,
  announce: AnnounceSession,
): Promise<void> {
  try {
    await opts.db.transaction(async (tx) => {
      await recordSessionEvent(tx, {
        sessionId: visit.id,
        storeId: visit.store_id,
        kind: "exit_refused",
        source: "exit_gate",
        detail: { code },
      });
    });
  } catch (err) {
    opts.log?.warn({ err: safeError(err), code }, "could not record the exit gate's refusal");
    return;
  }
  await announce({ store_id: visit.store_id, session_id: visit.id, kind: "exit_refused" });
}

/** The checks and the payment once the code is known to be a real one of a visit that exists. */
async function passGate(
  opts: GateOptions,
  claims: ExitClaims,
  visit: { id: string; store_id: string; customer_id: string },
  announce: AnnounceSession,
): Promise<GateAnswer> {
  if (claims.storeId !== opts.gateStoreId) throw forbidden("The exit code is for another store", "wrong_store");
  const latest = await latestVisit(opts.db, visit.customer_id);
  if (latest?.id !== visit.id) throw conflict("The exit code is for an earlier visit", "stale_exit_code");
  try {
    await opts.db.transaction(async (tx) => {
      await tx.execute(sql`insert into exit_token_uses (nonce, session_id) values (${claims.nonce}, ${visit.id})`);
      await recordSessionEvent(tx, {
        sessionId: visit.id,
        storeId: visit.store_id,
        kind: "exit_qr",
        source: "exit_gate",
      });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict("The exit code has already been used", "exit_code_used");
    throw err;
  }

  return leaveAndPay(opts, visit, "exit_qr", announce);
}

/** What the exit needs to charge a visit and open its gate, whichever way the shopper was known there. */
export type GateExit = Pick<
  GateOptions,
  "db" | "payments" | "mailReceipts" | "openGate" | "saleClock" | "spotCheckShare" | "log"
>;

/**
 * Through the exit: every visit the shopper owes is paid (once), the visit is
 * marked gone, it is drawn for a staff check, and the gate opens. A declined
 * card (or any refusal of the charge) keeps the gate shut and is thrown.
 */
export async function leaveAndPay(
  opts: GateExit,
  visit: { id: string; store_id: string; customer_id: string },
  kind: "exit_qr" | "face_check",
  announce: AnnounceSession,
): Promise<GateAnswer> {
  let answer: GateAnswer;
  try {
    const paid = await checkout({
      db: opts.db,
      payments: opts.payments,
      mailReceipts: opts.mailReceipts,
      customerId: visit.customer_id,
      announce,
      now: opts.saleClock,
    });
    answer = { gate_opened: true, status: paid.status, receipt_number: paid.receipt?.number ?? null };
  } catch (err) {
    // No answer from the provider: the shopper has a card on file and the charge is settled with the same key later.
    if (err instanceof AppError && err.code === "payment_unavailable")
      answer = { gate_opened: true, status: "pending", receipt_number: null };
    else throw err;
  }
  // The shopper goes through the gate: a charge still unanswered that is later declined leaves its visit unpaid
  // (for staff), not open for a shopper who is gone.
  await opts.db.execute(
    sql`update shopping_sessions set exited_at = coalesce(exited_at, now())
        where customer_id = ${visit.customer_id} and (id = ${visit.id} or state = 'charging')`,
  );
  await announce({ store_id: visit.store_id, session_id: visit.id, kind });
  if (answer.status !== "empty" && opts.spotCheckShare) {
    // The draw for a staff check never keeps a paying shopper in: a failure here is logged and the gate opens.
    await flagAtExit({
      db: opts.db,
      announce,
      sessionId: visit.id,
      storeId: visit.store_id,
      customerId: visit.customer_id,
      share: opts.spotCheckShare,
    }).catch((err: unknown) => opts.log?.warn({ err: safeError(err) }, "could not draw the exit for a spot check"));
  }
  await opts.openGate({ storeId: visit.store_id, sessionId: visit.id });
  return answer;
}

/**
 * POST /api/v1/checkout: the phone pays what the shopper owes (after a passed
 * face check, or "Kunde inte scanna? Tryck här"). Paying from the phone is an
 * exit too: once this request's charge went through, the same draw for a
 * staff check as at the gate, never a reason to fail.
 */
export async function payFromPhone(
  opts: ChargeVisitOptions & {
    customerId: string;
    /** The store's store/spot_check_share, read once the payment went through. */
    spotCheckShare: (storeId: string) => Promise<number>;
    log: Pick<FastifyBaseLogger, "warn">;
  },
): Promise<CheckoutResponse> {
  const { spotCheckShare, log, ...checkoutOpts } = opts;
  const announce = opts.announce ?? announceNothing;
  return checkout({
    ...checkoutOpts,
    afterPaid: async ({ sessionId, storeId }) => {
      const share = await spotCheckShare(storeId);
      await flagAtExit({ db: opts.db, announce, sessionId, storeId, customerId: opts.customerId, share }).catch(
        (err: unknown) => log.warn({ err: safeError(err) }, "could not draw the exit for a spot check"),
      );
    },
  });
}

export type ExitStatus = {
  /** shopping: not paid yet; pending: being charged; declined: the card was refused; paid; empty. */
  state: "shopping" | "pending" | "declined" | "paid" | "empty";
  receipt: Receipt | null;
  /** A line for the phone, only when there is one: the visit was picked for a staff check. */
  notice?: string;
  /** Only when true: the gate refused the exit code for want of a card, and there is still none on file. */
  needs_card?: true;
  /** Only when true: the gate refused the exit code because pant vouchers pay the whole cart, and they still do. */
  vouchers_cover_cart?: true;
};

/** What the exit page shows while it waits at the gate; `at` is the sale clock, whose day's offers price the cart. */
export async function exitStatus(db: Db, customerId: string, at: Date): Promise<ExitStatus> {
  const visit = await latestVisit(db, customerId);
  if (!visit) throw notFound("Du har inget pågående besök.", "no_visit");
  const status: ExitStatus = await visitStatus(db, visit);
  const notice = await spotCheckNotice(db, visit.id);
  if (notice) status.notice = notice;
  if (OWING_STATES.includes(visit.state) && (await refusedForCard(db, visit.id, customerId))) status.needs_card = true;
  if (visit.state === "in_store" && (await refusedForVouchers(db, visit.id, at))) status.vouchers_cover_cart = true;
  return status;
}

/**
 * The gate refused this visit's exit code because its pant vouchers pay the
 * whole cart (a voucher is never paid out), and they still do: the cart
 * holds vouchers and the card would pay nothing.
 */
async function refusedForVouchers(db: Db, sessionId: string, at: Date): Promise<boolean> {
  const [row] = await queryRows<{ refused: boolean }>(
    db,
    sql`select exists (select 1 from session_events e where e.session_id = ${sessionId} and e.kind = 'exit_refused'
                         and e.detail->>'code' = 'vouchers_cover_cart') as refused`,
  );
  if (!row?.refused) return false;
  const cart = await cartTotals(db, sessionId, at);
  return cart.vouchers.length > 0 && cart.to_pay === 0;
}

/** The gate refused this visit's exit code because no card was on file, and none has been added since. */
async function refusedForCard(db: Db, sessionId: string, customerId: string): Promise<boolean> {
  const [row] = await queryRows<{ refused: boolean }>(
    db,
    sql`select exists (select 1 from session_events e where e.session_id = ${sessionId} and e.kind = 'exit_refused'
                         and e.detail->>'code' = 'no_payment_method')
           and (select payment_method_id is null from customers where id = ${customerId}) as refused`,
  );
  return row?.refused === true;
}

/** Where the visit stands, from its state: paid, ended (empty or written off), being charged, declined, or not paid yet. */
async function visitStatus(db: Db, visit: LatestVisit): Promise<ExitStatus> {
  const [order] = await queryRows<{ id: string; state: string }>(
    db,
    sql`select id, state from orders where session_id = ${visit.id}`,
  );
  switch (visit.state) {
    case "paid":
      return { state: "paid", receipt: order ? await readReceipt(db, order.id) : null };
    case "ended_empty":
    case "written_off":
      return { state: "empty", receipt: null };
    case "charging":
      return { state: "pending", receipt: null };
    default:
      return { state: order?.state === "declined" ? "declined" : "shopping", receipt: null };
  }
}
