import {
  type CustomSettings,
  effectiveSettingsSchema,
  SETTING_VALUE_SCHEMAS,
  type SettingCategory,
  type SettingValues,
  settingHistorySchema,
  settingSchema,
  storeOverridesSchema,
} from "@glide/contracts";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { api } from "../../lib/api.ts";
import { storeKeys } from "../lib/store-list.ts";

export const settingKeys = {
  all: ["settings"] as const,
  lists: () => [...settingKeys.all, "list"] as const,
  details: () => [...settingKeys.all, "detail"] as const,
  detail: (category: SettingCategory, key: string) => [...settingKeys.details(), category, key] as const,
  effective: (storeId?: string) => [...settingKeys.all, "effective", storeId ?? "global"] as const,
  overrides: (storeId: string) => [...settingKeys.all, "overrides", storeId] as const,
  history: (category?: SettingCategory) => [...settingKeys.all, "history", category ?? "all"] as const,
};

const settingPath = (category: SettingCategory, key: string) =>
  `/api/v1/settings/${category}/${encodeURIComponent(key)}`;
const overridesPath = (storeId: string) => `/api/v1/settings/stores/${encodeURIComponent(storeId)}`;
const settingListSchema = settingSchema.array();
const settingValueSchema = settingSchema.pick({ value: true });

/** Every setting (GET /api/v1/settings/); the screen filters by tab and search itself, the list is short. */
export function useSettings() {
  return useQuery({
    queryKey: settingKeys.lists(),
    queryFn: ({ signal }) => api.get("/api/v1/settings/", settingListSchema, { signal }),
  });
}

/** One setting's value (GET /api/v1/settings/{category}/{key}); the caller narrows its shape. */
export function useSettingValue(category: SettingCategory, key: string) {
  return useQuery({
    queryKey: settingKeys.detail(category, key),
    queryFn: async ({ signal }) => (await api.get(settingPath(category, key), settingValueSchema, { signal })).value,
    // Dropdown sources change rarely; a page visit need not fetch them again.
    staleTime: 10 * 60_000,
  });
}

/**
 * Every setting's value as features use it (GET /api/v1/settings/effective):
 * the store's override, else the global value, else the built-in one.
 * Without a store, the global values: what a new store or product starts with.
 */
export function useEffectiveSettings(storeId?: string) {
  return useQuery({
    queryKey: settingKeys.effective(storeId),
    queryFn: ({ signal }) =>
      api.get("/api/v1/settings/effective", effectiveSettingsSchema, { signal, query: { store_id: storeId } }),
  });
}

/**
 * One effective value, checked against its key's contract schema; undefined
 * while loading, on failure, or when the value does not fit (the caller then
 * keeps its own default).
 */
export function effectiveValue<C extends SettingCategory, K extends keyof SettingValues[C] & string>(
  settings: z.infer<typeof effectiveSettingsSchema> | undefined,
  category: C,
  key: K,
): SettingValues[C][K] | undefined {
  const value = settings?.[category]?.[key];
  if (value === undefined) return undefined;
  const schema = (SETTING_VALUE_SCHEMAS[category] as Record<string, z.ZodType>)[key];
  const parsed = schema?.safeParse(value);
  return parsed?.success ? (parsed.data as SettingValues[C][K]) : undefined;
}

/** A store's overrides (GET /api/v1/settings/stores/{id}); off until a store is chosen. */
export function useStoreOverrides(storeId: string | undefined) {
  return useQuery({
    queryKey: settingKeys.overrides(storeId ?? ""),
    queryFn: ({ signal }) => api.get(overridesPath(storeId ?? ""), storeOverridesSchema, { signal }),
    enabled: Boolean(storeId),
  });
}

const HISTORY_PAGE = 20;

/** Changes of global values and store overrides, newest first, a page at a time ("Load more"). */
export function useSettingHistory(category?: SettingCategory) {
  return useInfiniteQuery({
    queryKey: settingKeys.history(category),
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      api.get("/api/v1/settings/history", settingHistorySchema, {
        signal,
        query: { category, limit: HISTORY_PAGE, offset: pageParam },
      }),
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.items.length, 0);
      return loaded < last.total && last.items.length > 0 ? loaded : undefined;
    },
  });
}

/** A global change moves the list, that key, every effective value and the history; nothing else. */
export function useUpdateSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ category, key, value }: { category: SettingCategory; key: string; value: unknown }) =>
      api.put(settingPath(category, key), { value }, settingSchema),
    onSuccess: (saved) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: settingKeys.lists() }),
        queryClient.invalidateQueries({ queryKey: settingKeys.detail(saved.category, saved.key) }),
        queryClient.invalidateQueries({ queryKey: [...settingKeys.all, "effective"] }),
        queryClient.invalidateQueries({ queryKey: [...settingKeys.all, "history"] }),
      ]),
  });
}

/** What a store's override is: the value, or undefined when the store follows the global one. */
export function overrideOf(custom: CustomSettings | undefined, category: string, key: string): unknown {
  const values = custom?.[category];
  return values && Object.hasOwn(values, key) ? values[key] : undefined;
}

/** The whole object with this key set to `value`, or taken out when `value` is undefined; never mutates. */
export function withOverride(custom: CustomSettings, category: string, key: string, value: unknown): CustomSettings {
  const { [key]: _old, ...rest } = custom[category] ?? {};
  const keys = value === undefined ? rest : { ...rest, [key]: value };
  const { [category]: _category, ...others } = custom;
  return Object.keys(keys).length > 0 ? { ...others, [category]: keys } : others;
}

/**
 * Sets (or, with value undefined, removes) one store override. The API takes
 * the whole nested object, so the store's current one is read just before and
 * merged: an override set meanwhile by someone else is kept.
 */
export function useSetStoreOverride() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (change: { storeId: string; category: SettingCategory; key: string; value: unknown }) => {
      const current = await api.get(overridesPath(change.storeId), storeOverridesSchema);
      const settings = withOverride(current.custom_settings, change.category, change.key, change.value);
      return api.put(overridesPath(change.storeId), { settings }, storeOverridesSchema);
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(settingKeys.overrides(saved.store_id), saved);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: settingKeys.effective(saved.store_id) }),
        queryClient.invalidateQueries({ queryKey: [...settingKeys.all, "history"] }),
        // Store cards and the store dialog show the overrides the store list carries.
        queryClient.invalidateQueries({ queryKey: storeKeys.lists() }),
      ]);
    },
  });
}
