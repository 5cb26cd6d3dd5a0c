import { X } from "lucide-react";
import { type Ref, useId } from "react";
import { formatKronor } from "../../lib/format.ts";
import { ProductPicker } from "../sessions/product-picker.tsx";
import type { OfferProduct } from "./offer-form.ts";

interface OfferProductsFieldProps {
  products: OfferProduct[];
  onChange: (products: OfferProduct[]) => void;
  onPick: (product: OfferProduct) => void;
  error: string | undefined;
  /** Where the form sends the focus to show a problem. */
  inputRef: Ref<HTMLInputElement>;
}

/**
 * The products an offer takes: found with the product picker, shown as chips
 * that each remove their product. Several make a mix-and-match offer.
 */
export function OfferProductsField({ products, onChange, onPick, error, inputRef }: OfferProductsFieldProps) {
  const id = useId();
  return (
    <div className="grid gap-1.5 sm:col-span-2">
      <ProductPicker
        id={id}
        label="Products"
        inline
        inputRef={inputRef}
        control={{
          "aria-invalid": error ? true : undefined,
          "aria-describedby": `${id}-picked${error ? ` ${id}-error` : ""}`,
        }}
        onPick={(product) => onPick({ id: product.id, name: product.name, sku: product.sku, price: product.price })}
      />
      <div id={`${id}-picked`} className="text-sm">
        {products.length === 0 ? (
          <p className="text-muted-foreground">No products chosen yet</p>
        ) : (
          <ul aria-label="Chosen products" className="flex flex-wrap gap-1.5">
            {products.map((product) => (
              <li
                key={product.id}
                className="flex items-center gap-1 rounded-full border bg-secondary py-0.5 pr-0.5 pl-2.5 text-secondary-foreground"
              >
                <span>
                  {product.name}{" "}
                  <span className="text-muted-foreground">
                    {product.sku} · {formatKronor(product.price)}
                  </span>
                </span>
                <button
                  type="button"
                  aria-label={`Remove ${product.name}`}
                  className="rounded-full p-1 hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring"
                  onClick={() => onChange(products.filter((p) => p.id !== product.id))}
                >
                  <X aria-hidden="true" className="size-3.5" />
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
      {error ? (
        <p id={`${id}-error`} className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
