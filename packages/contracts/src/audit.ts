import { z } from "zod";

/**
 * The audit log: every change made in the console, with who, when, what and
 * the entity before and after, as the API showed it (never a secret).
 */

/** What the Audit log screen's action filter offers: each value is an action prefix ("store." = every store action). */
export const AUDIT_ACTION_GROUPS = [
  { value: "store.", label: "Stores" },
  { value: "product.", label: "Products" },
  { value: "setting.", label: "Settings" },
  { value: "camera_system.", label: "Camera systems" },
  { value: "camera.", label: "Cameras" },
  { value: "admin_user.", label: "Admin users" },
  { value: "refund.", label: "Refunds" },
  { value: "spot_check.", label: "Spot checks" },
  { value: "dispute.", label: "Disputes" },
  { value: "vat_rate.", label: "VAT rates" },
  { value: "pant_amount.", label: "Pant amounts" },
  { value: "store_price.", label: "Store prices" },
  { value: "campaign.", label: "Campaigns" },
  { value: "offer.", label: "Offers" },
] as const;

export const AUDIT_PAGE_SIZE = { default: 50, max: 100 } as const;

/** A day (YYYY-MM-DD, the whole UTC day) or an ISO date-time with its offset. */
const dateOrTime = (field: string) =>
  z.union([z.iso.date(), z.iso.datetime({ offset: true })], {
    error: `${field} must be a date (YYYY-MM-DD) or an ISO date-time with offset`,
  });

export const auditListQuerySchema = z.object({
  /** Text in the summary, action, actor's e-mail or entity id; % and _ match themselves. */
  search: z.string().trim().max(200).optional(),
  /** An exact action (store.update), or a prefix ending in a dot (store.). */
  action: z
    .string()
    .max(100)
    .regex(/^[a-z_]+(\.[a-z_]*)?$/, "action must look like store.update or store.")
    .optional(),
  entity_type: z.string().max(100).optional(),
  entity_id: z.string().max(200).optional(),
  /** The actor's e-mail, exactly (any case); "cli" for the admin command line. */
  actor: z.string().trim().max(320).optional(),
  store_id: z.uuid("store_id must be a UUID").optional(),
  /** Inclusive; a date alone means from the start of that day. */
  from: dateOrTime("from").optional(),
  /** Inclusive; a date alone means to the end of that day. */
  to: dateOrTime("to").optional(),
  limit: z.coerce.number().int().min(1).max(AUDIT_PAGE_SIZE.max).default(AUDIT_PAGE_SIZE.default),
  offset: z.coerce.number().int().min(0).default(0),
});
export type AuditListQuery = z.input<typeof auditListQuerySchema>;

export const auditIdParams = z.object({
  id: z.coerce.number().int().positive("Audit entry id must be a positive whole number"),
});

export const auditListItemSchema = z.object({
  id: z.number().int(),
  occurred_at: z.string(),
  /** Null for the admin command line, or when the admin has since been deleted. */
  actor_id: z.string().nullable(),
  actor_email: z.string(),
  action: z.string(),
  entity_type: z.string(),
  entity_id: z.string().nullable(),
  store_id: z.string().nullable(),
  summary: z.string(),
});
export type AuditListItem = z.infer<typeof auditListItemSchema>;

export const auditEntrySchema = auditListItemSchema.extend({
  /** The entity as the API showed it before the change; null for a creation. */
  before: z.unknown(),
  /** ... and after it; null for a deletion. */
  after: z.unknown(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Moved by every save, so never a change a person made. */
const BOOKKEEPING_KEYS = new Set(["updated_at"]);

/**
 * The top-level keys whose values differ between two snapshots, in the
 * order they appear (before's keys first). Both the server's summaries and
 * the screen's highlighting use it, so they never disagree.
 */
export function changedKeys(before: unknown, after: unknown): string[] {
  const a = isPlainObject(before) ? before : {};
  const b = isPlainObject(after) ? after : {};
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return keys.filter((k) => !BOOKKEEPING_KEYS.has(k) && JSON.stringify(a[k] ?? null) !== JSON.stringify(b[k] ?? null));
}
