import { useEffect, useState } from "react";
import { useLocation, useNavigationType } from "react-router";
import { SEARCH_DEBOUNCE_MS, useDebouncedValue } from "./use-debounced-value.ts";
import { type ParamChanges, useUrlParams } from "./use-url-params.ts";

/**
 * A text filter kept in the URL (?key=value). The input reads local state so typing stays
 * instant; the URL, and so the request, follows once typing pauses, together with
 * `alsoOnSettle` (a list goes back to page 1). Back/forward re-syncs it.
 * Returns the typed text, its setter, and the settled value to search with.
 */
export function useSearchParam(
  key: string,
  alsoOnSettle: ParamChanges = {},
): [string, (value: string) => void, string] {
  const [params, write] = useUrlParams();
  const urlValue = params.get(key) ?? "";
  const [value, setValue] = useState(urlValue);
  const settled = useDebouncedValue(value, SEARCH_DEBOUNCE_MS);
  const navigationType = useNavigationType();
  const location = useLocation();

  // biome-ignore lint/correctness/useExhaustiveDependencies: re-sync only when history moves, not on our own writes.
  useEffect(() => {
    if (navigationType === "POP") setValue(urlValue);
  }, [location.key]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: written when typing settles, not when history moves the URL.
  useEffect(() => {
    // Against the address as it is now: the last render's URL can be a write behind ("Clear filters").
    const current = new URLSearchParams(window.location.search).get(key) ?? "";
    if (settled !== current) write({ ...alsoOnSettle, [key]: settled });
  }, [settled]);

  return [value, setValue, urlValue];
}
