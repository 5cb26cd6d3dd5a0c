import { PRODUCT_DEFAULTS, PRODUCT_SORT_FIELDS } from "@glide/contracts";
import { useState } from "react";

export type ViewMode = "list" | "grid";
export type SortField = (typeof PRODUCT_SORT_FIELDS)[number];
export type SortOrder = "asc" | "desc";

/** The spec keeps these three in local storage rather than in the URL. */
export const PRODUCT_STORAGE_KEYS = {
  viewMode: "products_view_mode",
  sortField: "products_sort_field",
  sortOrder: "products_sort_order",
} as const;

function readChoice<T extends string>(key: string, allowed: readonly T[], fallback: T): T {
  try {
    const stored = localStorage.getItem(key);
    return allowed.find((value) => value === stored) ?? fallback;
  } catch {
    return fallback;
  }
}

function writeChoice(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Storage may be unavailable (private mode); the choice then lasts for this page only.
  }
}

function useStoredChoice<T extends string>(key: string, allowed: readonly T[], fallback: T) {
  const [value, setValue] = useState<T>(() => readChoice(key, allowed, fallback));
  const update = (next: T) => {
    setValue(next);
    writeChoice(key, next);
  };
  return [value, update] as const;
}

export interface ProductSort {
  field: SortField;
  order: SortOrder;
}

/** View mode and sort, remembered in this browser. */
export function useProductViewPrefs() {
  const [viewMode, setViewMode] = useStoredChoice<ViewMode>(
    PRODUCT_STORAGE_KEYS.viewMode,
    ["list", "grid"],
    PRODUCT_DEFAULTS.view_mode,
  );
  const [field, setField] = useStoredChoice<SortField>(
    PRODUCT_STORAGE_KEYS.sortField,
    PRODUCT_SORT_FIELDS,
    PRODUCT_DEFAULTS.sort_field,
  );
  const [order, setOrder] = useStoredChoice<SortOrder>(
    PRODUCT_STORAGE_KEYS.sortOrder,
    ["asc", "desc"],
    PRODUCT_DEFAULTS.sort_order,
  );

  /** The active header toggles its order; a new header starts ascending. */
  const sortBy = (next: SortField) => {
    if (next === field) {
      setOrder(order === "asc" ? "desc" : "asc");
    } else {
      setField(next);
      setOrder("asc");
    }
  };

  /** Phones choose field and order in one select instead of clicking headers. */
  const setSort = (next: ProductSort) => {
    setField(next.field);
    setOrder(next.order);
  };

  return { viewMode, setViewMode, sort: { field, order } satisfies ProductSort, sortBy, setSort };
}
