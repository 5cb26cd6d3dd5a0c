import type { Camera, cameraInputSchema, cameraUpdateSchema, SettingValues } from "@glide/contracts";
import { FPS_RANGE } from "@glide/contracts";
import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { Db, Tx } from "../../db/client.ts";
import { cameraSystems, cameras } from "../../db/schema/index.ts";
import type { CameraNetworks } from "../../platform/cameras/index.ts";
import { fieldError, isForeignKeyViolation } from "../../platform/errors.ts";
import { assertCanManageStore } from "../admin-auth/admin-auth.hooks.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";
import { named, recordAudit, recordUpdate } from "../audit/audit.ts";
import { checkStreamUrl } from "./addresses.ts";
import { assertCanManage, cameraRow, toCamera } from "./camera-records.ts";

type CameraInput = z.output<typeof cameraInputSchema>;
type CameraUpdate = z.output<typeof cameraUpdateSchema>;

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

/**
 * A new camera, in its system's store or the one given, its unset fields from that store's settings.
 * Settings are read before any transaction: PGlite has one connection, and a read beside an open transaction would wait for it.
 */
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

/** Changes a camera; a new system or store is checked as for a new camera. */
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

/** Deletes a camera; its status history goes with it. */
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
