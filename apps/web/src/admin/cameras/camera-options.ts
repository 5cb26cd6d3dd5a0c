import {
  CAMERA_BRANDS,
  CAMERA_SYSTEM_TYPES,
  type Camera,
  type CameraSettings,
  CONNECTION_TYPES,
  FPS_RANGE,
  LOCATION_ZONES,
  RESOLUTIONS,
  SETTING_DEFINITIONS,
  SETTING_VALUE_SCHEMAS,
  type SettingValues,
  SYSTEM_STATUSES,
} from "@glide/contracts";
import { useMemo } from "react";
import { humanize } from "../../lib/format.ts";
import { useCameraSettings } from "./use-cameras.ts";

export interface Option {
  value: string;
  label: string;
}

type CameraValues = SettingValues["camera"];

/** "checkout" → "Checkout", "hikvision" → "Hikvision": how cards and lists name a value. */
export const capital = (value: string) => humanize(value).replace(/^./, (c) => c.toUpperCase());
/** NVR, DVR, Standalone. */
export const typeLabel = (type: string) => (type === "standalone" ? "Standalone" : type.toUpperCase());
/** RTSP, HTTP, ONVIF. */
export const connectionLabel = (type: string) => type.toUpperCase();

const options = (values: readonly string[], label: (v: string) => string = capital): Option[] =>
  values.map((value) => ({ value, label: label(value) }));

/** Until the settings answer, or if they fail, the same lists from contracts keep the dialogs usable. */
const FALLBACK = {
  types: options(CAMERA_SYSTEM_TYPES, typeLabel),
  brands: options(CAMERA_BRANDS),
  statuses: options(SYSTEM_STATUSES),
  connectionTypes: options(CONNECTION_TYPES, connectionLabel),
  zones: options(LOCATION_ZONES),
  resolutions: options(RESOLUTIONS, (v) => v.replace("x", " × ")),
};

/** A value from the settings when it has the shape its key promises, else the built-in one. */
function settingValue<K extends keyof CameraValues>(settings: CameraSettings | undefined, key: K): CameraValues[K] {
  const raw = settings?.[key as keyof CameraSettings]?.value;
  const parsed = SETTING_VALUE_SCHEMAS.camera[key].safeParse(raw);
  return (parsed.success ? parsed.data : SETTING_DEFINITIONS.camera[key].value) as CameraValues[K];
}

const nonEmpty = (list: Option[] | undefined, fallback: Option[]) =>
  list && list.length > 0 ? list.filter((option) => option.value !== "") : fallback;

export interface CameraOptions {
  types: Option[];
  brands: Option[];
  statuses: Option[];
  connectionTypes: Option[];
  zones: Option[];
  resolutions: Option[];
  fpsRange: { min: number; max: number; step: number };
  brandPresets: CameraValues["brand_presets"];
  systemDefaults: CameraValues["system_defaults"];
  cameraDefaults: CameraValues["camera_defaults"];
  /** The settings have answered (defaults are the effective ones, not the built-in). */
  loaded: boolean;
}

/** The camera dialogs' dropdowns and defaults (GET /api/v1/settings/camera), of a store when one is chosen. */
export function useCameraOptions(storeId?: string): CameraOptions {
  const data = useCameraSettings(storeId || undefined).data;
  // One object per answer, so that effects depending on the defaults run when they change, not every render.
  return useMemo(() => optionsOf(data), [data]);
}

function optionsOf(data: CameraSettings | undefined): CameraOptions {
  return {
    types: nonEmpty(data?.camera_types.value, FALLBACK.types),
    brands: nonEmpty(data?.camera_brands.value, FALLBACK.brands),
    statuses: nonEmpty(data?.system_statuses.value, FALLBACK.statuses),
    connectionTypes: nonEmpty(data?.connection_types.value, FALLBACK.connectionTypes),
    zones: nonEmpty(data?.location_zones.value, FALLBACK.zones),
    resolutions: nonEmpty(data?.resolutions.value, FALLBACK.resolutions),
    fpsRange: data?.fps_range.value ?? { ...FPS_RANGE },
    brandPresets: settingValue(data, "brand_presets"),
    systemDefaults: settingValue(data, "system_defaults"),
    cameraDefaults: settingValue(data, "camera_defaults"),
    loaded: data !== undefined,
  };
}

/** Keeps a stored value selectable even when the list no longer offers it. */
export function withCurrent(list: Option[], current: string): Option[] {
  if (!current || list.some((option) => option.value === current)) return list;
  return [...list, { value: current, label: current }];
}

/**
 * "Device reports 1280x720 / 25 FPS" from the camera's last probe, and
 * whether it differs from the configured resolution or FPS; null when the
 * device said nothing.
 */
export function deviceReport(
  camera: Pick<Camera, "resolution" | "fps" | "reported_resolution" | "reported_fps">,
): { text: string; differs: boolean } | null {
  const { reported_resolution: resolution, reported_fps: fps } = camera;
  if (resolution === null && fps === null) return null;
  const parts = [resolution, fps === null ? null : `${fps} FPS`].filter(Boolean);
  return {
    text: `Device reports ${parts.join(" / ")}`,
    differs: (resolution !== null && resolution !== camera.resolution) || (fps !== null && fps !== camera.fps),
  };
}
