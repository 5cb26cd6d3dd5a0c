import { z } from "zod";
import { RESOLUTIONS } from "./constants.ts";
import { CAMERA_BRANDS, CAMERA_SYSTEM_TYPES, CONNECTION_TYPES, FPS_RANGE, LOCATION_ZONES } from "./settings.ts";

/** The longest text the API takes per field; the console's inputs carry the same limits. */
export const CAMERA_LIMITS = {
  name: 200,
  host: 253,
  username: 100,
  password: 200,
  api_endpoint: 300,
  notes: 2000,
  stream_url: 500,
  camera_index: 256,
} as const;
const L = CAMERA_LIMITS;

/** Statuses a system or camera shows (admin-console.md §4); the health checker sets online and offline. */
export const CAMERA_STATUSES = ["online", "active", "offline", "inactive", "unknown"] as const;
export type CameraStatus = (typeof CAMERA_STATUSES)[number];

export const PTZ_ACTIONS = [
  "tilt_up",
  "tilt_down",
  "pan_left",
  "pan_right",
  "stop",
  "zoom_in",
  "zoom_out",
  "goto_preset",
] as const;
export type PtzAction = (typeof PTZ_ACTIONS)[number];
export const PTZ_SPEED = { min: 1, max: 100, default: 50 } as const;

const emptyToNull = (v: unknown) =>
  typeof v === "string" && v.trim() === "" ? null : typeof v === "string" ? v.trim() : v;
const optionalText = (max: number) => z.preprocess(emptyToNull, z.string().max(max).nullable().optional());

/** A host name (letters, digits, dots, hyphens) or an IPv4 / IPv6 address; no scheme, path or port. */
const host = z
  .string({ error: "Host is required" })
  .trim()
  .min(1, "Host is required")
  .max(L.host)
  .refine(
    (v) =>
      /^(?=.{1,253}$)([A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/.test(
        v,
      ) || /^\[?[0-9A-Fa-f:.]+\]?$/.test(v),
    "Host must be a host name or an IP address, without http:// or a path",
  );

const port = z
  .number({ error: "Port must be a whole number from 1 to 65535" })
  .int("Port must be a whole number from 1 to 65535")
  .min(1, "Port must be a whole number from 1 to 65535")
  .max(65535, "Port must be a whole number from 1 to 65535");

export const cameraSystemInputSchema = z.object({
  name: z.string({ error: "System name is required" }).trim().min(1, "System name is required").max(L.name),
  type: z.enum(CAMERA_SYSTEM_TYPES).optional(),
  brand: z.enum(CAMERA_BRANDS).optional(),
  status: z.enum(CAMERA_STATUSES).optional(),
  connection_type: z.enum(CONNECTION_TYPES).optional(),
  host,
  port,
  username: optionalText(L.username),
  /** Empty or left out on an edit keeps the stored password; never returned. */
  password: z.preprocess((v) => (v === "" ? undefined : v), z.string().max(L.password).optional()),
  api_endpoint: z.preprocess(
    emptyToNull,
    z
      .string()
      .max(L.api_endpoint)
      .regex(/^\/\S*$/, 'API endpoint is a path on the device starting with "/", e.g. /onvif/device_service')
      .nullable()
      .optional(),
  ),
  store_id: z.uuid("Store is required"),
  notes: optionalText(L.notes),
});
export type CameraSystemInput = z.input<typeof cameraSystemInputSchema>;
export const cameraSystemUpdateSchema = cameraSystemInputSchema.partial();

export const cameraSystemSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  brand: z.string(),
  status: z.string(),
  connection_type: z.string(),
  host: z.string(),
  port: z.number().int(),
  username: z.string().nullable(),
  /** Whether a password is stored; the password itself never leaves the server. */
  has_password: z.boolean(),
  api_endpoint: z.string().nullable(),
  /** Null once its store is deleted: the screen's Unassigned group. */
  store_id: z.string().nullable(),
  notes: z.string().nullable(),
  last_checked_at: z.string().nullable(),
  created_at: z.string(),
});
export type CameraSystem = z.infer<typeof cameraSystemSchema>;

/**
 * A stream address without credentials: a path on the camera's system
 * ("/Streaming/Channels/101"), or an rtsp:// URL for a standalone camera.
 */
const streamUrl = z.preprocess(
  emptyToNull,
  z
    .string()
    .max(L.stream_url)
    // The host is a name, an IPv4 address or a bracketed IPv6 one; a port after it is digits only.
    .refine((v) => v.startsWith("/") || /^rtsps?:\/\/(\[[\da-fA-F:.]+\]|[^\s/@:[\]]+)(:\d{1,5})?(\/\S*)?$/.test(v), {
      message:
        "Stream URL is a path such as /Streaming/Channels/101, or rtsp://host:554/path without user name or password",
    })
    .nullable()
    .optional(),
);

export const cameraInputSchema = z.object({
  name: z.string({ error: "Camera name is required" }).trim().min(1, "Camera name is required").max(L.name),
  camera_index: z
    .number({ error: "Camera index must be a whole number" })
    .int("Camera index must be a whole number")
    .min(1, "Camera index must be from 1")
    .max(L.camera_index, `Camera index must be at most ${L.camera_index}`)
    .optional(),
  location_zone: z.enum(LOCATION_ZONES).optional(),
  stream_url: streamUrl,
  resolution: z.enum(RESOLUTIONS).optional(),
  /** Checked against the fps range of the settings on the server. */
  fps: z
    .number({ error: "FPS must be a whole number" })
    .int("FPS must be a whole number")
    .min(1, "FPS must be a whole number")
    .max(240, `FPS must be from ${FPS_RANGE.min} to ${FPS_RANGE.max}`)
    .optional(),
  camera_system_id: z.preprocess(
    (v) => (v === "" ? null : v),
    z.uuid("Must be a valid id (UUID)").nullable().optional(),
  ),
  /** Required for a standalone camera; a camera of a system is in the system's store (a different one is refused). */
  store_id: z.preprocess((v) => (v === "" ? null : v), z.uuid("Must be a valid id (UUID)").nullable().optional()),
  is_active: z.boolean().optional(),
  is_ai_enabled: z.boolean().optional(),
  status: z.enum(CAMERA_STATUSES).optional(),
});
export type CameraInput = z.input<typeof cameraInputSchema>;
export const cameraUpdateSchema = cameraInputSchema.partial();

export const cameraSchema = z.object({
  id: z.string(),
  name: z.string(),
  camera_index: z.number().int(),
  location_zone: z.string(),
  stream_url: z.string().nullable(),
  resolution: z.string(),
  fps: z.number().int(),
  camera_system_id: z.string().nullable(),
  store_id: z.string().nullable(),
  is_active: z.boolean(),
  is_ai_enabled: z.boolean(),
  status: z.string(),
  /** Whether the camera can pan, tilt or zoom (learnt from its system). */
  has_ptz: z.boolean(),
  /**
   * What the device said its stream is at the last health probe (ONVIF profile or RTSP description),
   * beside the configured resolution and fps; null when it did not answer or did not say.
   */
  reported_resolution: z.string().nullable(),
  reported_fps: z.number().nullable(),
  last_checked_at: z.string().nullable(),
  created_at: z.string(),
});
export type Camera = z.infer<typeof cameraSchema>;

export const cameraIdParams = z.object({ id: z.uuid("Must be a valid id (UUID)") });

/** POST /api/v1/cameras/systems/{id}/test: which step failed, in words an operator understands. */
export const connectionTestSchema = z.object({
  status: z.enum(["success", "failed"]),
  message: z.string(),
  /** The step that failed or the last that passed: address, connect, authenticate, path, onvif, clock. */
  step: z.string(),
  duration_ms: z.number(),
  /** What the device said about itself, when it said it. */
  device: z
    .object({ manufacturer: z.string().nullable(), model: z.string().nullable(), firmware: z.string().nullable() })
    .nullable(),
});
export type ConnectionTest = z.infer<typeof connectionTestSchema>;

/**
 * POST /api/v1/cameras/systems/test: the connection settings as typed in the
 * dialog, tested before they are saved, with the same rules as saving them.
 * `system_id` names the system being edited: an empty password then uses its
 * stored one, but only for the host, port, connection type and user it was
 * stored for.
 */
export const connectionTestInputSchema = cameraSystemInputSchema
  .pick({
    connection_type: true,
    brand: true,
    host: true,
    port: true,
    username: true,
    password: true,
    api_endpoint: true,
    store_id: true,
  })
  .extend({ system_id: z.uuid("Must be a valid id (UUID)").optional() });
export type ConnectionTestInput = z.input<typeof connectionTestInputSchema>;

export const streamInfoSchema = z.object({
  /** The camera's RTSP address without credentials. */
  stream_url: z.string(),
  resolution: z.string(),
  fps: z.number(),
  status: z.string(),
});
export type StreamInfo = z.infer<typeof streamInfoSchema>;

export const snapshotSchema = z.object({
  /** On our own origin: the server fetched and stored the picture. */
  snapshot_url: z.string(),
  taken_at: z.string(),
});

export const ptzPresetSchema = z.object({ number: z.number().int(), name: z.string() });
export type PtzPreset = z.infer<typeof ptzPresetSchema>;

export const ptzCommandSchema = z
  .object({
    action: z.enum(PTZ_ACTIONS),
    speed: z
      .number({ error: "Speed must be a whole number from 1 to 100" })
      .int("Speed must be a whole number from 1 to 100")
      .min(PTZ_SPEED.min, "Speed must be from 1 to 100")
      .max(PTZ_SPEED.max, "Speed must be from 1 to 100")
      .default(PTZ_SPEED.default),
    preset: z.number().int().min(1).max(1000).optional(),
  })
  .refine((c) => c.action !== "goto_preset" || c.preset !== undefined, {
    message: "goto_preset needs a preset number",
    path: ["preset"],
  });
export type PtzCommand = z.input<typeof ptzCommandSchema>;
/** The answer to a PTZ command: which one ran, and that it did. */
export const ptzResultSchema = z.object({ action: z.string(), done: z.boolean() });
export type PtzResult = z.infer<typeof ptzResultSchema>;

export const statusChangeSchema = z.object({
  status: z.string(),
  message: z.string().nullable(),
  changed_at: z.string(),
});
export type StatusChange = z.infer<typeof statusChangeSchema>;
