import { type AuditEntry, changedKeys } from "@glide/contracts";
import clsx from "clsx";
import { errorMessage } from "../../lib/api.ts";
import { ErrorAlert } from "../../ui/alert.tsx";
import { Dialog, DialogBody, DialogContent } from "../../ui/dialog.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { useDateFormat } from "../settings/use-date-format.ts";
import { formatActor, formatAuditValue } from "./audit-format.ts";
import { useAuditEntry } from "./use-audit.ts";

interface AuditEntryDialogProps {
  /** The entry to show, or null when the dialog is closed. */
  id: number | null;
  /** The list's line for it, shown while the full entry loads. */
  summary: string | undefined;
  onClose: () => void;
}

/** One change: who, when, what, and the entity before and after side by side, the changed fields marked. */
export function AuditEntryDialog({ id, summary, onClose }: AuditEntryDialogProps) {
  const entry = useAuditEntry(id);
  return (
    <Dialog open={id !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent title="Audit entry" description={summary} className="max-w-4xl">
        {/* Nothing in it takes focus, so the long table scrolls from the keyboard through the body itself. */}
        <DialogBody tabIndex={0} role="region" aria-label="Entry details">
          {entry.isPending ? (
            <Spinner label="Loading the entry" />
          ) : entry.isError ? (
            <ErrorAlert>{errorMessage(entry.error, "Failed to load the entry")}</ErrorAlert>
          ) : (
            <EntryDetails entry={entry.data} />
          )}
        </DialogBody>
      </DialogContent>
    </Dialog>
  );
}

function EntryDetails({ entry }: { entry: AuditEntry }) {
  const dates = useDateFormat();
  const facts = [
    // To the second here: the entry is the record, and two changes may share a minute.
    ["Time", dates.dateTime(entry.occurred_at, { seconds: true })],
    ["Who", formatActor(entry.actor_email)],
    ["Action", entry.action],
    ["Entity", entry.entity_id ? `${entry.entity_type} ${entry.entity_id}` : entry.entity_type],
  ] as const;
  return (
    <div className="grid gap-4">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        {facts.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-medium text-muted-foreground">{label}</dt>
            <dd className="min-w-0 break-words">{value}</dd>
          </div>
        ))}
      </dl>
      <BeforeAfter before={entry.before} after={entry.after} />
    </div>
  );
}

const keysOf = (value: unknown) =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? Object.keys(value) : [];

/** Every field of either snapshot in one table; the fields the change touched are highlighted and say so. */
function BeforeAfter({ before, after }: { before: unknown; after: unknown }) {
  const changed = new Set(changedKeys(before, after));
  const fields = [...new Set([...keysOf(before), ...keysOf(after)])];
  const fieldValue = (snapshot: unknown, key: string) => formatAuditValue((snapshot as Record<string, unknown>)?.[key]);
  if (fields.length === 0) return <p className="text-sm text-muted-foreground">No details were recorded.</p>;
  return (
    <table className="w-full table-fixed border-collapse text-sm">
      <caption className="sr-only">Before and after; changed fields are marked</caption>
      <thead>
        <tr className="border-b text-left">
          <th scope="col" className="w-1/4 py-2 pr-2 font-medium">
            Field
          </th>
          <th scope="col" className="py-2 pr-2 font-medium">
            Before
          </th>
          <th scope="col" className="py-2 font-medium">
            After
          </th>
        </tr>
      </thead>
      <tbody>
        {fields.map((key) => {
          const isChanged = changed.has(key);
          return (
            <tr
              key={key}
              data-changed={isChanged || undefined}
              className={clsx("border-b align-top", isChanged && "bg-primary/10 font-medium")}
            >
              <th scope="row" className="py-1.5 pr-2 text-left font-mono text-xs break-words">
                {key}
                {isChanged ? <span className="ml-1 font-sans text-xs text-muted-foreground">(changed)</span> : null}
              </th>
              <td className="py-1.5 pr-2 break-words whitespace-pre-wrap">{fieldValue(before, key)}</td>
              <td className="py-1.5 break-words whitespace-pre-wrap">{fieldValue(after, key)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
