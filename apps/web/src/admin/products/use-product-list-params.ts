import { PAGE_SIZES, PRODUCT_DEFAULTS } from "@glide/contracts";
import { useListParams } from "../../lib/use-list-params.ts";
import { effectiveValue, useEffectiveSettings } from "../settings/use-settings.ts";

/** The page sizes offered: the spec's four, and the configured default when it is another. */
function pageSizesWith(defaultSize: number): number[] {
  const sizes: number[] = [...PAGE_SIZES];
  return sizes.includes(defaultSize) ? sizes : [...sizes, defaultSize].sort((a, b) => a - b);
}

/**
 * The list's search, category, page and page size, kept in the URL (?search=&category=&page=&size=).
 * Without ?size= the page size is the console's default (Settings, ui/defaults).
 */
export function useProductListParams() {
  const effective = useEffectiveSettings();
  const defaultSize = effectiveValue(effective.data, "ui", "defaults")?.page_size ?? PRODUCT_DEFAULTS.page_size;
  const pageSizes = pageSizesWith(defaultSize);
  const { params, write, setFilter, clearFilters, ...list } = useListParams(pageSizes, defaultSize);
  return {
    ...list,
    category: params.get("category") || PRODUCT_DEFAULTS.all_categories,
    /** The choices of the page size select. */
    pageSizes,
    setCategory: (value: string) => setFilter("category", value === PRODUCT_DEFAULTS.all_categories ? null : value),
  };
}
