import { useEffect } from "react";
import { useSearchParams } from "react-router";

/** New values for some of the URL's keys; "" or null removes a key. */
export type ParamChanges = Record<string, string | null>;

/**
 * The URL's query, and a writer that changes only the keys it is given (replacing the
 * history entry unless told to push one). The writer starts from the address bar, not the
 * last render: the router commits a new URL in a transition, and a write made before that
 * (the search settling just after "Clear filters") would otherwise bring back what was cleared.
 */
export function useUrlParams() {
  const [params, setParams] = useSearchParams();
  // Once the router has committed the last write, the address bar is the truth again. An
  // earlier write committed meanwhile does not count: the later one is still on its way.
  useEffect(() => {
    if (unsettled && unsettled.path === window.location.pathname && sameQuery(unsettled.query, params))
      unsettled = null;
  }, [params]);
  const write = (
    changes: ParamChanges | ((latest: URLSearchParams) => ParamChanges),
    { replace = true }: { replace?: boolean } = {},
  ) => {
    const before = latestQuery();
    const next = new URLSearchParams(before);
    // Changes that depend on other keys read them here, where a write not yet committed is seen.
    const resolved = typeof changes === "function" ? changes(new URLSearchParams(before)) : changes;
    for (const [key, value] of Object.entries(resolved)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    // Nothing changes: no navigation, so nothing would ever settle it.
    if (sameQuery(before, next)) return;
    unsettled = { path: window.location.pathname, query: next.toString() };
    setParams(next, { replace });
  };
  return [params, write] as const;
}

/**
 * The query last written and not yet committed by the router: two writes in a row (From, then
 * To) must build on each other, and the address bar shows the first only once it is committed.
 */
let unsettled: { path: string; query: string } | null = null;
// Back and Forward go to an address of their own: any write still unsettled is history.
if (typeof window !== "undefined") window.addEventListener("popstate", () => (unsettled = null));

function sameQuery(query: string, params: URLSearchParams): boolean {
  return new URLSearchParams(query).toString() === new URLSearchParams(params).toString();
}

function latestQuery(): string {
  return unsettled && unsettled.path === window.location.pathname ? unsettled.query : window.location.search;
}

/** A day (YYYY-MM-DD, the admin's own calendar) from the URL, or "" when absent or malformed. */
export function dayParam(params: URLSearchParams, key: string): string {
  const value = params.get(key);
  return value !== null && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : "";
}
