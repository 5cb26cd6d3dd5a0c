import {
  CAMERA_BRANDS,
  CAMERA_SYSTEM_TYPES,
  type CameraSettings,
  CONNECTION_TYPES,
  cameraSettingsSchema,
  effectiveSettingsSchema,
  FPS_RANGE,
  LOCATION_ZONES,
  type SettingValues,
  SYSTEM_STATUSES,
  settingHistoryQuery,
  settingHistorySchema,
  settingListQuery,
  settingParams,
  settingSchema,
  settingStoreQuery,
  settingUpdateSchema,
  storeOverridesSchema,
  storeOverridesUpdateSchema,
  storeSettingsParams,
} from "@glide/contracts";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorResponses } from "../../platform/route-errors.ts";
import { actorOf, assertCanManageStore, requireAdmin } from "../admin-auth/admin-auth.hooks.ts";
import {
  getSetting,
  getStoreOverrides,
  listSettings,
  putStoreOverrides,
  settingHistory,
  updateSetting,
} from "./settings.service.ts";

const words = (s: string) => s.charAt(0).toUpperCase() + s.slice(1).replace(/_/g, " ");
const options = (values: readonly string[], label: (v: string) => string = words) =>
  values.map((value) => ({ value, label: label(value) }));
const SYSTEM_TYPE_LABELS: Record<string, string> = { nvr: "NVR", dvr: "DVR", standalone: "Standalone" };
const CONNECTION_LABELS: Record<string, string> = { rtsp: "RTSP", http: "HTTP", onvif: "ONVIF" };

/** The camera screen's lists and defaults, from the effective settings of the store (or global ones). */
function cameraSettings(values: SettingValues): CameraSettings {
  return {
    camera_types: { value: options(CAMERA_SYSTEM_TYPES, (v) => SYSTEM_TYPE_LABELS[v] ?? v) },
    camera_brands: { value: options(CAMERA_BRANDS) },
    system_statuses: { value: options(SYSTEM_STATUSES) },
    connection_types: { value: options(CONNECTION_TYPES, (v) => CONNECTION_LABELS[v] ?? v) },
    location_zones: { value: options(LOCATION_ZONES) },
    resolutions: { value: options(values.camera.resolutions, (v) => v.replace("x", " × ")) },
    fps_range: { value: { ...FPS_RANGE } },
    brand_presets: { value: values.camera.brand_presets },
    system_defaults: { value: values.camera.system_defaults },
    camera_defaults: { value: values.camera.camera_defaults },
  };
}

export const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("preHandler", requireAdmin);
  const tags = ["settings"];
  const errors = errorResponses(400, 401, 403, 404);

  /** Effective values for a store the admin may manage, or the global ones. */
  const effectiveFor = async (request: FastifyRequest, storeId: string | undefined) => {
    if (storeId) assertCanManageStore(actorOf(request), storeId);
    return app.settings.effective(storeId ?? null);
  };

  app.get(
    "/api/v1/settings/",
    {
      schema: {
        tags,
        summary: "All settings, optionally of one category",
        querystring: settingListQuery,
        response: { 200: z.array(settingSchema), ...errors },
      },
    },
    (request) => listSettings({ db: app.db, category: request.query.category }),
  );

  app.get(
    "/api/v1/settings/camera",
    {
      schema: {
        tags,
        summary: "The camera screen's lists and defaults (of one store with store_id), each as { value }",
        querystring: settingStoreQuery,
        response: { 200: cameraSettingsSchema, ...errors },
      },
    },
    async (request) => cameraSettings(await effectiveFor(request, request.query.store_id)),
  );

  app.get(
    "/api/v1/settings/effective",
    {
      schema: {
        tags,
        summary:
          "Every setting's value as features use it: the store's override, else the global value, else the built-in one",
        querystring: settingStoreQuery,
        response: { 200: effectiveSettingsSchema, ...errors },
      },
    },
    (request) => effectiveFor(request, request.query.store_id),
  );

  app.get(
    "/api/v1/settings/history",
    {
      schema: {
        tags,
        summary: "Changes of global settings and store overrides, newest first",
        querystring: settingHistoryQuery,
        response: { 200: settingHistorySchema, ...errors },
      },
    },
    (request) =>
      settingHistory({
        db: app.db,
        actor: actorOf(request),
        category: request.query.category,
        key: request.query.key,
        storeId: request.query.store_id,
        limit: request.query.limit,
        offset: request.query.offset,
      }),
  );

  app.get(
    "/api/v1/settings/stores/:store_id",
    {
      schema: {
        tags,
        summary: "A store's overrides (custom_settings: category → key → value)",
        params: storeSettingsParams,
        response: { 200: storeOverridesSchema, ...errors },
      },
    },
    (request) => getStoreOverrides({ db: app.db, actor: actorOf(request), storeId: request.params.store_id }),
  );

  app.put(
    "/api/v1/settings/stores/:store_id",
    {
      schema: {
        tags,
        summary: "Replace a store's overrides with the whole nested object; each value is checked like a global one",
        params: storeSettingsParams,
        body: storeOverridesUpdateSchema,
        response: { 200: storeOverridesSchema, ...errorResponses(422), ...errors },
      },
    },
    async (request) => {
      const { overrides, changed } = await putStoreOverrides({
        db: app.db,
        actor: actorOf(request),
        storeId: request.params.store_id,
        next: request.body.settings,
      });
      if (changed) await app.settings.changed(request.params.store_id);
      return overrides;
    },
  );

  app.get(
    "/api/v1/settings/:category/:key",
    {
      schema: {
        tags,
        summary: "One setting; the store form reads its dropdowns from store/types, countries, timezones, languages",
        params: settingParams,
        response: { 200: settingSchema, ...errors },
      },
    },
    (request) => getSetting({ db: app.db, category: request.params.category, key: request.params.key }),
  );

  app.put(
    "/api/v1/settings/:category/:key",
    {
      schema: {
        tags,
        summary: "Change a global setting (platform admins; editable settings only)",
        params: settingParams,
        body: settingUpdateSchema,
        response: { 200: settingSchema, ...errorResponses(422), ...errors },
      },
    },
    async (request) => {
      const { setting, changed } = await updateSetting({
        db: app.db,
        actor: actorOf(request),
        category: request.params.category,
        key: request.params.key,
        value: request.body.value,
      });
      if (changed) await app.settings.changed(null);
      return setting;
    },
  );
};
