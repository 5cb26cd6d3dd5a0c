import { AUDIT_PAGE_SIZE, PAGE_SIZES } from "@glide/contracts";
import { useEffect, useState } from "react";
import { useLocation, useNavigationType, useSearchParams } from "react-router";
import { SEARCH_DEBOUNCE_MS, useDebouncedValue } from "../../lib/use-debounced-value.ts";

type Changes = Record<string, string | null>;

/** The console's usual page sizes; the largest is the API's limit. */
export const AUDIT_PAGE_SIZES: readonly number[] = PAGE_SIZES;
const DEFAULT_SIZE = AUDIT_PAGE_SIZE.default;

const isDay = (value: string | null): value is string => value !== null && /^\d{4}-\d{2}-\d{2}$/.test(value);

function positiveInt(value: string | null): number | null {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : null;
}

/**
 * The audit log's search, action filter, date range, page and page size, kept
 * in the URL (?search=&action=&from=&to=&page=&size=), like the products list:
 * the search box reads local state so typing stays instant, the URL follows
 * once typing pauses, and any new filter goes back to page 1 in the same update.
 */
export function useAuditParams() {
  const [params, setParams] = useSearchParams();
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

  const size = Number(params.get("size"));
  const from = params.get("from");
  const to = params.get("to");
  return {
    /** What is typed in the search box. */
    search,
    /** What the log is searched with: the typed text once typing has paused. */
    query: urlSearch,
    action: params.get("action") ?? "",
    /** Days (YYYY-MM-DD) in the admin's own calendar, or "". */
    from: isDay(from) ? from : "",
    to: isDay(to) ? to : "",
    page: positiveInt(params.get("page")) ?? 1,
    pageSize: AUDIT_PAGE_SIZES.includes(size) ? size : DEFAULT_SIZE,
    setSearch: setSearchText,
    setAction: (value: string) => write({ action: value, page: null }),
    setFrom: (value: string) => write({ from: value, page: null }),
    setTo: (value: string) => write({ to: value, page: null }),
    setPage: (page: number) => write({ page: page > 1 ? String(page) : null }),
    setPageSize: (next: number) => write({ size: next === DEFAULT_SIZE ? null : String(next), page: null }),
    clearFilters: () => {
      setSearchText("");
      write({ search: null, action: null, from: null, to: null, page: null });
    },
  };
}

/** The first moment of a local day, as the API's ISO time. */
export const startOfDay = (day: string) => new Date(`${day}T00:00:00`).toISOString();
/** The last millisecond of a local day: the API takes a time `to` inclusive. */
export const endOfDay = (day: string) => new Date(`${day}T23:59:59.999`).toISOString();
