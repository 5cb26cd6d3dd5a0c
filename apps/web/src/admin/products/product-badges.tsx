import type { Product } from "@glide/contracts";
import clsx from "clsx";
import { Badge } from "../../ui/badge.tsx";

/** Active/Inactive, and the age limit when the product has one ("18+"). */
export function ProductBadges({ product, className }: { product: Product; className?: string }) {
  return (
    <span className={clsx("inline-flex flex-wrap items-center gap-1.5", className)}>
      <Badge variant={product.is_active ? "success" : "secondary"}>{product.is_active ? "Active" : "Inactive"}</Badge>
      {product.age_limit ? (
        <Badge variant="outline" title={`Age limit ${product.age_limit}`}>
          {product.age_limit}+
        </Badge>
      ) : null}
    </span>
  );
}
