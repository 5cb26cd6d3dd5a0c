import type { Db, Tx } from "../../db/client.ts";
import { auditLog } from "../../db/schema/index.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";

/** Who made a change: an admin in the console, or the admin CLI / the service itself. */
export type AuditActor = Pick<AdminActor, "id" | "email"> | { id: null; email: "cli" | "system" };

export type AuditEntry = {
  actor: AuditActor;
  /** entity.verb, e.g. store.update, product.delete, setting.update, refund.create */
  action: string;
  entityType: string;
  entityId?: string | null;
  storeId?: string | null;
  /** One line a person reads in the Audit log. */
  summary: string;
  before?: unknown;
  after?: unknown;
};

/**
 * Records one console change. Call it inside the transaction that makes the
 * change, so the entry exists exactly when the change does.
 */
export async function recordAudit(tx: Db | Tx, entry: AuditEntry): Promise<void> {
  await tx.insert(auditLog).values({
    actorId: entry.actor.id,
    actorEmail: entry.actor.email,
    action: entry.action,
    entityType: entry.entityType,
    entityId: entry.entityId ?? null,
    storeId: entry.storeId ?? null,
    summary: entry.summary,
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}
