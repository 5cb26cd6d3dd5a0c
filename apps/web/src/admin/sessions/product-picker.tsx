import type { Product } from "@glide/contracts";
import clsx from "clsx";
import { type KeyboardEvent, type Ref, useState } from "react";
import { formatKronor } from "../../lib/format.ts";
import { SEARCH_DEBOUNCE_MS, useDebouncedValue } from "../../lib/use-debounced-value.ts";
import type { FieldControlProps } from "../../ui/field.tsx";
import { Input } from "../../ui/input.tsx";
import { useProducts } from "../products/use-products.ts";

/** How many matches the list offers; staff narrow the search rather than scroll. */
const MATCHES = 8;

/**
 * A search box for a product (name, SKU, brand or barcode, as the Products
 * screen searches), asking the server once typing pauses, with its matches
 * in a list that the arrow keys walk, Enter picks and Escape closes (the
 * WAI-ARIA combobox pattern).
 */
export function ProductPicker({
  id,
  label,
  onPick,
  control,
  inputRef,
  inline = false,
}: {
  id: string;
  label: string;
  onPick: (product: Product) => void;
  /** A form's problem and hint for the box (a campaign's product), read with it. */
  control?: FieldControlProps;
  /** Where a form sends the focus to show a problem. */
  inputRef?: Ref<HTMLInputElement>;
  /** The matches push what follows down instead of floating over it: in a dialog, whose body would clip them. */
  inline?: boolean;
}) {
  const [text, setText] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const search = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const products = useProducts({ search, sort: "name", order: "asc", limit: MATCHES, offset: 0 });
  const typed = search.length > 0 && search === text.trim();
  const matches = typed ? (products.data?.items ?? []) : [];
  const listId = `${id}-matches`;
  const shown = open && typed;
  const listed = shown && matches.length > 0;

  const pick = (product: Product | undefined) => {
    if (!product) return;
    onPick(product);
    setText("");
    setOpen(false);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      setOpen(true);
      const step = event.key === "ArrowDown" ? 1 : -1;
      if (matches.length > 0) setActive((at) => (at + step + matches.length) % matches.length);
    } else if (event.key === "Enter" && listed) {
      event.preventDefault();
      pick(matches[active]);
    } else if (event.key === "Escape" && shown) {
      event.preventDefault();
      setOpen(false);
    }
  };

  return (
    <div className="relative grid gap-1 text-sm">
      <label htmlFor={id}>{label}</label>
      <Input
        id={id}
        ref={inputRef}
        {...control}
        role="combobox"
        autoComplete="off"
        placeholder="Name, SKU or barcode"
        aria-autocomplete="list"
        aria-expanded={listed}
        aria-controls={listId}
        aria-activedescendant={listed && matches[active] ? `${listId}-${matches[active].id}` : undefined}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setActive(0);
          setOpen(true);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setOpen(false)}
      />
      <div
        id={listId}
        role="listbox"
        aria-label={`${label}: matches`}
        hidden={!listed}
        className={clsx(
          "mt-1 grid w-full overflow-auto rounded-md border bg-popover p-1 shadow-md",
          inline ? "max-h-56" : "absolute top-full z-10 max-h-72 min-w-64",
        )}
      >
        {matches.map((product, index) => (
          // biome-ignore lint/a11y/useKeyWithClickEvents: the keys are the combobox's (aria-activedescendant); the focus stays in the box.
          <div
            key={product.id}
            id={`${listId}-${product.id}`}
            role="option"
            tabIndex={-1}
            aria-selected={index === active}
            className={clsx(
              "flex cursor-pointer justify-between gap-3 rounded px-2 py-1.5",
              index === active && "bg-accent text-accent-foreground",
            )}
            // Keep the focus in the box: a click picks before the box's blur closes the list.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => pick(product)}
            onMouseEnter={() => setActive(index)}
          >
            <span>
              {product.name} <span className="text-muted-foreground">{product.sku}</span>
            </span>
            <span className="tabular-nums">{formatKronor(product.price)}</span>
          </div>
        ))}
      </div>
      {shown && matches.length === 0 ? (
        <p role="status" className="text-muted-foreground">
          {products.isFetching ? "Searching…" : "No product matches"}
        </p>
      ) : null}
    </div>
  );
}
