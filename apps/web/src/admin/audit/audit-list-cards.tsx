import type { AuditListItem } from "@glide/contracts";
import { useDateFormat } from "../settings/use-date-format.ts";
import { ListCards } from "../shell/list-views.tsx";
import { formatActor } from "./audit-format.ts";

interface AuditListCardsProps {
  entries: AuditListItem[];
  onOpen: (entry: AuditListItem) => void;
  busy?: boolean;
}

/** The log on a phone: the table's four columns do not fit, so each change is a card that opens the entry. */
export function AuditListCards({ entries, onOpen, busy }: AuditListCardsProps) {
  const dates = useDateFormat();
  return (
    <ListCards
      label="Audit log"
      busy={busy}
      empty="No changes found"
      items={entries.map((entry) => (
        <li key={entry.id} className="min-w-0">
          <button
            type="button"
            aria-haspopup="dialog"
            className="grid w-full min-w-0 gap-1 rounded-lg border bg-card p-3 text-left text-card-foreground shadow-xs hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring"
            onClick={() => onOpen(entry)}
          >
            <span className="font-medium break-words">{entry.summary}</span>
            <span className="truncate text-sm text-muted-foreground">
              <time dateTime={entry.occurred_at}>{dates.dateTime(entry.occurred_at)}</time>
              {` · ${formatActor(entry.actor_email)}`}
            </span>
            <span className="truncate font-mono text-xs text-muted-foreground">{entry.action}</span>
          </button>
        </li>
      ))}
    />
  );
}
