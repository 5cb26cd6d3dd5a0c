import type { ReactNode } from "react";
import { Table, TableBody, TableCell, TableHeader, TableRow } from "../../ui/table.tsx";

/** The frames of a console list (a table on a wide screen, cards on a phone); the screens fill in the rows. */

interface ListTableProps {
  /** The table's accessible name, e.g. "Sessions". */
  label: string;
  /** Dimmed while the next page is on its way. */
  busy?: boolean;
  /** The header cells. */
  head: ReactNode;
  columnCount: number;
  /** Words for an empty list, in one row across the table. */
  empty: string;
  rows: ReactNode[];
}

export function ListTable({ label, busy, head, columnCount, empty, rows }: ListTableProps) {
  return (
    <Table aria-label={label} aria-busy={busy} className={busy ? "opacity-60" : undefined}>
      <TableHeader>
        <TableRow className="hover:bg-transparent">{head}</TableRow>
      </TableHeader>
      <TableBody>
        {rows.length === 0 ? (
          <TableRow className="hover:bg-transparent">
            <TableCell colSpan={columnCount} className="h-24 text-center text-muted-foreground">
              {empty}
            </TableCell>
          </TableRow>
        ) : (
          rows
        )}
      </TableBody>
    </Table>
  );
}

interface ListCardsProps {
  label: string;
  busy?: boolean;
  empty: string;
  /** One `<li>` per item. */
  items: ReactNode[];
}

export function ListCards({ label, busy, empty, items }: ListCardsProps) {
  if (items.length === 0) {
    return <p className="rounded-lg border bg-card py-12 text-center text-muted-foreground">{empty}</p>;
  }
  return (
    <ul aria-label={label} aria-busy={busy} className={`grid gap-2 ${busy ? "opacity-60" : ""}`}>
      {items}
    </ul>
  );
}
