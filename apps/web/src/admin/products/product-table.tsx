import type { Product } from "@glide/contracts";
import { Pencil, Trash } from "lucide-react";
import { formatKronor } from "../../lib/format.ts";
import { Button } from "../../ui/button.tsx";
import { TableCell, TableHead, TableRow, TableSortHead } from "../../ui/table.tsx";
import { ListTable } from "../shell/list-views.tsx";
import { comparisonText } from "./comparison-price.ts";
import { pantListText } from "./pant.ts";
import { ProductBadges } from "./product-badges.tsx";
import type { ProductSort, SortField } from "./use-product-view-prefs.ts";

interface ProductTableProps {
  products: Product[];
  sort: ProductSort;
  onSort: (field: SortField) => void;
  /** Store admins only read: no Actions column. */
  canManage: boolean;
  onEdit: (product: Product) => void;
  onDelete: (product: Product) => void;
  busy?: boolean;
}

export function ProductTable({ products, sort, onSort, canManage, onEdit, onDelete, busy }: ProductTableProps) {
  const sortHead = (field: SortField, label: string, className?: string) => (
    <TableSortHead
      sorted={sort.field === field ? sort.order : false}
      onSort={() => onSort(field)}
      className={className}
    >
      {label}
    </TableSortHead>
  );
  return (
    <ListTable
      label="Products"
      busy={busy}
      head={
        <>
          {sortHead("sku", "SKU")}
          {sortHead("name", "Name")}
          {sortHead("category", "Category")}
          <TableHead>Brand</TableHead>
          {sortHead("price", "Price", "text-right [&>button]:-mr-2")}
          <TableHead>Barcode</TableHead>
          <TableHead>Status</TableHead>
          {canManage ? <TableHead className="text-right">Actions</TableHead> : null}
        </>
      }
      columnCount={canManage ? 8 : 7}
      empty="No products found"
      rows={products.map((product) => (
        <TableRow key={product.id}>
          <TableCell className="whitespace-nowrap font-mono text-xs">{product.sku}</TableCell>
          <TableCell className="min-w-40 font-medium">{product.name}</TableCell>
          <TableCell className="whitespace-nowrap">{product.category ?? ""}</TableCell>
          <TableCell className="whitespace-nowrap">{product.brand ?? ""}</TableCell>
          <TableCell className="whitespace-nowrap text-right tabular-nums">
            {formatKronor(product.price)}
            {product.comparison_price ? (
              <div className="text-xs text-muted-foreground">{comparisonText(product.comparison_price)}</div>
            ) : null}
            {product.pant_code ? (
              <div className="text-xs text-muted-foreground">{pantListText(product.pant_code)}</div>
            ) : null}
          </TableCell>
          <TableCell className="whitespace-nowrap font-mono text-xs">{product.barcode ?? ""}</TableCell>
          <TableCell>
            <ProductBadges product={product} className="flex-nowrap" />
          </TableCell>
          {canManage ? (
            <TableCell className="text-right">
              <div className="flex justify-end gap-1">
                <Button
                  variant="ghost"
                  size="icon"
                  className="size-8"
                  aria-label={`Edit ${product.name}`}
                  onClick={() => onEdit(product)}
                >
                  <Pencil aria-hidden="true" />
                </Button>
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={`Delete ${product.name}`}
                  className="size-8 text-destructive"
                  onClick={() => onDelete(product)}
                >
                  <Trash aria-hidden="true" />
                </Button>
              </div>
            </TableCell>
          ) : null}
        </TableRow>
      ))}
    />
  );
}
