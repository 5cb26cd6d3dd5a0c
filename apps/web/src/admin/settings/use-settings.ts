import { type SettingCategory, settingSchema } from "@glide/contracts";
import { useQuery } from "@tanstack/react-query";
import { api } from "../../lib/api.ts";

export const settingKeys = {
  all: ["settings"] as const,
  details: () => [...settingKeys.all, "detail"] as const,
  detail: (category: SettingCategory, key: string) => [...settingKeys.details(), category, key] as const,
};

const settingValueSchema = settingSchema.pick({ value: true });

/** One setting's value (GET /api/v1/settings/{category}/{key}); the caller narrows its shape. */
export function useSettingValue(category: SettingCategory, key: string) {
  return useQuery({
    queryKey: settingKeys.detail(category, key),
    queryFn: async ({ signal }) =>
      (
        await api.get(`/api/v1/settings/${category}/${encodeURIComponent(key)}`, settingValueSchema, {
          signal,
        })
      ).value,
    // Dropdown sources change rarely; a page visit need not fetch them again.
    staleTime: 10 * 60_000,
  });
}
