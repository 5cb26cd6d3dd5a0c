import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { rateLimits } from "../db/schema/index.ts";
import type { ExpiryJob } from "./housekeeping.ts";

/**
 * Fixed-window counters in the database, so every instance sees the same
 * count and a restart forgets nothing.
 */
export async function countHit(db: Db, key: string, windowMs: number): Promise<{ count: number; resetAt: Date }> {
  const resetAt = new Date(Date.now() + windowMs);
  const [row] = await db
    .insert(rateLimits)
    .values({ key, count: 1, resetAt })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${rateLimits.resetAt} <= now() then 1 else ${rateLimits.count} + 1 end`,
        resetAt: sql`case when ${rateLimits.resetAt} <= now() then excluded.reset_at else ${rateLimits.resetAt} end`,
      },
    })
    .returning({ count: rateLimits.count, resetAt: rateLimits.resetAt });
  return row!;
}

/**
 * Counts one hit on each key in one statement and answers the counts that
 * include it. Callers that race each get their own count, so a check of it
 * lets no more of them through than the limit. Keys are written in sorted
 * order, so two such statements never wait on each other in a circle.
 */
export async function reserveHits(
  db: Db,
  keys: readonly string[],
  windowMs: number,
): Promise<Map<string, { count: number; resetAt: Date }>> {
  const resetAt = new Date(Date.now() + windowMs);
  const rows = await db
    .insert(rateLimits)
    .values([...new Set(keys)].sort().map((key) => ({ key, count: 1, resetAt })))
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${rateLimits.resetAt} <= now() then 1 else ${rateLimits.count} + 1 end`,
        resetAt: sql`case when ${rateLimits.resetAt} <= now() then excluded.reset_at else ${rateLimits.resetAt} end`,
      },
    })
    .returning({ key: rateLimits.key, count: rateLimits.count, resetAt: rateLimits.resetAt });
  return new Map(rows.map((r) => [r.key, { count: r.count, resetAt: r.resetAt }]));
}

/**
 * Gives back a hit taken by reserveHits, unless its window has since been
 * replaced by a new one. A window left at zero is deleted; the delete looks
 * at the row as it is then, so a hit counted in between keeps it.
 */
export async function releaseHit(db: Db, key: string, reserved: { resetAt: Date }): Promise<void> {
  const window = and(eq(rateLimits.key, key), eq(rateLimits.resetAt, reserved.resetAt));
  await db
    .update(rateLimits)
    .set({ count: sql`greatest(${rateLimits.count} - 1, 0)` })
    .where(window);
  await db.delete(rateLimits).where(and(window, sql`${rateLimits.count} <= 0`));
}

export async function resetCount(db: Db, key: string): Promise<void> {
  await db.delete(rateLimits).where(eq(rateLimits.key, key));
}

/** Windows that ended over an hour ago: countHit starts a finished window anew, so this only keeps the table small. */
export const rateLimitExpiry: ExpiryJob = {
  table: "rate_limits",
  deleteExpired: sql`delete from rate_limits where reset_at < now() - interval '1 hour'`,
};
