import { boolean, customType, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { stores } from "./stores.ts";

/** An NVR, DVR or standalone device the server talks to; its password is sealed (AES-256-GCM). */
export const cameraSystems = pgTable(
  "camera_systems",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    type: text("type").notNull(),
    brand: text("brand").notNull(),
    status: text("status").notNull().default("unknown"),
    connectionType: text("connection_type").notNull(),
    host: text("host").notNull(),
    port: integer("port").notNull(),
    username: text("username"),
    passwordSealed: text("password_sealed"),
    apiEndpoint: text("api_endpoint"),
    storeId: uuid("store_id").references(() => stores.id, { onDelete: "set null" }),
    notes: text("notes"),
    /** Learnt from the device: whether any of its channels can pan, tilt or zoom. */
    hasPtz: boolean("has_ptz"),
    lastCheckedAt: timestamp("last_checked_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("camera_systems_store_idx").on(t.storeId)],
);

export const cameras = pgTable(
  "cameras",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    cameraIndex: integer("camera_index").notNull().default(1),
    locationZone: text("location_zone").notNull(),
    streamUrl: text("stream_url"),
    resolution: text("resolution").notNull(),
    fps: integer("fps").notNull(),
    cameraSystemId: uuid("camera_system_id").references(() => cameraSystems.id, { onDelete: "cascade" }),
    storeId: uuid("store_id").references(() => stores.id, { onDelete: "set null" }),
    isActive: boolean("is_active").notNull().default(true),
    isAiEnabled: boolean("is_ai_enabled").notNull().default(true),
    status: text("status").notNull().default("unknown"),
    hasPtz: boolean("has_ptz").notNull().default(false),
    /** What the device said its stream is at the last health probe; null when it did not answer or say. */
    reportedResolution: text("reported_resolution"),
    reportedFps: integer("reported_fps"),
    lastCheckedAt: timestamp("last_checked_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("cameras_system_idx").on(t.cameraSystemId), index("cameras_store_idx").on(t.storeId)],
);

/** Each change of a system's or camera's status, as the health checker saw it. */
export const cameraStatusChanges = pgTable(
  "camera_status_changes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    cameraId: uuid("camera_id").references(() => cameras.id, { onDelete: "cascade" }),
    systemId: uuid("system_id").references(() => cameraSystems.id, { onDelete: "cascade" }),
    status: text("status").notNull(),
    message: text("message"),
    changedAt: timestamp("changed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("camera_status_changes_camera_idx").on(t.cameraId, t.changedAt.desc()),
    index("camera_status_changes_system_idx").on(t.systemId, t.changedAt.desc()),
  ],
);

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => "bytea" });

/**
 * The latest pictures the server fetched from each camera, served from our
 * own origin. In the database so that every instance serves what any took.
 */
export const cameraSnapshots = pgTable(
  "camera_snapshots",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    cameraId: uuid("camera_id")
      .notNull()
      .references(() => cameras.id, { onDelete: "cascade" }),
    contentType: text("content_type").notNull(),
    image: bytea("image").notNull(),
    takenAt: timestamp("taken_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("camera_snapshots_camera_idx").on(t.cameraId, t.takenAt.desc())],
);
