import type { Product } from "@glide/contracts";
import { Pencil, Trash } from "lucide-react";
import { useId } from "react";
import { formatKronor } from "../../lib/format.ts";
import { Button } from "../../ui/button.tsx";
import { Select } from "../../ui/select.tsx";
import { ListCards } from "../shell/list-views.tsx";
import { comparisonText } from "./comparison-price.ts";
import { pantListText } from "./pant.ts";
import { ProductBadges } from "./product-badges.tsx";
import type { ProductSort, SortField, SortOrder } from "./use-product-view-prefs.ts";

interface ProductListCardsProps {
  products: Product[];
  sort: ProductSort;
  onSortChange: (sort: ProductSort) => void;
  /** Store admins only read: no edit or delete buttons. */
  canManage: boolean;
  onEdit: (product: Product) => void;
  onDelete: (product: Product) => void;
  busy?: boolean;
}

const SORTS: { field: SortField; order: SortOrder; label: string }[] = [
  { field: "name", order: "asc", label: "Name, A to Z" },
  { field: "name", order: "desc", label: "Name, Z to A" },
  { field: "sku", order: "asc", label: "SKU, A to Z" },
  { field: "sku", order: "desc", label: "SKU, Z to A" },
  { field: "category", order: "asc", label: "Category, A to Z" },
  { field: "category", order: "desc", label: "Category, Z to A" },
  { field: "price", order: "asc", label: "Price, lowest first" },
  { field: "price", order: "desc", label: "Price, highest first" },
];

/**
 * The list view on a phone: the table's eight columns do not fit, so each
 * product is a card with every column's value and its actions in reach; the
 * column headers' sorting becomes one select.
 */
export function ProductListCards(props: ProductListCardsProps) {
  const { products, sort, onSortChange, canManage, onEdit, onDelete, busy } = props;
  const sortId = useId();
  return (
    <div className="grid gap-3">
      <div className="flex items-center gap-2">
        <label htmlFor={sortId} className="shrink-0 text-sm font-medium">
          Sort by
        </label>
        <Select
          id={sortId}
          value={`${sort.field}:${sort.order}`}
          onChange={(event) => {
            const chosen = SORTS.find((option) => `${option.field}:${option.order}` === event.target.value);
            if (chosen) onSortChange({ field: chosen.field, order: chosen.order });
          }}
        >
          {SORTS.map((option) => (
            <option key={`${option.field}:${option.order}`} value={`${option.field}:${option.order}`}>
              {option.label}
            </option>
          ))}
        </Select>
      </div>
      <ListCards
        label="Products"
        busy={busy}
        empty="No products found"
        items={products.map((product) => (
          <li key={product.id} className="min-w-0">
            <ProductListCard
              product={product}
              canManage={canManage}
              onEdit={() => onEdit(product)}
              onDelete={() => onDelete(product)}
            />
          </li>
        ))}
      />
    </div>
  );
}

function ProductListCard(props: { product: Product; canManage: boolean; onEdit: () => void; onDelete: () => void }) {
  const { product, canManage, onEdit, onDelete } = props;
  const titleId = useId();
  const details = [product.category, product.brand].filter(Boolean).join(" · ");
  return (
    <article
      aria-labelledby={titleId}
      className="flex min-w-0 flex-col gap-1.5 rounded-lg border bg-card p-3 text-card-foreground shadow-xs"
    >
      <div className="flex items-start justify-between gap-3">
        <h2 id={titleId} className="min-w-0 font-semibold leading-snug break-words">
          {product.name}
        </h2>
        <div className="shrink-0 text-right whitespace-nowrap tabular-nums">
          <p className="font-semibold">{formatKronor(product.price)}</p>
          {product.comparison_price ? (
            <p className="text-xs text-muted-foreground">{comparisonText(product.comparison_price)}</p>
          ) : null}
          {product.pant_code ? (
            <p className="text-xs text-muted-foreground">{pantListText(product.pant_code)}</p>
          ) : null}
        </div>
      </div>
      <p className="truncate text-sm text-muted-foreground">
        <span className="font-mono text-xs">{product.sku}</span>
        {details ? ` · ${details}` : null}
      </p>
      {product.barcode ? <p className="truncate font-mono text-xs text-muted-foreground">{product.barcode}</p> : null}
      <div className="flex items-center justify-between gap-2">
        <ProductBadges product={product} />
        {canManage ? (
          <div className="-mr-1.5 flex">
            <Button variant="ghost" size="icon" aria-label={`Edit ${product.name}`} onClick={onEdit}>
              <Pencil aria-hidden="true" />
            </Button>
            <Button
              variant="ghost"
              size="icon"
              aria-label={`Delete ${product.name}`}
              className="text-destructive"
              onClick={onDelete}
            >
              <Trash aria-hidden="true" />
            </Button>
          </div>
        ) : null}
      </div>
    </article>
  );
}
