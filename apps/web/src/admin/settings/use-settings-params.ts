import { SETTING_CATEGORIES, type SettingCategory } from "@glide/contracts";
import { useEffect, useState } from "react";
import { useLocation, useNavigationType, useSearchParams } from "react-router";
import { SEARCH_DEBOUNCE_MS, useDebouncedValue } from "../../lib/use-debounced-value.ts";

const DEFAULT_TAB: SettingCategory = "camera";
const isCategory = (value: string | null): value is SettingCategory =>
  (SETTING_CATEGORIES as readonly (string | null)[]).includes(value);

/**
 * The chosen tab and the search, kept in the URL (?tab=ai&search=yolo) like
 * the other screens keep their filters. The search box reads local state so
 * the list filters as one types; the URL follows once typing pauses.
 * Back/forward re-syncs it.
 */
export function useSettingsParams() {
  const [params, setParams] = useSearchParams();
  const urlSearch = params.get("search") ?? "";
  const urlTab = params.get("tab");
  const [search, setSearch] = useState(urlSearch);
  const settled = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const navigationType = useNavigationType();
  const location = useLocation();

  // Each write starts from the address as it is now, not as this render saw it: a tab chosen
  // while the search was settling is not undone by the search's write, nor the other way round.
  const write = (name: "tab" | "search", value: string | null) =>
    setParams(
      () => {
        const next = new URLSearchParams(window.location.search);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );

  // biome-ignore lint/correctness/useExhaustiveDependencies: re-sync only when history moves, not on our own writes.
  useEffect(() => {
    if (navigationType === "POP") setSearch(urlSearch);
  }, [location.key]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: written when typing settles, not when history moves the URL.
  useEffect(() => {
    if (settled !== urlSearch) write("search", settled || null);
  }, [settled]);

  return {
    tab: isCategory(urlTab) ? urlTab : DEFAULT_TAB,
    setTab: (tab: string) => write("tab", tab === DEFAULT_TAB || !isCategory(tab) ? null : tab),
    /** What is typed in the search box; the list is filtered by it at once. */
    search,
    setSearch,
  };
}
