import type { SQL } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { Db } from "../db/client.ts";
import { isDatabaseUnavailable, safeError } from "./errors.ts";

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
 * Runs `run` every `everyMs` on this instance, never two runs at once; a
 * failed run is logged and the next one tries again. Closing the app waits
 * for the run under way. Several instances may run it at once: the job
 * itself must take its rows so that two never do the same work.
 */
export function schedulePeriodic(
  app: FastifyInstance,
  name: string,
  everyMs: number,
  run: () => Promise<unknown>,
): PeriodicJob {
  let current: Promise<void> | null = null;
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
  const timer = setInterval(kick, everyMs);
  timer.unref();
  const idle = async () => {
    while (current) await current;
  };
  app.addHook("onClose", async () => {
    closed = true;
    clearInterval(timer);
    await idle();
  });
  return { kick, idle };
}
