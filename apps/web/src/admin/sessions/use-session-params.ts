import { PAGE_SIZES, SESSION_STATUSES, SESSIONS_PAGE_SIZE, type SessionStatus } from "@glide/contracts";
import { useEffect, useState } from "react";
import { useLocation, useNavigationType, useSearchParams } from "react-router";
import { SEARCH_DEBOUNCE_MS, useDebouncedValue } from "../../lib/use-debounced-value.ts";

type Changes = Record<string, string | null>;

export const SESSION_VIEWS = ["sessions", "disputes", "spot-checks"] as const;
export type SessionView = (typeof SESSION_VIEWS)[number];
export const SESSION_PAGE_SIZES: readonly number[] = PAGE_SIZES;
const DEFAULT_SIZE: number = SESSIONS_PAGE_SIZE.default;

const isDay = (value: string | null): value is string => value !== null && /^\d{4}-\d{2}-\d{2}$/.test(value);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function positiveInt(value: string | null): number | null {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : null;
}

/**
 * The Sessions screen's state, all in the URL: the view (?view=), the list's
 * store, status, entry days, search, page and size, and the open visit
 * (?session=). The search box reads local state so typing stays instant;
 * the URL follows once typing pauses, and any new filter goes back to page 1.
 */
export function useSessionParams() {
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

  // From the address bar, not the last render: the router commits a new URL in a transition, and a write made
  // before that (the search settling just after "Clear filters") would otherwise bring back what was cleared.
  const current = () => new URLSearchParams(window.location.search);
  const write = (changes: Changes, replace = true) =>
    setParams(
      () => {
        const next = current();
        for (const [key, value] of Object.entries(changes)) {
          if (value) next.set(key, value);
          else next.delete(key);
        }
        return next;
      },
      { replace },
    );

  // biome-ignore lint/correctness/useExhaustiveDependencies: written when typing settles, not when history moves the URL.
  useEffect(() => {
    if (settled !== (current().get("search") ?? "")) write({ search: settled, page: null });
  }, [settled]);

  const view = params.get("view");
  const status = params.get("status");
  const from = params.get("from");
  const to = params.get("to");
  const size = Number(params.get("size"));
  const session = params.get("session");
  return {
    view: (SESSION_VIEWS as readonly string[]).includes(view ?? "") ? (view as SessionView) : "sessions",
    /** What is typed in the search box. */
    search,
    /** What the list is searched with: the typed text once typing has paused. */
    query: urlSearch,
    storeId: params.get("store") ?? "",
    status: ((SESSION_STATUSES as readonly string[]).includes(status ?? "") ? status : "") as SessionStatus | "",
    from: isDay(from) ? from : "",
    to: isDay(to) ? to : "",
    page: positiveInt(params.get("page")) ?? 1,
    pageSize: SESSION_PAGE_SIZES.includes(size) ? size : DEFAULT_SIZE,
    /** The visit whose detail is open, or null. */
    session: session && UUID.test(session) ? session : null,
    // A new view or an opened visit is a step the Back button undoes.
    setView: (next: SessionView) => write({ view: next === "sessions" ? null : next }, false),
    setSearch: setSearchText,
    setStoreId: (value: string) => write({ store: value, page: null }),
    setStatus: (value: string) => write({ status: value, page: null }),
    setFrom: (value: string) => write({ from: value, page: null }),
    setTo: (value: string) => write({ to: value, page: null }),
    setPage: (page: number) => write({ page: page > 1 ? String(page) : null }),
    setPageSize: (next: number) => write({ size: next === DEFAULT_SIZE ? null : String(next), page: null }),
    // Opening is a step Back undoes; closing replaces it, so Back does not reopen what was just closed.
    openSession: (id: string | null) => write({ session: id }, id === null),
    clearFilters: () => {
      setSearchText("");
      write({ search: null, store: null, status: null, from: null, to: null, page: null });
    },
  };
}

export type SessionParams = ReturnType<typeof useSessionParams>;
