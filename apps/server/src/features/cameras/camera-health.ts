import type { FastifyInstance } from "fastify";
import { queryRows, sql } from "../../db/client.ts";
import { isDatabaseUnavailable, safeError } from "../../platform/errors.ts";
import { claimRound, roundSlackMs, schedulePeriodic } from "../../platform/housekeeping.ts";
import { onCloseStep } from "../../platform/shutdown.ts";
import { networksOf } from "./addresses.ts";
import { type Sealer, targetOf } from "./camera-credentials.ts";
import { everything, type ProbeScope, recordStatus, rowsToProbe } from "./camera-status.ts";
import { CONNECTION_TEST_TIMEOUT_MS } from "./device-ops.ts";

declare module "fastify" {
  interface FastifyInstance {
    /**
     * The camera health checker: `kick` runs a round now; `probe` checks one
     * saved system (with its cameras) or camera at once, so the screen shows
     * its status right after the save instead of at the next round.
     */
    cameraHealth: { kick(): void; probe(scope: ProbeScope): void; idle(): Promise<void> };
    cameraSealer: Sealer;
  }
}

/** How often the timer looks whether a round is due (the interval itself is the setting camera/health_check_interval). */
const TICK_MS = 5_000;
/** Any number that no other advisory lock of this database uses. */
export const HEALTH_LOCK = 0x63616d;

/**
 * One round: every system's connection test and every active camera's
 * stream, all at once, each with its own time limit, so a slow camera
 * delays nothing but its own answer. Statuses that change are recorded.
 */
export async function checkCameras(
  app: FastifyInstance,
  scope?: ProbeScope,
): Promise<{ systems: number; cameras: number; changed: number }> {
  const { systems, cameras } = scope ? await rowsToProbe(app.db, scope) : await everything(app.db);
  let changed = 0;
  const note = async (...args: Parameters<typeof recordStatus>) => {
    if (await recordStatus(...args)) changed++;
  };
  const byId = new Map(systems.map((s) => [s.id, s]));
  // Every round looks each host up again: a name that now leads somewhere cameras may not be is refused.
  const reach = { networks: networksOf(app) };
  const systemUp = new Map<string, Promise<boolean>>();
  for (const system of systems) {
    systemUp.set(
      system.id,
      (async () => {
        const result = await app.cameraDevices
          .testConnection(targetOf(system, app.cameraSealer), { ...reach, timeoutMs: CONNECTION_TEST_TIMEOUT_MS })
          .catch((err: Error) => ({ status: "failed" as const, message: err.message }));
        const up = result.status === "success";
        await note(app.db, { kind: "system", id: system.id }, up ? "online" : "offline", result.message);
        return up;
      })(),
    );
  }
  const probes = cameras
    .filter((camera) => camera.isActive)
    .map(async (camera) => {
      const system = camera.cameraSystemId ? byId.get(camera.cameraSystemId) : undefined;
      if (system && !(await systemUp.get(system.id))) {
        return note(app.db, { kind: "camera", id: camera.id }, "offline", "Its camera system does not answer");
      }
      const limit = AbortSignal.timeout(CONNECTION_TEST_TIMEOUT_MS);
      const within = <T>(work: Promise<T>) =>
        Promise.race([
          work,
          new Promise<never>((_, reject) =>
            limit.addEventListener("abort", () => reject(new Error("no answer within 5 s")), { once: true }),
          ),
        ]);
      try {
        if (system) {
          const target = targetOf(system, app.cameraSealer);
          const path = camera.streamUrl?.startsWith("/") ? camera.streamUrl : null;
          const [stream, ptz] = await within(
            Promise.all([
              app.cameraDevices.streamInfo(target, camera.cameraIndex, path, reach),
              app.cameraDevices.hasPtz(target, camera.cameraIndex, reach).catch(() => false),
            ]),
          );
          await note(app.db, { kind: "camera", id: camera.id }, "online", "The stream answers", {
            hasPtz: ptz,
            reported: stream,
          });
        } else if (camera.streamUrl) {
          const stream = await within(app.cameraDevices.probeStream(camera.streamUrl, reach));
          await note(app.db, { kind: "camera", id: camera.id }, "online", "The stream answers", { reported: stream });
        }
      } catch (err) {
        await note(app.db, { kind: "camera", id: camera.id }, "offline", (err as Error).message);
      }
    });
  await Promise.all([...systemUp.values(), ...probes]);
  return { systems: systems.length, cameras: cameras.length, changed };
}

/**
 * One round on whichever instance gets the lock: with PostgreSQL a
 * transaction-scoped advisory lock held for the round, so the others skip
 * it; PGlite has one instance by design.
 */
export async function healthRound(app: FastifyInstance): Promise<"ran" | "skipped"> {
  if (app.database.kind === "pglite") {
    await checkCameras(app);
    return "ran";
  }
  return app.db.transaction(async (tx) => {
    const [lock] = await queryRows<{ ok: boolean }>(tx, sql`select pg_try_advisory_xact_lock(${HEALTH_LOCK}) as ok`);
    if (!lock?.ok) return "skipped";
    await checkCameras(app);
    return "ran";
  });
}

/**
 * Runs `healthRound` once every camera/health_check_interval seconds across
 * all instances: the instance whose timer first finds a round due claims it
 * (claimRound), the others skip it. With PostgreSQL the round also holds a
 * transaction-scoped advisory lock, so a round that outlasts its interval
 * never runs beside the next. A kick (a setting changed) runs one here now.
 */
export function startCameraHealth(app: FastifyInstance) {
  let lastRound = 0;
  let forced = false;
  const job = schedulePeriodic(app, "camera health", TICK_MS, async () => {
    const interval = (await app.settings.effective()).camera.health_check_interval * 1000;
    if (!forced) {
      // This instance's own last round first: most ticks end here without a statement.
      if (Date.now() - lastRound < interval - roundSlackMs(interval)) return;
      if (!(await claimRound(app.db, "camera health", interval))) return;
    }
    forced = false;
    lastRound = Date.now();
    await healthRound(app);
  });
  const probes = new Set<Promise<void>>();
  let closed = false;
  onCloseStep(app, "camera probes", async () => {
    closed = true;
    await Promise.all(probes);
  });
  return {
    kick() {
      forced = true;
      job.kick();
    },
    probe(scope: ProbeScope) {
      if (closed) return;
      // Not awaited by the save: a device that does not answer would hold it for the whole time limit.
      const running = checkCameras(app, scope).then(
        () => undefined,
        (err: unknown) => {
          if (!isDatabaseUnavailable(err)) app.log.warn({ err: safeError(err), scope }, "camera probe failed");
        },
      );
      probes.add(running);
      void running.finally(() => probes.delete(running));
    },
    async idle() {
      await Promise.all([job.idle(), ...probes]);
    },
  };
}
