import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { Db } from "../db/client.ts";
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from "../features/admin-auth/admin-auth.service.ts";

/** How often each instance clears out what has expired; running it on several instances at once is harmless. */
export const HOUSEKEEPING_INTERVAL_MS = 10 * 60 * 1000;

/**
 * Deletes rows that can never be used again: finished rate-limit windows,
 * BankID orders (BankID itself forgets them within minutes), expired admin
 * sessions and refresh tokens. Returns how many rows each table lost.
 */
export async function clearExpired(db: Db): Promise<Record<string, number>> {
  const run = async (query: ReturnType<typeof sql>) => {
    const result = (await db.execute(query)) as unknown as { rowCount?: number | null; affectedRows?: number };
    return Number(result.rowCount ?? result.affectedRows ?? 0);
  };
  return {
    rate_limits: await run(sql`delete from rate_limits where reset_at < now() - interval '1 hour'`),
    bankid_orders: await run(sql`delete from bankid_orders where started_at < now() - interval '1 day'`),
    admin_sessions: await run(
      sql`delete from admin_sessions where last_seen_at < now() - ${`${SESSION_IDLE_MS / 1000} seconds`}::interval
        or created_at < now() - ${`${SESSION_ABSOLUTE_MS / 1000} seconds`}::interval`,
    ),
    shopper_refresh_tokens: await run(
      sql`delete from shopper_refresh_tokens where expires_at < now() - interval '1 day'`,
    ),
  };
}

export function scheduleHousekeeping(app: FastifyInstance): void {
  const timer = setInterval(() => {
    clearExpired(app.db).then(
      (deleted) => app.log.debug({ deleted }, "cleared expired rows"),
      (err: unknown) => app.log.warn({ err }, "housekeeping failed"),
    );
  }, HOUSEKEEPING_INTERVAL_MS);
  timer.unref();
  app.addHook("onClose", async () => clearInterval(timer));
}
