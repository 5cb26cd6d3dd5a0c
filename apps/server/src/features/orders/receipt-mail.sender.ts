import type { SQL } from "drizzle-orm";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { type Db, queryRows, sql } from "../../db/client.ts";
import { type PeriodicJob, schedulePeriodic } from "../../platform/housekeeping.ts";
import type { Mailer } from "../../platform/mail.ts";
import { onCloseStep } from "../../platform/shutdown.ts";
import { readReceipt } from "./receipt.ts";
import { receiptMail } from "./receipt-mail.ts";
import { refundMail } from "./refund-mail.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** The receipt mail sender: kicked after a checkout, and run on a timer. */
    receiptMails: PeriodicJob & {
      /** A mail server is set up (SMTP_URL): a paid order's receipt mail is queued for it. */
      sends: boolean;
    };
  }
}

/** How often each instance looks for receipt mails that are due. */
export const RECEIPT_MAIL_INTERVAL_MS = 30_000;
/** A row taken by a sender is left alone this long; if that sender died, another takes it after. */
export const RECEIPT_MAIL_LEASE_MS = 10 * 60_000;
/** After this long without an SMTP server that accepts it, a receipt mail is given up (the receipt stays in the app). */
export const RECEIPT_MAIL_GIVE_UP_MS = 3 * 24 * 3600_000;
const BATCH = 20;
const MAX_BATCHES = 10;

/** Wait before the next try after `attempts` refusals: 30 s, 1 min, 2 min … at most an hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3600_000);
}

type Due = { id: string; order_id: string; to_address: string; attempts: number; refund_id: string | null };

/**
 * Sends the receipt mails that are due. Each row is taken under a lease (so
 * two instances never send the same one at once) and marked sent only after
 * the SMTP server accepted the message; a crash between the two sends it
 * again after the lease: at most once in practice, not in theory. A refusal
 * that may pass later waits with backoff; a permanent one, or one past the
 * give-up age, is marked failed.
 */
export async function sendDueReceiptMails(opts: {
  db: Db;
  mailer: Mailer;
  log?: FastifyBaseLogger;
  /** Another clock (tests); by default the database's, the one that stamped the rows. */
  now?: () => Date;
  /**
   * True once the instance is closing: the run stops before its next mail and
   * hands back the rows it took and did not try, due at once for any instance.
   */
  stopping?: () => boolean;
}): Promise<{ sent: number; retrying: number; failed: number }> {
  const now: Clock = () => (opts.now ? sql`${opts.now()}::timestamptz` : sql`now()`);
  const counts = { sent: 0, retrying: 0, failed: 0 };
  const givenUp = await queryRows<{ id: string }>(
    opts.db,
    sql`update receipt_mails set state = 'failed', last_error = coalesce(last_error, 'never sent') || ', given up'
        where state = 'pending' and created_at < ${now()} - ${ms(RECEIPT_MAIL_GIVE_UP_MS)}
          and next_attempt_at <= ${now()}
        returning id`,
  );
  counts.failed += givenUp.length;

  for (let batch = 0; batch < MAX_BATCHES && !opts.stopping?.(); batch++) {
    const due = await queryRows<Due>(
      opts.db,
      sql`update receipt_mails set attempts = attempts + 1, next_attempt_at = ${now()} + ${ms(RECEIPT_MAIL_LEASE_MS)}
          where id in (select id from receipt_mails
                       where state = 'pending' and next_attempt_at <= ${now()}
                       order by next_attempt_at limit ${BATCH}
                       for update skip locked)
          returning id, order_id, to_address, attempts, refund_id`,
    );
    for (const [i, row] of due.entries()) {
      if (opts.stopping?.()) {
        await handBack(opts.db, due.slice(i), now);
        return counts;
      }
      counts[await sendOne(opts.db, opts.mailer, row, now, opts.log)]++;
    }
    if (due.length < BATCH) break;
  }
  return counts;
}

type Clock = () => SQL;
const ms = (value: number) => sql`${value}::float8 * interval '1 millisecond'`;

/** Rows taken and not tried: their lease and the attempt it counted are undone. */
async function handBack(db: Db, rows: Due[], now: Clock): Promise<void> {
  // An array literal of the ids (uuids the database made), as one parameter.
  const ids = `{${rows.map((row) => row.id).join(",")}}`;
  await db.execute(
    sql`update receipt_mails set attempts = attempts - 1, next_attempt_at = ${now()}
        where id in (select unnest(${ids}::uuid[])) and state = 'pending'`,
  );
}

async function sendOne(
  db: Db,
  mailer: Mailer,
  row: Due,
  now: Clock,
  log: FastifyBaseLogger | undefined,
): Promise<"sent" | "retrying" | "failed"> {
  const receipt = await readReceipt(db, row.order_id);
  if (!receipt) {
    await db.execute(sql`update receipt_mails set state = 'failed', last_error = 'no receipt' where id = ${row.id}`);
    return "failed";
  }
  // A refund notice (kind refund) tells what was given back, with the receipt as it stands now.
  const message = row.refund_id ? await refundMail(db, receipt, row.refund_id) : receiptMail(receipt);
  if (!message) {
    await db.execute(sql`update receipt_mails set state = 'failed', last_error = 'no refund' where id = ${row.id}`);
    return "failed";
  }
  const outcome = await mailer.send({ to: row.to_address, ...message });
  if (outcome.kind === "accepted") {
    await db.execute(
      sql`update receipt_mails set state = 'sent', sent_at = ${now()}, last_error = null
          where id = ${row.id} and state = 'pending'`,
    );
    return "sent";
  }
  const failed = outcome.permanent;
  await db.execute(
    sql`update receipt_mails set state = ${failed ? "failed" : "pending"}, last_error = ${outcome.reason},
          next_attempt_at = ${now()} + ${ms(retryDelayMs(row.attempts))}
        where id = ${row.id} and state = 'pending'`,
  );
  // The order and the reply code only: the address is personal data.
  log?.warn(
    { order: row.order_id, attempts: row.attempts, reason: outcome.reason, permanent: failed },
    failed ? "receipt mail refused for good" : "receipt mail not accepted; will try again",
  );
  return failed ? "failed" : "retrying";
}

/**
 * Runs the sender on its own timer and decorates the app with it, so a
 * checkout can kick it without waiting. Without a mailer (no SMTP_URL) no
 * mail is sent, and the log says so once; no receipt mail is queued then (the
 * phone must not say one was sent), and rows queued before wait for one.
 */
export function startReceiptMails(app: FastifyInstance, mailer: Mailer | null): void {
  if (!mailer) app.log.info("SMTP_URL is not set: receipt e-mails are not sent");
  // A checkout kicks it on its own instance; the timer's round runs on one instance of all.
  // A run under way when the app closes stops after the mail it is sending (a round may hold 200 of them).
  let closing = false;
  const job = schedulePeriodic(
    app,
    "receipt mail",
    RECEIPT_MAIL_INTERVAL_MS,
    async () => {
      if (mailer) await sendDueReceiptMails({ db: app.db, mailer, log: app.log, stopping: () => closing });
    },
    { oncePerRound: true },
  );
  app.decorate("receiptMails", { ...job, sends: mailer !== null });
  onCloseStep(app, "receipt mail", async () => {
    closing = true;
    await job.idle();
    mailer?.close();
  });
}
