import { PAGE_SIZES, SESSION_STATUSES, SESSIONS_PAGE_SIZE, type SessionStatus } from "@glide/contracts";
import { useListParams } from "../../lib/use-list-params.ts";
import { dayParam } from "../../lib/use-url-params.ts";

export const SESSION_VIEWS = ["sessions", "disputes", "spot-checks"] as const;
export type SessionView = (typeof SESSION_VIEWS)[number];
export const SESSION_PAGE_SIZES: readonly number[] = PAGE_SIZES;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The Sessions screen's state, all in the URL: the view (?view=), the list's
 * store, status, entry days, search, page and size, and the open visit (?session=).
 */
export function useSessionParams() {
  const { params, write, setFilter, clearFilters, ...list } = useListParams(
    SESSION_PAGE_SIZES,
    SESSIONS_PAGE_SIZE.default,
  );
  const view = params.get("view");
  const status = params.get("status");
  const session = params.get("session");
  return {
    ...list,
    view: (SESSION_VIEWS as readonly string[]).includes(view ?? "") ? (view as SessionView) : "sessions",
    storeId: params.get("store") ?? "",
    status: ((SESSION_STATUSES as readonly string[]).includes(status ?? "") ? status : "") as SessionStatus | "",
    from: dayParam(params, "from"),
    to: dayParam(params, "to"),
    /** The visit whose detail is open, or null. */
    session: session && UUID.test(session) ? session : null,
    // A new view or an opened visit is a step the Back button undoes.
    setView: (next: SessionView) => write({ view: next === "sessions" ? null : next }, { replace: false }),
    setStoreId: (value: string) => setFilter("store", value),
    setStatus: (value: string) => setFilter("status", value),
    setFrom: (value: string) => setFilter("from", value),
    setTo: (value: string) => setFilter("to", value),
    // Opening is a step Back undoes; closing replaces it, so Back does not reopen what was just closed.
    openSession: (id: string | null) => write({ session: id }, { replace: id === null }),
    clearFilters: () => clearFilters(["store", "status", "from", "to"]),
  };
}

export type SessionParams = ReturnType<typeof useSessionParams>;
