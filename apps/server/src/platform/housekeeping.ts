import { type SQL, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { type Db, queryRows } from "../db/client.ts";
import { isDatabaseUnavailable, safeError } from "./errors.ts";
import { onCloseStep } from "./shutdown.ts";

/** How often each instance clears out what has expired; running it on several instances at once is harmless. */
export const HOUSEKEEPING_INTERVAL_MS = 10 * 60 * 1000;

/** One table's clean-up: a delete of the rows that can never be used again, owned by whoever owns the table. */
export type ExpiryJob = { table: string; deleteExpired: SQL };

/** Runs each job once; returns how many rows each table lost. */
export async function clearExpired(db: Db, jobs: readonly ExpiryJob[]): Promise<Record<string, number>> {
  const deleted: Record<string, number> = {};
  for (const job of jobs) {
    const result = (await db.execute(job.deleteExpired)) as unknown as {
      rowCount?: number | null;
      affectedRows?: number;
    };
    deleted[job.table] = Number(result.rowCount ?? result.affectedRows ?? 0);
  }
  return deleted;
}

export function scheduleHousekeeping(app: FastifyInstance, jobs: readonly ExpiryJob[]): void {
  const timer = setInterval(() => {
    clearExpired(app.db, jobs).then(
      (deleted) => app.log.debug({ deleted }, "cleared expired rows"),
      (err: unknown) => app.log.warn({ err: safeError(err) }, "housekeeping failed"),
    );
  }, HOUSEKEEPING_INTERVAL_MS);
  timer.unref();
  app.addHook("onClose", async () => clearInterval(timer));
}

/** A job that runs on its own timer; `kick` runs it now, or again right after the run under way. */
export type PeriodicJob = {
  kick(): void;
  /** Resolves once no run is under way or asked for. */
  idle(): Promise<void>;
};

/**
 * How early a round may be claimed: timers on different instances drift, so
 * a round due a moment from now counts as due (a tenth of the interval, at
 * most 5 s).
 */
export function roundSlackMs(everyMs: number): number {
  return Math.min(everyMs / 10, 5_000);
}

/**
 * Claims this interval's round of `job` for the caller, across every
 * instance on the database: true for exactly one of any number of callers
 * while the last round began less than `everyMs` (less the slack) ago.
 */
export async function claimRound(db: Db, job: string, everyMs: number): Promise<boolean> {
  const seconds = (everyMs - roundSlackMs(everyMs)) / 1000;
  const claimed = await queryRows<{ rounds: number }>(
    db,
    sql`insert into job_rounds (job, started_at, rounds) values (${job}, now(), 1)
        on conflict (job) do update set started_at = now(), rounds = job_rounds.rounds + 1
        where job_rounds.started_at <= now() - make_interval(secs => ${seconds})
        returning rounds`,
  );
  return claimed.length > 0;
}

/**
 * Runs `run` every `everyMs`, never two runs at once on this instance; a
 * failed run is logged and the next one tries again. Closing the app waits
 * for the run under way. With `oncePerRound`, a timer's run happens only on
 * the instance that claims the round (claimRound), so N instances run it
 * once per interval; `kick` (work for this instance now) runs regardless.
 * Either way the job must take its rows so that two runs never do the same
 * work: a round can outlast its interval.
 */
export function schedulePeriodic(
  app: FastifyInstance,
  name: string,
  everyMs: number,
  run: () => Promise<unknown>,
  opts: { oncePerRound?: boolean } = {},
): PeriodicJob {
  let current: Promise<void> | null = null;
  /** A claim of a round on its way to the database: closing waits for it, so no round is claimed after. */
  let claiming: Promise<void> | null = null;
  let again = false;
  let closed = false;
  const kick = () => {
    if (closed) return;
    if (current) {
      again = true;
      return;
    }
    current = run()
      .then(
        () => undefined,
        (err: unknown) => {
          // The database going away is logged once where it is noticed; the next run tries again.
          if (!isDatabaseUnavailable(err)) app.log.warn({ err: safeError(err), job: name }, "periodic job failed");
        },
      )
      .finally(() => {
        current = null;
        if (again) {
          again = false;
          kick();
        }
      });
  };
  const onTimer = () => {
    if (!opts.oncePerRound) return kick();
    if (closed || claiming) return;
    claiming = claimRound(app.db, name, everyMs).then(
      (mine) => {
        if (mine) kick();
      },
      (err: unknown) => {
        // A claim cut short by the app closing, or by the database going away, waits for the next round.
        if (!closed && !isDatabaseUnavailable(err))
          app.log.warn({ err: safeError(err), job: name }, "periodic job not claimed");
      },
    );
    void claiming.finally(() => {
      claiming = null;
    });
  };
  const timer = setInterval(onTimer, everyMs);
  timer.unref();
  const idle = async () => {
    while (current) await current;
  };
  onCloseStep(app, `${name} round`, async () => {
    closed = true;
    clearInterval(timer);
    await claiming;
    await idle();
  });
  return { kick, idle };
}
