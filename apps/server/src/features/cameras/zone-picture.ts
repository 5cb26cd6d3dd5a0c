import { and, asc, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { cameraSystems, cameras } from "../../db/schema/index.ts";
import { networksOf } from "./addresses.ts";
import { targetOf } from "./camera-credentials.ts";

export type ZonePicture = (
  storeId: string,
  zone: "entrance" | "exit",
  opts: { signal: AbortSignal },
) => Promise<Uint8Array | null>;

/** The cameras of a zone tried in turn, first added first. */
const TRIED = 3;

/**
 * A picture of a store's zone (its entrance, its exit) from the first of its
 * active cameras there that answers, for the face check. Unlike a console
 * snapshot, it is neither stored nor shown to anyone: the caller looks at it
 * and lets it go. Null when the store has no such camera or none answered
 * before the signal.
 */
export function zonePicture(app: FastifyInstance): ZonePicture {
  return async (storeId, zone, { signal }) => {
    const rows = await app.db
      .select({ channel: cameras.cameraIndex, system: cameraSystems })
      .from(cameras)
      .innerJoin(cameraSystems, eq(cameraSystems.id, cameras.cameraSystemId))
      .where(and(eq(cameras.storeId, storeId), eq(cameras.locationZone, zone), eq(cameras.isActive, true)))
      .orderBy(asc(cameras.createdAt), asc(cameras.id))
      .limit(TRIED);
    for (const row of rows) {
      if (signal.aborted) return null;
      try {
        const target = targetOf(row.system, app.cameraSealer);
        const picture = await app.cameraDevices.snapshot(target, row.channel, { networks: networksOf(app), signal });
        if (picture.image.byteLength > 0) return picture.image;
      } catch (err) {
        app.log.warn({ store_id: storeId, zone, err: (err as Error).message }, "a zone camera gave no picture");
      }
    }
    return null;
  };
}
