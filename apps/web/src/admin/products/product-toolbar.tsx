import { PRODUCT_DEFAULTS } from "@glide/contracts";
import clsx from "clsx";
import { LayoutGrid, List } from "lucide-react";
import { Button } from "../../ui/button.tsx";
import { Select } from "../../ui/select.tsx";
import { MatchCount, SearchField } from "../shell/filter-controls.tsx";
import type { ViewMode } from "./use-product-view-prefs.ts";

interface ProductToolbarProps {
  search: string;
  onSearchChange: (value: string) => void;
  category: string;
  categories: string[];
  onCategoryChange: (value: string) => void;
  viewMode: ViewMode;
  onViewModeChange: (mode: ViewMode) => void;
  /** All matches (X-Total-Count), or undefined before the first answer. */
  total: number | undefined;
}

const views = [
  { mode: "list", label: "List view", Icon: List },
  { mode: "grid", label: "Grid view", Icon: LayoutGrid },
] as const;

export function ProductToolbar(props: ProductToolbarProps) {
  const { search, onSearchChange, category, categories, onCategoryChange, viewMode, onViewModeChange, total } = props;
  // A category in the URL that no product has any more still shows as chosen.
  const options =
    category === PRODUCT_DEFAULTS.all_categories || categories.includes(category)
      ? categories
      : [category, ...categories];

  return (
    <div className="flex flex-wrap items-center gap-2">
      <SearchField
        label="Search products"
        placeholder="Search by name, SKU, brand or barcode..."
        value={search}
        onChange={onSearchChange}
      />
      <Select
        aria-label="Category"
        className="min-w-0 flex-1 sm:w-52 sm:flex-none"
        value={category}
        onChange={(event) => onCategoryChange(event.target.value)}
      >
        <option value={PRODUCT_DEFAULTS.all_categories}>All Categories</option>
        {options.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </Select>
      <fieldset className="flex shrink-0 rounded-md border border-input bg-card p-0.5">
        <legend className="sr-only">View</legend>
        {views.map(({ mode, label, Icon }) => (
          <Button
            key={mode}
            variant="ghost"
            size="icon"
            aria-label={label}
            aria-pressed={viewMode === mode}
            className={clsx("size-8", viewMode === mode && "bg-accent text-accent-foreground")}
            onClick={() => onViewModeChange(mode)}
          >
            <Icon aria-hidden="true" />
          </Button>
        ))}
      </fieldset>
      <MatchCount total={total} one="product" many="products" />
    </div>
  );
}
