/**
 * What the settings routes take and answer. What each setting may hold, and
 * its built-in value, are in settings.ts.
 */
import { z } from "zod";
import { type SettingValues, settingCategorySchema } from "./settings.ts";

export const settingSchema = z.object({
  id: z.string(),
  category: settingCategorySchema,
  key: z.string(),
  value: z.unknown(),
  description: z.string().nullable(),
  is_editable: z.boolean(),
  updated_at: z.string().nullable(),
});
export type Setting = z.infer<typeof settingSchema>;

/** Any name in the path: an unknown category, like an unknown key, is a 404, not a malformed request. */
export const settingParams = z.object({
  category: z.string().min(1).max(100),
  key: z.string().min(1).max(100),
});

export const settingUpdateSchema = z.object({ value: z.unknown() });

/** GET /api/v1/settings/: every setting, or one category's. */
export const settingListQuery = z.object({ category: settingCategorySchema.optional() });
/** The settings routes that answer for one store when store_id is given, else with the global values. */
export const settingStoreQuery = z.object({ store_id: z.uuid("Must be a valid id (UUID)").optional() });

/** A store's overrides: category → key → value, only known keys. */
export const customSettingsSchema = z.record(z.string(), z.record(z.string(), z.unknown()));
export type CustomSettings = z.infer<typeof customSettingsSchema>;

export const storeSettingsParams = z.object({ store_id: z.uuid("Must be a valid id (UUID)") });
export const storeOverridesUpdateSchema = z.object({ settings: customSettingsSchema });
export const storeOverridesSchema = z.object({ store_id: z.string(), custom_settings: customSettingsSchema });
export type StoreOverrides = z.infer<typeof storeOverridesSchema>;

/** Every setting's value as a feature sees it: the store's override, else the global value, else the built-in one. */
export const effectiveSettingsSchema = z.record(settingCategorySchema, z.record(z.string(), z.unknown()));
export type EffectiveSettings = SettingValues;

export const settingChangeSchema = z.object({
  id: z.string(),
  category: settingCategorySchema,
  key: z.string(),
  /** Null for a global value; else the store whose override changed. */
  store_id: z.string().nullable(),
  store_name: z.string().nullable(),
  changed_by: z.string().nullable(),
  changed_at: z.string(),
  /** Null when there was none (a new override) or it was removed. */
  old_value: z.unknown(),
  new_value: z.unknown(),
});
export type SettingChange = z.infer<typeof settingChangeSchema>;

export const settingHistoryQuery = z.object({
  category: settingCategorySchema.optional(),
  key: z.string().min(1).max(100).optional(),
  store_id: z.uuid("Must be a valid id (UUID)").optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
export const settingHistorySchema = z.object({ items: z.array(settingChangeSchema), total: z.number().int() });

/** One list of the camera screen's dropdowns: value and label. */
export const cameraOptionSchema = z.object({ value: z.string(), label: z.string() });
/** GET /api/v1/settings/camera: named settings, each with its value. */
export const cameraSettingsSchema = z.object({
  camera_types: z.object({ value: z.array(cameraOptionSchema) }),
  camera_brands: z.object({ value: z.array(cameraOptionSchema) }),
  system_statuses: z.object({ value: z.array(cameraOptionSchema) }),
  connection_types: z.object({ value: z.array(cameraOptionSchema) }),
  location_zones: z.object({ value: z.array(cameraOptionSchema) }),
  resolutions: z.object({ value: z.array(cameraOptionSchema) }),
  fps_range: z.object({ value: z.object({ min: z.number(), max: z.number(), step: z.number() }) }),
  brand_presets: z.object({ value: z.unknown() }),
  system_defaults: z.object({ value: z.unknown() }),
  camera_defaults: z.object({ value: z.unknown() }),
});
export type CameraSettings = z.infer<typeof cameraSettingsSchema>;
