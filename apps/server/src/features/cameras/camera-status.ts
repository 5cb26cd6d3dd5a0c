import type { StatusChange } from "@glide/contracts";
import { desc, eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { cameraStatusChanges, cameraSystems, cameras } from "../../db/schema/index.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";
import { type CameraRow, cameraRow, type SystemRow } from "./camera-records.ts";

/** GET /api/v1/cameras/cameras/:id/history: a camera's last 100 status changes, newest first. */
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

/** Systems and cameras for the health checker: every one, whatever its store. */
export async function everything(db: Db): Promise<{ systems: SystemRow[]; cameras: CameraRow[] }> {
  const [s, c] = await Promise.all([db.select().from(cameraSystems), db.select().from(cameras)]);
  return { systems: s, cameras: c };
}

/** What to probe right after a save: a system with its cameras, or a camera with its system. */
export type ProbeScope = { systemId: string } | { cameraId: string };

/** The rows a probe after a save covers. */
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
