import type {
  Camera,
  CameraSystem,
  cameraInputSchema,
  cameraSystemInputSchema,
  cameraSystemUpdateSchema,
  cameraUpdateSchema,
  SettingValues,
  StatusChange,
} from "@glide/contracts";
import { FPS_RANGE } from "@glide/contracts";
import { desc, eq, inArray, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Db, Tx } from "../../db/client.ts";
import { cameraStatusChanges, cameraSystems, cameras } from "../../db/schema/index.ts";
import type { CameraNetworks } from "../../platform/cameras/index.ts";
import { decrypt, encrypt } from "../../platform/crypto.ts";
import { fieldError, forbidden, isForeignKeyViolation, notFound } from "../../platform/errors.ts";
import { assertCanManageStore } from "../admin-auth/admin-auth.hooks.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";
import { named, recordAudit, recordUpdate } from "../audit/audit.ts";
import { checkHost, checkStreamUrl, movesCredential } from "./addresses.ts";

type SystemRow = typeof cameraSystems.$inferSelect;
type CameraRow = typeof cameras.$inferSelect;
type SystemInput = z.output<typeof cameraSystemInputSchema>;
type SystemUpdate = z.output<typeof cameraSystemUpdateSchema>;
type CameraInput = z.output<typeof cameraInputSchema>;
type CameraUpdate = z.output<typeof cameraUpdateSchema>;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const toSystem = (r: SystemRow): CameraSystem => ({
  id: r.id,
  name: r.name,
  type: r.type,
  brand: r.brand,
  status: r.status,
  connection_type: r.connectionType,
  host: r.host,
  port: r.port,
  username: r.username,
  has_password: r.passwordSealed !== null,
  api_endpoint: r.apiEndpoint,
  store_id: r.storeId,
  notes: r.notes,
  last_checked_at: iso(r.lastCheckedAt),
  created_at: r.createdAt.toISOString(),
});

export const toCamera = (r: CameraRow): Camera => ({
  id: r.id,
  name: r.name,
  camera_index: r.cameraIndex,
  location_zone: r.locationZone,
  stream_url: r.streamUrl,
  resolution: r.resolution,
  fps: r.fps,
  camera_system_id: r.cameraSystemId,
  store_id: r.storeId,
  is_active: r.isActive,
  is_ai_enabled: r.isAiEnabled,
  status: r.status,
  has_ptz: r.hasPtz,
  reported_resolution: r.reportedResolution,
  reported_fps: r.reportedFps,
  last_checked_at: iso(r.lastCheckedAt),
  created_at: r.createdAt.toISOString(),
});

/** What the admin may see: a platform admin everything, a store admin their stores' rows (never unassigned ones). */
function visible(actor: AdminActor, storeId: typeof cameraSystems.storeId | typeof cameras.storeId) {
  if (actor.role === "platform_admin") return undefined;
  return actor.storeIds.length ? inArray(storeId, actor.storeIds) : sql`false`;
}

/** A row of a store the admin does not manage is refused the same way as the store itself. */
function assertCanManage(actor: AdminActor, storeId: string | null): void {
  if (storeId === null) {
    if (actor.role !== "platform_admin") throw forbidden("Only platform admins may manage unassigned cameras");
    return;
  }
  assertCanManageStore(actor, storeId);
}

/** A store id that names no store is a field problem, not a 500. */
async function withStoreCheck<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isForeignKeyViolation(err)) throw fieldError("store_id", "Store not found");
    throw err;
  }
}

export function listSystems(opts: { db: Db; actor: AdminActor }): Promise<CameraSystem[]> {
  return opts.db
    .select()
    .from(cameraSystems)
    .where(visible(opts.actor, cameraSystems.storeId))
    .orderBy(cameraSystems.name, cameraSystems.id)
    .then((rows) => rows.map(toSystem));
}

export function listCameras(opts: { db: Db; actor: AdminActor }): Promise<Camera[]> {
  return opts.db
    .select()
    .from(cameras)
    .where(visible(opts.actor, cameras.storeId))
    .orderBy(cameras.cameraIndex, cameras.name, cameras.id)
    .then((rows) => rows.map(toCamera));
}

export async function systemRow(db: Db | Tx, actor: AdminActor, id: string, lock = false): Promise<SystemRow> {
  const query = db.select().from(cameraSystems).where(eq(cameraSystems.id, id));
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw notFound(`Camera system ${id} not found`);
  assertCanManage(actor, row.storeId);
  return row;
}

export async function cameraRow(db: Db | Tx, actor: AdminActor, id: string, lock = false): Promise<CameraRow> {
  const query = db.select().from(cameras).where(eq(cameras.id, id));
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw notFound(`Camera ${id} not found`);
  assertCanManage(actor, row.storeId);
  return row;
}

export type Sealer = { seal(plain: string): string; open(sealed: string): string };
export const sealerFor = (key: Buffer): Sealer => ({
  seal: (plain) => encrypt(key, plain),
  open: (sealed) => decrypt(key, sealed),
});

export async function createSystem(opts: {
  db: Db;
  actor: AdminActor;
  input: SystemInput;
  settings: SettingValues;
  sealer: Sealer;
  networks: CameraNetworks;
}): Promise<CameraSystem> {
  const { input, settings } = opts;
  assertCanManageStore(opts.actor, input.store_id);
  checkHost("host", input.host, opts.networks);
  const defaults = settings.camera.system_defaults;
  return withStoreCheck(() =>
    opts.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(cameraSystems)
        .values({
          name: input.name,
          type: input.type ?? defaults.type,
          brand: input.brand ?? defaults.brand,
          status: input.status ?? "unknown",
          connectionType: input.connection_type ?? defaults.connection_type,
          host: input.host,
          port: input.port,
          username: input.username ?? null,
          passwordSealed: input.password ? opts.sealer.seal(input.password) : null,
          apiEndpoint: input.api_endpoint ?? null,
          storeId: input.store_id,
          notes: input.notes ?? null,
        })
        .returning();
      const system = toSystem(row!);
      await recordAudit(tx, {
        actor: opts.actor,
        action: "camera_system.create",
        entityType: "camera_system",
        entityId: system.id,
        storeId: system.store_id,
        summary: `${named("Camera system", system.name)} created`,
        after: system,
      });
      return system;
    }),
  );
}

export async function updateSystem(opts: {
  db: Db;
  actor: AdminActor;
  id: string;
  input: SystemUpdate;
  sealer: Sealer;
  networks: CameraNetworks;
}): Promise<CameraSystem> {
  const { actor, input } = opts;
  if (input.store_id !== undefined) assertCanManageStore(actor, input.store_id);
  if (input.host !== undefined) checkHost("host", input.host, opts.networks);
  return withStoreCheck(() =>
    opts.db.transaction(async (tx) => {
      const stored = await systemRow(tx, actor, opts.id, true);
      const before = toSystem(stored);
      // A field left out is undefined, which Drizzle leaves out of the update: it keeps its value.
      const set: Partial<typeof cameraSystems.$inferInsert> = {
        updatedAt: new Date(),
        name: input.name,
        type: input.type,
        brand: input.brand,
        status: input.status,
        connectionType: input.connection_type,
        host: input.host,
        port: input.port,
        username: input.username,
        // Left out or empty keeps the stored password (the form never has it to send back), unless the
        // edit moves the system to another address or user: the password stays with the one it was for.
        passwordSealed: input.password
          ? opts.sealer.seal(input.password)
          : movesCredential(stored, input)
            ? null
            : undefined,
        apiEndpoint: input.api_endpoint,
        storeId: input.store_id,
        notes: input.notes,
      };
      const [row] = await tx.update(cameraSystems).set(set).where(eq(cameraSystems.id, opts.id)).returning();
      // A system's cameras are in its store.
      if (input.store_id !== undefined) {
        await tx.update(cameras).set({ storeId: input.store_id }).where(eq(cameras.cameraSystemId, opts.id));
      }
      const after = toSystem(row!);
      await recordUpdate(tx, {
        actor,
        action: "camera_system.update",
        entityType: "camera_system",
        entityId: opts.id,
        storeId: after.store_id,
        label: named("Camera system", after.name),
        before,
        after,
        // A new password over an old one leaves has_password true: the entry says so without showing either.
        alsoChanged: input.password && before.has_password ? ["password"] : [],
      });
      return after;
    }),
  );
}

/** The system and its cameras go in one statement (the foreign key cascades). */
export async function deleteSystem(opts: { db: Db; actor: AdminActor; id: string }): Promise<void> {
  await opts.db.transaction(async (tx) => {
    const before = toSystem(await systemRow(tx, opts.actor, opts.id, true));
    await tx.delete(cameraSystems).where(eq(cameraSystems.id, opts.id));
    await recordAudit(tx, {
      actor: opts.actor,
      action: "camera_system.delete",
      entityType: "camera_system",
      entityId: opts.id,
      storeId: before.store_id,
      summary: `${named("Camera system", before.name)} deleted with its cameras`,
      before,
    });
  });
}

/**
 * The fps a camera may have (admin-console.md §9). The resolution needs no check here: the schema's
 * list is the settings' list, which is read-only.
 */
function checkFps(fps: number | undefined) {
  if (fps !== undefined && (fps < FPS_RANGE.min || fps > FPS_RANGE.max)) {
    throw fieldError("fps", `FPS must be from ${FPS_RANGE.min} to ${FPS_RANGE.max}`);
  }
}

/** The store a camera belongs to: its system's, or the one given for a standalone camera. */
async function placeCamera(
  tx: Db | Tx,
  actor: AdminActor,
  systemId: string | null | undefined,
  storeId: string | null | undefined,
): Promise<{ systemId: string | null; storeId: string }> {
  if (systemId) {
    const [system] = await tx.select().from(cameraSystems).where(eq(cameraSystems.id, systemId));
    if (!system) throw fieldError("camera_system_id", "Camera system not found");
    assertCanManage(actor, system.storeId);
    if (storeId && system.storeId && storeId !== system.storeId) {
      throw fieldError("store_id", "A camera is in its system's store; choose that store or no system");
    }
    const store = system.storeId ?? storeId;
    if (!store) throw fieldError("store_id", "The camera system has no store; choose a store for it first");
    return { systemId, storeId: store };
  }
  if (!storeId) throw fieldError("store_id", "Store is required for a camera without a system");
  assertCanManageStore(actor, storeId);
  return { systemId: null, storeId };
}

/** A foreign key broken by a row deleted meanwhile: say which field named it. */
async function withReferenceCheck<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!isForeignKeyViolation(err)) throw err;
    const text = String(
      (err as { constraint?: string; cause?: { constraint?: string } })?.cause?.constraint ??
        (err as { constraint?: string }).constraint ??
        "",
    );
    if (text.includes("camera_system")) throw fieldError("camera_system_id", "Camera system not found");
    throw fieldError("store_id", "Store not found");
  }
}

/** Settings are read before any transaction: PGlite has one connection, and a read beside an open transaction would wait for it. */
export async function createCamera(opts: {
  db: Db;
  actor: AdminActor;
  input: CameraInput;
  settingsFor: (storeId: string) => Promise<SettingValues>;
  networks: CameraNetworks;
}): Promise<Camera> {
  const { input, actor } = opts;
  checkFps(input.fps);
  checkStreamUrl(input.stream_url, opts.networks);
  const place = await placeCamera(opts.db, actor, input.camera_system_id, input.store_id);
  const defaults = (await opts.settingsFor(place.storeId)).camera.camera_defaults;
  return withReferenceCheck(() =>
    opts.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(cameras)
        .values({
          name: input.name,
          cameraIndex: input.camera_index ?? 1,
          locationZone: input.location_zone ?? defaults.location_zone,
          streamUrl: input.stream_url ?? null,
          resolution: input.resolution ?? defaults.resolution,
          fps: input.fps ?? defaults.fps,
          cameraSystemId: place.systemId,
          storeId: place.storeId,
          isActive: input.is_active ?? true,
          isAiEnabled: input.is_ai_enabled ?? true,
          status: input.status ?? "unknown",
        })
        .returning();
      const camera = toCamera(row!);
      await recordAudit(tx, {
        actor,
        action: "camera.create",
        entityType: "camera",
        entityId: camera.id,
        storeId: camera.store_id,
        summary: `${named("Camera", camera.name)} created`,
        after: camera,
      });
      return camera;
    }),
  );
}

export async function updateCamera(opts: {
  db: Db;
  actor: AdminActor;
  id: string;
  input: CameraUpdate;
  networks: CameraNetworks;
}): Promise<Camera> {
  const { input, actor } = opts;
  checkFps(input.fps);
  checkStreamUrl(input.stream_url, opts.networks);
  const existing = await cameraRow(opts.db, actor, opts.id);
  // A field left out is undefined, which Drizzle leaves out of the update: it keeps its value.
  const set: Partial<typeof cameras.$inferInsert> = {
    updatedAt: new Date(),
    name: input.name,
    cameraIndex: input.camera_index,
    locationZone: input.location_zone,
    streamUrl: input.stream_url,
    resolution: input.resolution,
    fps: input.fps,
    isActive: input.is_active,
    isAiEnabled: input.is_ai_enabled,
    status: input.status,
  };
  if (input.camera_system_id !== undefined || input.store_id !== undefined) {
    const systemId = input.camera_system_id !== undefined ? input.camera_system_id : existing.cameraSystemId;
    const storeId = input.store_id !== undefined ? input.store_id : systemId ? null : existing.storeId;
    const place = await placeCamera(opts.db, actor, systemId, storeId);
    set.cameraSystemId = place.systemId;
    set.storeId = place.storeId;
  }
  return withReferenceCheck(() =>
    opts.db.transaction(async (tx) => {
      const before = toCamera(await cameraRow(tx, actor, opts.id, true));
      const [row] = await tx.update(cameras).set(set).where(eq(cameras.id, opts.id)).returning();
      const after = toCamera(row!);
      await recordUpdate(tx, {
        actor,
        action: "camera.update",
        entityType: "camera",
        entityId: opts.id,
        storeId: after.store_id,
        label: named("Camera", after.name),
        before,
        after,
      });
      return after;
    }),
  );
}

export async function deleteCamera(opts: { db: Db; actor: AdminActor; id: string }): Promise<void> {
  await opts.db.transaction(async (tx) => {
    const before = toCamera(await cameraRow(tx, opts.actor, opts.id, true));
    await tx.delete(cameras).where(eq(cameras.id, opts.id));
    await recordAudit(tx, {
      actor: opts.actor,
      action: "camera.delete",
      entityType: "camera",
      entityId: opts.id,
      storeId: before.store_id,
      summary: `${named("Camera", before.name)} deleted`,
      before,
    });
  });
}

export async function statusHistory(opts: { db: Db; actor: AdminActor; cameraId: string }): Promise<StatusChange[]> {
  await cameraRow(opts.db, opts.actor, opts.cameraId);
  const rows = await opts.db
    .select()
    .from(cameraStatusChanges)
    .where(eq(cameraStatusChanges.cameraId, opts.cameraId))
    .orderBy(desc(cameraStatusChanges.changedAt), desc(cameraStatusChanges.id))
    .limit(100);
  return rows.map((r) => ({ status: r.status, message: r.message, changed_at: r.changedAt.toISOString() }));
}

/** The connection data the device client needs, the password unsealed; never sent to a browser. */
export type DeviceTarget = {
  connection_type: "rtsp" | "http" | "onvif";
  brand: string;
  host: string;
  port: number;
  username: string | null;
  password: string | null;
  api_endpoint: string | null;
};

export function targetOf(system: SystemRow, sealer: Sealer): DeviceTarget {
  return {
    connection_type: system.connectionType as DeviceTarget["connection_type"],
    brand: system.brand,
    host: system.host,
    port: system.port,
    username: system.username,
    password: system.passwordSealed ? sealer.open(system.passwordSealed) : null,
    api_endpoint: system.apiEndpoint,
  };
}

/** Systems and cameras for the health checker: every one, whatever its store. */
export async function everything(db: Db): Promise<{ systems: SystemRow[]; cameras: CameraRow[] }> {
  const [s, c] = await Promise.all([db.select().from(cameraSystems), db.select().from(cameras)]);
  return { systems: s, cameras: c };
}

/** What to probe right after a save: a system with its cameras, or a camera with its system. */
export type ProbeScope = { systemId: string } | { cameraId: string };

export async function rowsToProbe(db: Db, scope: ProbeScope): Promise<{ systems: SystemRow[]; cameras: CameraRow[] }> {
  if ("systemId" in scope) {
    const [s, c] = await Promise.all([
      db.select().from(cameraSystems).where(eq(cameraSystems.id, scope.systemId)),
      db.select().from(cameras).where(eq(cameras.cameraSystemId, scope.systemId)),
    ]);
    return { systems: s, cameras: c };
  }
  const c = await db.select().from(cameras).where(eq(cameras.id, scope.cameraId));
  const systemId = c[0]?.cameraSystemId;
  const s = systemId ? await db.select().from(cameraSystems).where(eq(cameraSystems.id, systemId)) : [];
  return { systems: s, cameras: c };
}

/** Sets a system's or camera's status and records it when it changed. */
export async function recordStatus(
  db: Db,
  target: { kind: "system" | "camera"; id: string },
  status: string,
  message: string | null,
  extra: { hasPtz?: boolean; reported?: { resolution: string | null; fps: number | null } } = {},
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const table = target.kind === "system" ? cameraSystems : cameras;
    const [row] = await tx.select({ status: table.status }).from(table).where(eq(table.id, target.id)).for("update");
    if (!row) return false;
    const now = new Date();
    await tx
      .update(table)
      .set({
        status,
        lastCheckedAt: now,
        ...(extra.hasPtz !== undefined ? { hasPtz: extra.hasPtz } : {}),
        // A camera's report is the last probe's: a camera that did not answer reports nothing.
        ...(target.kind === "camera"
          ? { reportedResolution: extra.reported?.resolution ?? null, reportedFps: extra.reported?.fps ?? null }
          : {}),
      })
      .where(eq(table.id, target.id));
    if (row.status === status) return false;
    await tx.insert(cameraStatusChanges).values({
      cameraId: target.kind === "camera" ? target.id : null,
      systemId: target.kind === "system" ? target.id : null,
      status,
      message,
      changedAt: now,
    });
    return true;
  });
}
