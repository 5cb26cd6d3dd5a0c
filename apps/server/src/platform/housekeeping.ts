import type { SQL } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { Db } from "../db/client.ts";
import { safeError } from "./errors.ts";

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
