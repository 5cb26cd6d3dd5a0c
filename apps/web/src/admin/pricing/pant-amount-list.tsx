import { PANT_CODE_LABELS, type PantAmount } from "@glide/contracts";
import { Pencil, Trash } from "lucide-react";
import { Button } from "../../ui/button.tsx";
import { TableCell, TableHead, TableRow } from "../../ui/table.tsx";
import { ListCards, ListTable } from "../shell/list-views.tsx";
import { formatPantAmount, NO_PANT } from "./pant-amounts.ts";

interface PantAmountListProps {
  items: PantAmount[];
  /** The list's accessible name, e.g. "Pant in Sweden". */
  label: string;
  /** A table on a wide screen, cards on a phone. */
  phone: boolean;
  /** Platform admins change amounts; store admins only read them. */
  canManage: boolean;
  busy: boolean;
  onEdit: (item: PantAmount) => void;
  onRemove: (item: PantAmount) => void;
}

const amountText = (item: PantAmount) => (item.amount === null ? NO_PANT : formatPantAmount(item.amount));

/** Every mark in the contract's order with what it is worth in the country on screen. */
export function PantAmountList({ items, label, phone, canManage, busy, onEdit, onRemove }: PantAmountListProps) {
  const empty = "No pant marks";
  const actions = (item: PantAmount) => {
    if (!canManage) return null;
    const mark = PANT_CODE_LABELS[item.code];
    return (
      <div className="flex justify-end">
        <Button variant="ghost" size="icon" aria-label={`Edit ${mark}`} onClick={() => onEdit(item)}>
          <Pencil aria-hidden="true" />
        </Button>
        {/* A mark without an amount has nothing to remove. */}
        {item.amount === null ? (
          <span className="size-9" aria-hidden="true" />
        ) : (
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Remove ${mark}`}
            className="text-destructive"
            onClick={() => onRemove(item)}
          >
            <Trash aria-hidden="true" />
          </Button>
        )}
      </div>
    );
  };

  if (phone) {
    return (
      <ListCards
        label={label}
        busy={busy}
        empty={empty}
        items={items.map((item) => (
          <li
            key={item.code}
            className="flex min-w-0 items-center justify-between gap-3 rounded-lg border bg-card p-3 text-card-foreground shadow-xs"
          >
            <div className="grid min-w-0 gap-1">
              <p className="font-medium">{PANT_CODE_LABELS[item.code]}</p>
              <p
                className={
                  item.amount === null ? "text-sm text-muted-foreground" : "text-lg font-semibold tabular-nums"
                }
              >
                {amountText(item)}
              </p>
            </div>
            {actions(item)}
          </li>
        ))}
      />
    );
  }
  return (
    <ListTable
      label={label}
      busy={busy}
      head={
        <>
          <TableHead>Mark</TableHead>
          <TableHead className="w-40">Amount</TableHead>
          {canManage ? <TableHead className="w-28 text-right">Actions</TableHead> : null}
        </>
      }
      columnCount={canManage ? 3 : 2}
      empty={empty}
      rows={items.map((item) => (
        <TableRow key={item.code}>
          <TableCell className="font-medium">{PANT_CODE_LABELS[item.code]}</TableCell>
          <TableCell
            className={item.amount === null ? "text-muted-foreground" : "whitespace-nowrap font-medium tabular-nums"}
          >
            {amountText(item)}
          </TableCell>
          {canManage ? <TableCell className="py-1">{actions(item)}</TableCell> : null}
        </TableRow>
      ))}
    />
  );
}
