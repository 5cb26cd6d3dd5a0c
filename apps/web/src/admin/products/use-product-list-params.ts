import { PAGE_SIZES, PRODUCT_DEFAULTS } from "@glide/contracts";
import { useEffect, useState } from "react";
import { useLocation, useNavigationType, useSearchParams } from "react-router";
import { SEARCH_DEBOUNCE_MS, useDebouncedValue } from "../../lib/use-debounced-value.ts";
import { effectiveValue, useEffectiveSettings } from "../settings/use-settings.ts";

type Changes = Record<string, string | null>;

function positiveInt(value: string | null): number | null {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : null;
}

/** The page sizes offered: the spec's four, and the configured default when it is another. */
function pageSizesWith(defaultSize: number): number[] {
  const sizes: number[] = [...PAGE_SIZES];
  return sizes.includes(defaultSize) ? sizes : [...sizes, defaultSize].sort((a, b) => a - b);
}

function pageSizeOf(value: string | null, sizes: readonly number[], defaultSize: number): number {
  const n = Number(value);
  return value !== null && sizes.includes(n) ? n : defaultSize;
}

/**
 * The list's search, category, page and page size, kept in the URL (?search=&category=&page=&size=).
 * One hook so that a new search or filter also goes back to page 1 in the same URL update.
 * The search box reads local state so typing stays instant; the URL, and so the request,
 * follows once typing pauses (one request, not one per key). Back/forward re-syncs it.
 * Without ?size= the page size is the console's default (Settings, ui/defaults).
 */
export function useProductListParams() {
  const [params, setParams] = useSearchParams();
  const effective = useEffectiveSettings();
  const defaultSize = effectiveValue(effective.data, "ui", "defaults")?.page_size ?? PRODUCT_DEFAULTS.page_size;
  const pageSizes = pageSizesWith(defaultSize);
  const urlSearch = params.get("search") ?? "";
  const [search, setSearchText] = useState(urlSearch);
  const settled = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const navigationType = useNavigationType();
  const location = useLocation();

  // biome-ignore lint/correctness/useExhaustiveDependencies: re-sync only when history moves, not on our own writes.
  useEffect(() => {
    if (navigationType === "POP") setSearchText(urlSearch);
  }, [location.key]);

  const write = (changes: Changes) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [key, value] of Object.entries(changes)) {
          if (value) next.set(key, value);
          else next.delete(key);
        }
        return next;
      },
      { replace: true },
    );

  // biome-ignore lint/correctness/useExhaustiveDependencies: written when typing settles, not when history moves the URL.
  useEffect(() => {
    if (settled !== urlSearch) write({ search: settled, page: null });
  }, [settled]);

  return {
    /** What is typed in the search box. */
    search,
    /** What the list is searched with: the typed text once typing has paused. */
    query: urlSearch,
    category: params.get("category") || PRODUCT_DEFAULTS.all_categories,
    page: positiveInt(params.get("page")) ?? 1,
    pageSize: pageSizeOf(params.get("size"), pageSizes, defaultSize),
    /** The choices of the page size select. */
    pageSizes,
    setSearch: setSearchText,
    setCategory: (value: string) =>
      write({ category: value === PRODUCT_DEFAULTS.all_categories ? null : value, page: null }),
    setPage: (page: number) => write({ page: page > 1 ? String(page) : null }),
    setPageSize: (size: number) => write({ size: size === defaultSize ? null : String(size), page: null }),
    /** Back to the first page, e.g. when the sort changes. */
    resetPage: () => write({ page: null }),
  };
}
