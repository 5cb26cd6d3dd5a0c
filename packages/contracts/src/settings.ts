import { z } from "zod";

export const SETTING_CATEGORIES = ["camera", "product", "store", "ai", "ui"] as const;
export const settingCategorySchema = z.enum(SETTING_CATEGORIES);
export type SettingCategory = z.infer<typeof settingCategorySchema>;

export const settingSchema = z.object({
  id: z.string(),
  category: settingCategorySchema,
  key: z.string(),
  value: z.unknown(),
  description: z.string().nullable(),
  is_editable: z.boolean(),
});
export type Setting = z.infer<typeof settingSchema>;

export const settingParams = z.object({
  category: settingCategorySchema,
  key: z.string().min(1).max(100),
});

export type StoreTypesValue = { types: { value: string; label: string }[] };
export type CurrenciesByCountryValue = Record<string, { code: string; symbol: string; position: "before" | "after" }>;
