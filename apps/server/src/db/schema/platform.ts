import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** Fixed-window counters shared by every instance (login throttling and the like). */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  count: integer("count").notNull(),
  resetAt: timestamp("reset_at", { withTimezone: true }).notNull(),
});

/**
 * Each background job's last round, whichever instance ran it: an instance
 * whose timer fires claims the round only when the last one began at least
 * (nearly) an interval ago, so N instances run a job once per interval, not
 * N times. `rounds` counts the rounds claimed so far.
 */
export const jobRounds = pgTable("job_rounds", {
  job: text("job").primaryKey(),
  startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
  rounds: integer("rounds").notNull().default(1),
});
