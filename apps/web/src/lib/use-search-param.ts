import { useEffect, useState } from "react";
import { useLocation, useNavigationType, useSearchParams } from "react-router";
import { SEARCH_DEBOUNCE_MS, useDebouncedValue } from "./use-debounced-value.ts";

/**
 * A text filter kept in the URL (?key=value). The input reads local state so typing stays
 * instant; the URL, and so the request, follows once typing pauses. Back/forward re-syncs it.
 * Returns the typed text, its setter, and the settled value to search with.
 */
export function useSearchParam(key: string): [string, (value: string) => void, string] {
  const [params, setParams] = useSearchParams();
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
    if (settled === urlValue) return;
    // From the address as it is now: react-router's `prev` can be a render old, and would undo
    // another parameter (a page, a tab) changed while the typing settled.
    setParams(
      () => {
        const copy = new URLSearchParams(window.location.search);
        if (settled) copy.set(key, settled);
        else copy.delete(key);
        return copy;
      },
      { replace: true },
    );
  }, [settled]);

  return [value, setValue, urlValue];
}
