import { changedKeys } from "@glide/contracts";
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

/** How a summary names an entity: `Store "Glide Demo"`. */
export const named = (kind: string, name: string) => `${kind} "${name}"`;

/**
 * Records an update with the fields that changed, or nothing when none did:
 * a save that changes nothing is no event. `alsoChanged` names changes a
 * snapshot cannot show, such as a new camera password.
 */
export async function recordUpdate(
  tx: Db | Tx,
  entry: Omit<AuditEntry, "summary"> & { label: string; alsoChanged?: string[] },
): Promise<void> {
  const { label, alsoChanged = [], ...rest } = entry;
  const fields = [...changedKeys(entry.before, entry.after), ...alsoChanged];
  if (fields.length === 0) return;
  // A rename keeps the old name in the line too, so a search for either name finds it.
  const oldName = (entry.before as { name?: unknown } | null | undefined)?.name;
  const told = fields.map((f) => (f === "name" && typeof oldName === "string" ? `name (was "${oldName}")` : f));
  await recordAudit(tx, { ...rest, summary: `${label} updated: ${told.join(", ")}` });
}
