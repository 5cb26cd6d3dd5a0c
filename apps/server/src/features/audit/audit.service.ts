import type { AuditEntry, AuditListItem, auditListQuerySchema } from "@glide/contracts";
import { and, desc, eq, gte, lt, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "../../db/client.ts";
import { auditLog } from "../../db/schema/index.ts";
import { fieldError, notFound } from "../../platform/errors.ts";
import { assertPlatformAdmin } from "../admin-auth/admin-auth.hooks.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";

type Query = z.output<typeof auditListQuerySchema>;
type Row = typeof auditLog.$inferSelect;

const toItem = (r: Row): AuditListItem => ({
  id: r.id,
  occurred_at: r.occurredAt.toISOString(),
  actor_id: r.actorId,
  actor_email: r.actorEmail,
  action: r.action,
  entity_type: r.entityType,
  entity_id: r.entityId,
  store_id: r.storeId,
  summary: r.summary,
});

/** A LIKE pattern that matches `text` literally anywhere: %, _ and \ stand for themselves. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const isDateOnly = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v);

/** The day after a YYYY-MM-DD date, at midnight UTC: the exclusive end of an inclusive day. */
function dayAfter(date: string): Date {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d;
}

/**
 * The time range, both ends inclusive: a date alone covers its whole (UTC)
 * day, a time its whole millisecond (the database keeps microseconds, the
 * API shows milliseconds, so an entry's own occurred_at must find it).
 */
function timeRange(from: string | undefined, to: string | undefined): SQL[] {
  const start = from === undefined ? undefined : new Date(isDateOnly(from) ? `${from}T00:00:00Z` : from);
  const end = to === undefined ? undefined : isDateOnly(to) ? dayAfter(to) : new Date(Date.parse(to) + 1);
  if (start && end && start >= end) throw fieldError("to", "to must not be before from");
  const conditions: SQL[] = [];
  if (start) conditions.push(gte(auditLog.occurredAt, start));
  if (end) conditions.push(lt(auditLog.occurredAt, end));
  return conditions;
}

function filters(q: Query): SQL | undefined {
  const conditions: (SQL | undefined)[] = [...timeRange(q.from, q.to)];
  if (q.search) {
    const like = containing(q.search);
    conditions.push(
      sql`(${auditLog.summary} ilike ${like} or ${auditLog.action} ilike ${like}
        or ${auditLog.actorEmail} ilike ${like} or ${auditLog.entityId} ilike ${like})`,
    );
  }
  if (q.action) {
    // "store." is every store action; "store.update" that one action.
    conditions.push(
      q.action.endsWith(".")
        ? sql`${auditLog.action} like ${`${q.action.replace(/_/g, "\\_")}%`}`
        : eq(auditLog.action, q.action),
    );
  }
  if (q.entity_type) conditions.push(eq(auditLog.entityType, q.entity_type));
  if (q.entity_id) conditions.push(eq(auditLog.entityId, q.entity_id));
  if (q.actor) conditions.push(sql`lower(${auditLog.actorEmail}) = ${q.actor.toLowerCase()}`);
  if (q.store_id) conditions.push(eq(auditLog.storeId, q.store_id));
  return and(...conditions);
}

/** Entries newest first. Only platform admins read the log: it spans every store and every admin. */
export async function listAudit(opts: {
  db: Db;
  actor: AdminActor;
  query: Query;
}): Promise<{ items: AuditListItem[]; total: number }> {
  assertPlatformAdmin(opts.actor, "see the audit log");
  const where = filters(opts.query);
  const [rows, total] = await Promise.all([
    opts.db
      .select()
      .from(auditLog)
      .where(where)
      .orderBy(desc(auditLog.occurredAt), desc(auditLog.id))
      .limit(opts.query.limit)
      .offset(opts.query.offset),
    opts.db.$count(auditLog, where),
  ]);
  return { items: rows.map(toItem), total };
}

export async function getAuditEntry(opts: { db: Db; actor: AdminActor; id: number }): Promise<AuditEntry> {
  assertPlatformAdmin(opts.actor, "see the audit log");
  const [row] = await opts.db.select().from(auditLog).where(eq(auditLog.id, opts.id));
  if (!row) throw notFound(`Audit entry ${opts.id} not found`);
  return { ...toItem(row), before: row.before, after: row.after };
}
