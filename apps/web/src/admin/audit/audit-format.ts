import { AUDIT_ACTION_GROUPS } from "@glide/contracts";

const timeFormat = new Intl.DateTimeFormat(undefined, {
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});

/** When a change was made, in the admin's own time zone and locale: "23 Nov 2026, 17:35:08". */
export function formatAuditTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : timeFormat.format(date);
}

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
