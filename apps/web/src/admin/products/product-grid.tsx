import type { Product } from "@glide/contracts";
import { Pencil, Trash } from "lucide-react";
import { useId } from "react";
import { Button } from "../../ui/button.tsx";
import { comparisonText } from "./comparison-price.ts";
import { pantListText } from "./pant.ts";
import { ProductBadges } from "./product-badges.tsx";
import { ProductImage } from "./product-image.tsx";

interface ProductGridProps {
  products: Product[];
  /** Store admins only read: no edit or delete buttons. */
  canManage: boolean;
  onEdit: (product: Product) => void;
  onDelete: (product: Product) => void;
  busy?: boolean;
}

/** Two to five columns of cards, by width. */
export function ProductGrid({ products, canManage, onEdit, onDelete, busy }: ProductGridProps) {
  if (products.length === 0) {
    return <p className="rounded-lg border bg-card py-12 text-center text-muted-foreground">No products found</p>;
  }
  return (
    <ul
      aria-label="Products"
      aria-busy={busy}
      className={`grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4 lg:grid-cols-4 xl:grid-cols-5 ${busy ? "opacity-60" : ""}`}
    >
      {products.map((product) => (
        <li key={product.id} className="min-w-0">
          <ProductCard
            product={product}
            canManage={canManage}
            onEdit={() => onEdit(product)}
            onDelete={() => onDelete(product)}
          />
        </li>
      ))}
    </ul>
  );
}

interface ProductCardProps {
  product: Product;
  canManage: boolean;
  onEdit: () => void;
  onDelete: () => void;
}

function ProductCard({ product, canManage, onEdit, onDelete }: ProductCardProps) {
  const titleId = useId();
  return (
    <article
      aria-labelledby={titleId}
      className="flex h-full min-w-0 flex-col overflow-hidden rounded-lg border bg-card text-card-foreground shadow-xs"
    >
      <ProductImage url={product.image_url} alt={product.name} className="aspect-4/3 w-full border-b" />
      <div className="flex flex-1 flex-col gap-1 p-3">
        <h2 id={titleId} className="line-clamp-2 text-sm font-semibold leading-snug break-words">
          {product.name}
        </h2>
        <p className="truncate font-mono text-xs text-muted-foreground">{product.sku}</p>
        <ProductBadges product={product} className="pt-1" />
        <div className="mt-auto flex flex-wrap items-center justify-between gap-x-2 pt-1">
          {/* The spec shows the raw price here, unlike the list's currency format. */}
          <div className="tabular-nums">
            <p className="font-semibold">{product.price} kr</p>
            {product.comparison_price ? (
              <p className="text-xs text-muted-foreground">{comparisonText(product.comparison_price)}</p>
            ) : null}
            {product.pant_code ? (
              <p className="text-xs text-muted-foreground">{pantListText(product.pant_code)}</p>
            ) : null}
          </div>
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
      </div>
    </article>
  );
}
