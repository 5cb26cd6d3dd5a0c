import { readFileSync } from "node:fs";
import path from "node:path";

const MIGRATION = path.resolve(import.meta.dirname, "../../db/migrations/0012_analytics.sql");

/**
 * The statements of migration 0012 that fill the rollups from the rows
 * already there, read from the migration itself so the bench (which loads
 * its data with the triggers off) and the tests run exactly what a database
 * upgraded to 0012 ran.
 */
export function analyticsBackfillStatements(): string[] {
  const text = readFileSync(MIGRATION, "utf8");
  const start = text.indexOf("-- analytics-backfill:start");
  const end = text.indexOf("-- analytics-backfill:end");
  if (start < 0 || end < start) throw new Error(`${MIGRATION} lacks its analytics-backfill markers`);
  return text
    .slice(start, end)
    .split("--> statement-breakpoint")
    .map((s) => s.replace(/^--.*$/gm, "").trim())
    .filter(Boolean);
}
