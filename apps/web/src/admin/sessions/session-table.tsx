import type { SessionRow } from "@glide/contracts";
import { formatKronor, pluralize } from "../../lib/format.ts";
import { Badge } from "../../ui/badge.tsx";
import { TableCell, TableHead, TableRow } from "../../ui/table.tsx";
import { useDateFormat } from "../settings/use-date-format.ts";
import { ListCards, ListTable } from "../shell/list-views.tsx";
import { PAYMENT_LABELS, STATUS_LABELS, STATUS_VARIANTS } from "./session-format.ts";

interface SessionListProps {
  sessions: SessionRow[];
  onOpen: (id: string) => void;
  busy?: boolean;
  /** Words for an empty list: none yet, or none matching the filters. */
  empty: string;
}

export function SessionStatusBadge({ status }: { status: SessionRow["status"] }) {
  return (
    <Badge variant={STATUS_VARIANTS[status]} className="shrink-0 whitespace-nowrap">
      {STATUS_LABELS[status]}
    </Badge>
  );
}

/** The visits on a wide screen; the shopper's name is the button that opens the visit. */
export function SessionTable({ sessions, onOpen, busy, empty }: SessionListProps) {
  const dates = useDateFormat();
  return (
    <ListTable
      label="Sessions"
      busy={busy}
      head={
        <>
          <TableHead>Status</TableHead>
          <TableHead>Shopper</TableHead>
          <TableHead>Store</TableHead>
          <TableHead>Entered</TableHead>
          <TableHead>Exited</TableHead>
          <TableHead className="text-right">Lines</TableHead>
          <TableHead className="text-right">Items</TableHead>
          <TableHead className="text-right">Total</TableHead>
          <TableHead>Payment</TableHead>
        </>
      }
      columnCount={9}
      empty={empty}
      rows={sessions.map((s) => (
        // The whole row opens the visit for a mouse; the shopper button does it for keyboard and screen readers.
        <TableRow key={s.id} data-session-id={s.id} className="cursor-pointer" onClick={() => onOpen(s.id)}>
          <TableCell>
            <SessionStatusBadge status={s.status} />
          </TableCell>
          <TableCell className="max-w-48">
            <button
              type="button"
              aria-haspopup="dialog"
              className="truncate rounded-sm text-left font-medium hover:underline focus-visible:outline-2 focus-visible:outline-ring"
              onClick={(event) => {
                event.stopPropagation();
                onOpen(s.id);
              }}
            >
              {s.shopper_name ?? "Deleted shopper"}
            </button>
          </TableCell>
          <TableCell className="max-w-40 truncate">{s.store.name}</TableCell>
          <TableCell className="whitespace-nowrap tabular-nums">
            <time dateTime={s.entered_at}>{dates.dateTime(s.entered_at)}</time>
          </TableCell>
          <TableCell className="whitespace-nowrap tabular-nums">{dates.dateTime(s.exited_at)}</TableCell>
          <TableCell className="text-right tabular-nums" data-label="lines">
            {s.lines}
          </TableCell>
          <TableCell className="text-right tabular-nums" data-label="items">
            {s.items}
          </TableCell>
          <TableCell className="text-right whitespace-nowrap tabular-nums">{formatKronor(s.total)}</TableCell>
          <TableCell className="whitespace-nowrap">{PAYMENT_LABELS[s.payment_state]}</TableCell>
        </TableRow>
      ))}
    />
  );
}

/** The visits on a phone: each one a card that opens it. */
export function SessionListCards({ sessions, onOpen, busy, empty }: SessionListProps) {
  const dates = useDateFormat();
  return (
    <ListCards
      label="Sessions"
      busy={busy}
      empty={empty}
      items={sessions.map((s) => (
        <li key={s.id} className="min-w-0" data-session-id={s.id}>
          <button
            type="button"
            aria-haspopup="dialog"
            className="grid w-full min-w-0 gap-1 rounded-lg border bg-card p-3 text-left text-card-foreground shadow-xs hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring"
            onClick={() => onOpen(s.id)}
          >
            <span className="flex items-center justify-between gap-2">
              <span className="truncate font-medium">{s.shopper_name ?? "Deleted shopper"}</span>
              <SessionStatusBadge status={s.status} />
            </span>
            <span className="truncate text-sm text-muted-foreground">
              {s.store.name} · <time dateTime={s.entered_at}>{dates.dateTime(s.entered_at)}</time>
              {s.exited_at ? (
                <>
                  {" → "}
                  <time dateTime={s.exited_at}>{dates.dateTime(s.exited_at)}</time>
                </>
              ) : null}
            </span>
            <span className="flex justify-between gap-2 text-sm tabular-nums">
              <span>
                <span data-label="lines">{pluralize(s.lines, "line", "lines")}</span>
                {" · "}
                <span data-label="items">{pluralize(s.items, "item", "items")}</span>
              </span>
              <span>
                {formatKronor(s.total)} · {PAYMENT_LABELS[s.payment_state]}
              </span>
            </span>
          </button>
        </li>
      ))}
    />
  );
}
