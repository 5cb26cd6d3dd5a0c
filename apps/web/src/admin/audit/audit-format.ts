import { AUDIT_ACTION_GROUPS } from "@glide/contracts";

/** "cli" is the admin command line; anything else is an admin's e-mail. */
export function formatActor(email: string): string {
  return email === "cli" ? "Command line" : email === "system" ? "System" : email;
}

/** A value of a before/after snapshot as one readable line; absent and null are both "—". */
export function formatAuditValue(value: unknown): string {
  if (value === undefined || value === null || value === "") return "—";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value, null, 1).replace(/\n\s*/g, " ");
}

/** The action filter's choices: every action of one kind ("store.") at a time. */
export const ACTION_CHOICES = AUDIT_ACTION_GROUPS;
