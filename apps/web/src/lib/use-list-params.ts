import { useSearchParam } from "./use-search-param.ts";
import { useUrlParams } from "./use-url-params.ts";

function positiveInt(value: string | null): number | null {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : null;
}

/**
 * A console list's state in the URL (?search=&page=&size=, plus the screen's own filters).
 * The search box reads local state so typing stays instant; the URL, and so the request,
 * follows once typing pauses. Any new search or filter goes back to page 1 in the same URL
 * update. Without ?size= the page size is `defaultSize`.
 */
export function useListParams(pageSizes: readonly number[], defaultSize: number) {
  const [params, write] = useUrlParams();
  const [search, setSearch, query] = useSearchParam("search", { page: null });
  const size = params.get("size");
  return {
    params,
    write,
    /** What is typed in the search box. */
    search,
    /** What the list is searched with: the typed text once typing has paused. */
    query,
    page: positiveInt(params.get("page")) ?? 1,
    pageSize: size !== null && pageSizes.includes(Number(size)) ? Number(size) : defaultSize,
    setSearch,
    /** One filter changed: back to the first page. */
    setFilter: (key: string, value: string | null) => write({ [key]: value, page: null }),
    setPage: (page: number) => write({ page: page > 1 ? String(page) : null }),
    setPageSize: (next: number) => write({ size: next === defaultSize ? null : String(next), page: null }),
    /** Back to the first page, e.g. when the sort changes. */
    resetPage: () => write({ page: null }),
    /** Empties the search box and removes the given filters, at once. */
    clearFilters: (keys: readonly string[]) => {
      setSearch("");
      write({ search: null, page: null, ...Object.fromEntries(keys.map((key) => [key, null])) });
    },
  };
}
