import type { Camera, CameraSystem } from "@glide/contracts";
import { eq, inArray, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { cameraSystems, cameras } from "../../db/schema/index.ts";
import { forbidden, notFound } from "../../platform/errors.ts";
import { assertCanManageStore } from "../admin-auth/admin-auth.hooks.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";

export type SystemRow = typeof cameraSystems.$inferSelect;
export type CameraRow = typeof cameras.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A camera system as the API shows it: the password only as whether there is one. */
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

/** A camera as the API shows it. */
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
export function assertCanManage(actor: AdminActor, storeId: string | null): void {
  if (storeId === null) {
    if (actor.role !== "platform_admin") throw forbidden("Only platform admins may manage unassigned cameras");
    return;
  }
  assertCanManageStore(actor, storeId);
}

/** GET /api/v1/cameras/systems: the systems the admin may see, by name. */
export function listSystems(opts: { db: Db; actor: AdminActor }): Promise<CameraSystem[]> {
  return opts.db
    .select()
    .from(cameraSystems)
    .where(visible(opts.actor, cameraSystems.storeId))
    .orderBy(cameraSystems.name, cameraSystems.id)
    .then((rows) => rows.map(toSystem));
}

/** GET /api/v1/cameras/cameras: the cameras the admin may see, by index and name. */
export function listCameras(opts: { db: Db; actor: AdminActor }): Promise<Camera[]> {
  return opts.db
    .select()
    .from(cameras)
    .where(visible(opts.actor, cameras.storeId))
    .orderBy(cameras.cameraIndex, cameras.name, cameras.id)
    .then((rows) => rows.map(toCamera));
}

/** One camera system the admin may manage (locked for update when asked), or 404/403. */
export async function systemRow(db: Db | Tx, actor: AdminActor, id: string, lock = false): Promise<SystemRow> {
  const query = db.select().from(cameraSystems).where(eq(cameraSystems.id, id));
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw notFound(`Camera system ${id} not found`);
  assertCanManage(actor, row.storeId);
  return row;
}

/** One camera the admin may manage (locked for update when asked), or 404/403. */
export async function cameraRow(db: Db | Tx, actor: AdminActor, id: string, lock = false): Promise<CameraRow> {
  const query = db.select().from(cameras).where(eq(cameras.id, id));
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw notFound(`Camera ${id} not found`);
  assertCanManage(actor, row.storeId);
  return row;
}
