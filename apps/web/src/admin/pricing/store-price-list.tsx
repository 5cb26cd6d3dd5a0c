import type { StorePrice } from "@glide/contracts";
import { Pencil, Trash } from "lucide-react";
import { formatKronor } from "../../lib/format.ts";
import { Button } from "../../ui/button.tsx";
import { TableCell, TableHead, TableRow } from "../../ui/table.tsx";
import { ListCards, ListTable } from "../shell/list-views.tsx";

interface StorePriceListProps {
  items: StorePrice[];
  /** The list's accessible name, e.g. "Prices of Butik A". */
  label: string;
  /** A table on a wide screen, cards on a phone. */
  phone: boolean;
  busy: boolean;
  /** The list's words when it is empty: none at all, or none matching the search. */
  empty: string;
  /** The price column's heading: "Store price" or "Group price". */
  priceHeading?: string;
  /** Edit and Remove on each row; without them the list only reads (a store admin's view of a group's prices). */
  onEdit?: ((item: StorePrice) => void) | undefined;
  onRemove?: ((item: StorePrice) => void) | undefined;
}

/** A store's own (or a price group's) prices beside the catalogue's, with Edit and Remove on each. */
export function StorePriceList({
  items,
  label,
  phone,
  busy,
  empty,
  priceHeading = "Store price",
  onEdit,
  onRemove,
}: StorePriceListProps) {
  const actions = (item: StorePrice) =>
    onEdit && onRemove ? <RowActions item={item} onEdit={onEdit} onRemove={onRemove} /> : null;

  if (phone) {
    return (
      <ListCards
        label={label}
        busy={busy}
        empty={empty}
        items={items.map((item) => (
          <li
            key={item.product_id}
            className="flex min-w-0 items-center justify-between gap-3 rounded-lg border bg-card p-3 text-card-foreground shadow-xs"
          >
            <div className="grid min-w-0 gap-1">
              <p className="truncate font-medium">{item.name}</p>
              <p className="text-sm text-muted-foreground">{item.sku}</p>
              <p className="text-sm">
                <span className="text-lg font-semibold tabular-nums">{formatKronor(item.price)}</span>{" "}
                <span className="text-muted-foreground">
                  (catalogue <span className="tabular-nums">{formatKronor(item.catalogue_price)}</span>)
                </span>
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
          <TableHead className="w-40">SKU</TableHead>
          <TableHead>Name</TableHead>
          <TableHead className="w-36 text-right">Catalogue price</TableHead>
          <TableHead className="w-36 text-right">{priceHeading}</TableHead>
          {onEdit ? <TableHead className="w-28 text-right">Actions</TableHead> : null}
        </>
      }
      columnCount={onEdit ? 5 : 4}
      empty={empty}
      rows={items.map((item) => (
        <TableRow key={item.product_id}>
          <TableCell className="font-mono text-sm">{item.sku}</TableCell>
          <TableCell className="font-medium">{item.name}</TableCell>
          <TableCell className="text-right whitespace-nowrap text-muted-foreground tabular-nums">
            {formatKronor(item.catalogue_price)}
          </TableCell>
          <TableCell className="text-right whitespace-nowrap font-medium tabular-nums">
            {formatKronor(item.price)}
          </TableCell>
          {onEdit ? <TableCell className="py-1">{actions(item)}</TableCell> : null}
        </TableRow>
      ))}
    />
  );
}

function RowActions({
  item,
  onEdit,
  onRemove,
}: {
  item: StorePrice;
  onEdit: (item: StorePrice) => void;
  onRemove: (item: StorePrice) => void;
}) {
  return (
    <div className="flex justify-end">
      <Button variant="ghost" size="icon" aria-label={`Edit the price of ${item.name}`} onClick={() => onEdit(item)}>
        <Pencil aria-hidden="true" />
      </Button>
      <Button
        variant="ghost"
        size="icon"
        aria-label={`Remove the price of ${item.name}`}
        className="text-destructive"
        onClick={() => onRemove(item)}
      >
        <Trash aria-hidden="true" />
      </Button>
    </div>
  );
}
