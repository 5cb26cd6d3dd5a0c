import type { AuditListItem } from "@glide/contracts";
import { TableCell, TableHead, TableRow } from "../../ui/table.tsx";
import { useDateFormat } from "../settings/use-date-format.ts";
import { ListTable } from "../shell/list-views.tsx";
import { formatActor } from "./audit-format.ts";

interface AuditTableProps {
  entries: AuditListItem[];
  onOpen: (entry: AuditListItem) => void;
  busy?: boolean;
}

/** The log on a wide screen: one row per change; the summary is the button that opens the entry. */
export function AuditTable({ entries, onOpen, busy }: AuditTableProps) {
  const dates = useDateFormat();
  return (
    <ListTable
      label="Audit log"
      busy={busy}
      head={
        <>
          <TableHead>Time</TableHead>
          <TableHead>Who</TableHead>
          <TableHead>Action</TableHead>
          <TableHead>Summary</TableHead>
        </>
      }
      columnCount={4}
      empty="No changes found"
      rows={entries.map((entry) => (
        // The whole row opens the entry for a mouse; the summary button does it for keyboard and screen readers.
        <TableRow key={entry.id} className="cursor-pointer" onClick={() => onOpen(entry)}>
          <TableCell className="whitespace-nowrap tabular-nums">
            <time dateTime={entry.occurred_at}>{dates.dateTime(entry.occurred_at)}</time>
          </TableCell>
          <TableCell className="max-w-56 truncate" title={entry.actor_email}>
            {formatActor(entry.actor_email)}
          </TableCell>
          <TableCell className="whitespace-nowrap font-mono text-xs">{entry.action}</TableCell>
          <TableCell className="min-w-64">
            <button
              type="button"
              aria-haspopup="dialog"
              className="rounded-sm text-left hover:underline focus-visible:outline-2 focus-visible:outline-ring"
              onClick={(event) => {
                event.stopPropagation();
                onOpen(entry);
              }}
            >
              {entry.summary}
            </button>
          </TableCell>
        </TableRow>
      ))}
    />
  );
}
