import { PRODUCT_DEFAULTS, PRODUCT_SORT_FIELDS } from "@glide/contracts";
import { useState } from "react";
import { effectiveValue, useEffectiveSettings } from "../settings/use-settings.ts";

export type ViewMode = "list" | "grid";
export type SortField = (typeof PRODUCT_SORT_FIELDS)[number];
export type SortOrder = "asc" | "desc";

/** The spec keeps these three in local storage rather than in the URL. */
export const PRODUCT_STORAGE_KEYS = {
  viewMode: "products_view_mode",
  sortField: "products_sort_field",
  sortOrder: "products_sort_order",
} as const;

/** The choice saved in this browser, or null when there is none (or storage is unavailable). */
function readChoice<T extends string>(key: string, allowed: readonly T[]): T | null {
  try {
    const stored = localStorage.getItem(key);
    return allowed.find((value) => value === stored) ?? null;
  } catch {
    return null;
  }
}

function writeChoice(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Storage may be unavailable (private mode); the choice then lasts for this page only.
  }
}

/** A choice saved in this browser; `fallback` while none is saved, so a later default still applies. */
function useStoredChoice<T extends string>(key: string, allowed: readonly T[], fallback: T) {
  const [value, setValue] = useState<T | null>(() => readChoice(key, allowed));
  const update = (next: T) => {
    setValue(next);
    writeChoice(key, next);
  };
  return [value ?? fallback, update] as const;
}

export interface ProductSort {
  field: SortField;
  order: SortOrder;
}

/** View mode and sort, remembered in this browser; until a view is chosen here, the console's default (ui/defaults). */
export function useProductViewPrefs() {
  const effective = useEffectiveSettings();
  const [viewMode, setViewMode] = useStoredChoice<ViewMode>(
    PRODUCT_STORAGE_KEYS.viewMode,
    ["list", "grid"],
    effectiveValue(effective.data, "ui", "defaults")?.view_mode ?? PRODUCT_DEFAULTS.view_mode,
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
