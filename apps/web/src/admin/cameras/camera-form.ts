import type { Camera, CameraInput, CameraSystem } from "@glide/contracts";
import { fieldMapper } from "../../lib/form-errors.ts";
import type { CameraOptions } from "./camera-options.ts";
import { integer } from "./system-form.ts";

/** The Camera System select's choice for a camera without a system (options are never empty values). */
export const STANDALONE = "none";

/** What the camera dialog's inputs hold: text as typed; converted by toCameraInput on submit. */
export interface CameraFormValues {
  name: string;
  camera_index: string;
  location_zone: string;
  stream_url: string;
  resolution: string;
  fps: string;
  camera_system_id: string;
  store_id: string;
  is_active: boolean;
  is_ai_enabled: boolean;
}

/** The dialog's tabs and their fields, in the order shown (spec §2 Camera dialog); Preview has none. */
export const CAMERA_TABS = {
  basic: ["name", "camera_index", "location_zone"],
  stream: ["stream_url", "resolution", "fps"],
  preview: [],
  settings: ["camera_system_id", "store_id", "is_active", "is_ai_enabled"],
} as const satisfies Record<string, readonly (keyof CameraFormValues)[]>;

export const cameraFieldOf = fieldMapper<CameraFormValues>(Object.values(CAMERA_TABS).flat());

/** Where a new camera starts: its system (Add Camera to System), the next free channel and the system's store. */
export interface NewCamera {
  system?: CameraSystem;
  channel: number;
  storeId: string;
}

export function toCameraFormValues(
  camera: Camera | undefined,
  options: Pick<CameraOptions, "cameraDefaults">,
  start: NewCamera = { channel: 1, storeId: "" },
): CameraFormValues {
  const defaults = options.cameraDefaults;
  return {
    name: camera?.name ?? "",
    camera_index: String(camera?.camera_index ?? start.channel),
    location_zone: camera?.location_zone ?? defaults.location_zone,
    stream_url: camera?.stream_url ?? "",
    resolution: camera?.resolution ?? defaults.resolution,
    fps: String(camera?.fps ?? defaults.fps),
    camera_system_id: camera ? (camera.camera_system_id ?? STANDALONE) : (start.system?.id ?? STANDALONE),
    store_id: camera ? (camera.store_id ?? "") : (start.system?.store_id ?? start.storeId),
    is_active: camera?.is_active ?? true,
    is_ai_enabled: camera?.is_ai_enabled ?? true,
  };
}

/** The channel after the highest one the system's cameras use. */
export function nextChannel(cameras: readonly Camera[], systemId: string | undefined): number {
  if (!systemId) return 1;
  const used = cameras.filter((camera) => camera.camera_system_id === systemId).map((camera) => camera.camera_index);
  return used.length === 0 ? 1 : Math.max(...used) + 1;
}

/** A camera of a system takes the system's store; a standalone camera the store chosen. */
export function storeOfCamera(
  values: Pick<CameraFormValues, "camera_system_id" | "store_id">,
  systems: readonly CameraSystem[],
) {
  const system = systems.find((candidate) => candidate.id === values.camera_system_id);
  return system?.store_id ?? values.store_id;
}

export function toCameraInput(values: CameraFormValues, systems: readonly CameraSystem[]): CameraInput {
  const index = values.camera_index.trim();
  const fps = values.fps.trim();
  return {
    name: values.name.trim(),
    // Sent as typed: 2.5 is refused by the server with a reason instead of being cut to 2 here.
    ...(index === "" ? {} : { camera_index: integer(index) }),
    location_zone: values.location_zone as CameraInput["location_zone"],
    stream_url: values.stream_url.trim() || null,
    resolution: values.resolution as CameraInput["resolution"],
    ...(fps === "" ? {} : { fps: integer(fps) }),
    camera_system_id: values.camera_system_id === STANDALONE ? null : values.camera_system_id,
    store_id: storeOfCamera(values, systems),
    is_active: values.is_active,
    is_ai_enabled: values.is_ai_enabled,
  };
}

/** What the stream field suggests: the system brand's path for this channel, or a whole rtsp:// address. */
export function streamPlaceholder(
  system: CameraSystem | undefined,
  presets: CameraOptions["brandPresets"],
  channel: string,
): string {
  if (!system) return "rtsp://192.168.1.100:554/stream1";
  const format = presets[system.brand as keyof typeof presets]?.stream_format;
  return format ? format.replaceAll("{channel}", channel.trim() || "1") : "/stream1";
}
