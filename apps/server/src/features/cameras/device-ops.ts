import type { ConnectionTest, connectionTestInputSchema, PtzCommand, PtzPreset, StreamInfo } from "@glide/contracts";
import { and, desc, eq, notInArray } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import { cameraSnapshots, cameraSystems, cameras } from "../../db/schema/index.ts";
import { type CameraNetworks, PtzNotSupportedError } from "../../platform/cameras/index.ts";
import { AppError, conflict, notFound } from "../../platform/errors.ts";
import { assertCanManageStore } from "../admin-auth/admin-auth.hooks.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";
import { checkHost, movesCredential, networksOf } from "./addresses.ts";
import { type DeviceTarget, targetOf } from "./camera-credentials.ts";
import { cameraRow, systemRow } from "./camera-records.ts";
import { recordStatus } from "./camera-status.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** Talks to cameras (platform/cameras); tests may give another implementation of the same protocols. */
    cameraDevices: CameraDevices;
  }
}

/** Where a device call may go: every address it connects to is checked against these networks first. */
export type Reach = { networks: CameraNetworks };

/** The device side the cameras feature needs, whatever speaks the protocols. */
export interface CameraDevices {
  testConnection(target: DeviceTarget, opts: Reach & { timeoutMs: number }): Promise<ConnectionTest>;
  /** `streamPath`: the camera's own path on its system, if it has one; else the brand's path for the channel. */
  streamInfo(
    target: DeviceTarget,
    channel: number,
    streamPath: string | null,
    opts: Reach & { preset?: { port: number; stream_format: string } },
  ): Promise<{ stream_url: string; resolution: string | null; fps: number | null }>;
  /** A standalone camera's rtsp:// address, probed with DESCRIBE. */
  probeStream(url: string, opts: Reach): Promise<{ resolution: string | null; fps: number | null }>;
  snapshot(
    target: DeviceTarget,
    channel: number,
    opts: Reach & { timeoutMs?: number; signal?: AbortSignal },
  ): Promise<{ image: Uint8Array; contentType: string }>;
  ptz(
    target: DeviceTarget,
    channel: number,
    command: { action: string; speed: number; preset?: number },
    opts: Reach,
  ): Promise<void>;
  ptzPresets(target: DeviceTarget, channel: number, opts: Reach): Promise<PtzPreset[]>;
  /** Whether the channel can pan, tilt or zoom (false also when the device does not say). */
  hasPtz(target: DeviceTarget, channel: number, opts: Reach): Promise<boolean>;
}

/**
 * The device client's own errors already carry their status (409 no PTZ,
 * 502 device error, 504 no answer in time); anything else is a 502.
 */
export function deviceError(err: unknown, what: string): never {
  const e = err as { name?: string; message?: string };
  if (e?.name === "TimeoutError" || e?.name === "AbortError") {
    throw new AppError(504, "device_timeout", `The camera did not answer in time (${what})`);
  }
  if (err instanceof AppError) throw err;
  throw new AppError(502, "device_error", `${what} failed: ${e?.message ?? "the camera gave no answer we understand"}`);
}

export const CONNECTION_TEST_TIMEOUT_MS = 5_000;
/** Pictures kept per camera; older ones are deleted when a new one is taken. */
export const SNAPSHOTS_KEPT = 3;
const MAX_SNAPSHOT_BYTES = 5 * 1024 * 1024;

/** The test answers what went wrong in words, whatever went wrong. */
async function runTest(app: FastifyInstance, target: DeviceTarget): Promise<ConnectionTest> {
  const started = performance.now();
  return app.cameraDevices
    .testConnection(target, { timeoutMs: CONNECTION_TEST_TIMEOUT_MS, networks: networksOf(app) })
    .catch(
      (err: Error): ConnectionTest => ({
        status: "failed",
        message: `The test could not run: ${err.message}`,
        step: "connect",
        duration_ms: Math.round(performance.now() - started),
        device: null,
      }),
    );
}

export async function testSystem(app: FastifyInstance, actor: AdminActor, id: string): Promise<ConnectionTest> {
  const system = await systemRow(app.db, actor, id);
  const result = await runTest(app, targetOf(system, app.cameraSealer));
  await recordStatus(
    app.db,
    { kind: "system", id },
    result.status === "success" ? "online" : "offline",
    result.message,
  );
  return result;
}

/**
 * Test Connection on what the dialog holds, before it is saved: the rules of
 * saving it (the admin manages the store, the host is in a camera network).
 * An empty password of a system being edited is its stored one, but only
 * while host, port, connection type and user are the ones it was stored for,
 * as a save would keep it; the password never comes back. Nothing is stored:
 * the system's status is its saved settings'.
 */
export async function testTyped(
  app: FastifyInstance,
  actor: AdminActor,
  input: z.output<typeof connectionTestInputSchema>,
): Promise<ConnectionTest> {
  assertCanManageStore(actor, input.store_id);
  checkHost("host", input.host, networksOf(app));
  const defaults = (await app.settings.effective(input.store_id)).camera.system_defaults;
  const connection_type = input.connection_type ?? defaults.connection_type;
  const username = input.username ?? null;
  let password = input.password ?? null;
  if (input.system_id) {
    const stored = await systemRow(app.db, actor, input.system_id);
    const moved = movesCredential(stored, { host: input.host, port: input.port, connection_type, username });
    if (password === null && stored.passwordSealed && !moved) password = app.cameraSealer.open(stored.passwordSealed);
  }
  return runTest(app, {
    connection_type,
    brand: input.brand ?? defaults.brand,
    host: input.host,
    port: input.port,
    username,
    password,
    api_endpoint: input.api_endpoint ?? null,
  });
}

/** The camera with what a device call needs: its system's connection (none for a standalone camera). */
async function cameraWithTarget(app: FastifyInstance, actor: AdminActor, id: string) {
  const camera = await cameraRow(app.db, actor, id);
  if (!camera.cameraSystemId) return { camera, target: null };
  const [system] = await app.db.select().from(cameraSystems).where(eq(cameraSystems.id, camera.cameraSystemId));
  if (!system) throw notFound(`Camera ${id} has no system`);
  return { camera, target: targetOf(system, app.cameraSealer) };
}

export async function cameraStream(app: FastifyInstance, actor: AdminActor, id: string): Promise<StreamInfo> {
  const { camera, target } = await cameraWithTarget(app, actor, id);
  const path = camera.streamUrl?.startsWith("/") ? camera.streamUrl : null;
  try {
    if (!target) {
      if (!camera.streamUrl) throw conflict("This camera has no system and no stream URL", "no_stream");
      const probed = await app.cameraDevices.probeStream(camera.streamUrl, { networks: networksOf(app) });
      return {
        stream_url: camera.streamUrl,
        resolution: probed.resolution ?? camera.resolution,
        fps: probed.fps ?? camera.fps,
        status: camera.status,
      };
    }
    const presets = (await app.settings.effective(camera.storeId)).camera.brand_presets as Record<
      string,
      { port: number; stream_format: string }
    >;
    const info = await app.cameraDevices.streamInfo(target, camera.cameraIndex, path, {
      networks: networksOf(app),
      ...(presets[target.brand] ? { preset: presets[target.brand] } : {}),
    });
    return {
      stream_url: info.stream_url,
      resolution: info.resolution ?? camera.resolution,
      fps: info.fps ?? camera.fps,
      status: camera.status,
    };
  } catch (err) {
    deviceError(err, "Reading the stream");
  }
}

export async function cameraSnapshot(
  app: FastifyInstance,
  actor: AdminActor,
  id: string,
): Promise<{ snapshot_url: string; taken_at: string }> {
  const { camera, target } = await cameraWithTarget(app, actor, id);
  if (!target) throw conflict("A camera without a system has no snapshot address", "no_snapshot");
  let picture: { image: Uint8Array; contentType: string };
  try {
    picture = await app.cameraDevices.snapshot(target, camera.cameraIndex, { networks: networksOf(app) });
  } catch (err) {
    deviceError(err, "Taking the snapshot");
  }
  if (!picture.contentType.startsWith("image/jpeg") || picture.image.byteLength > MAX_SNAPSHOT_BYTES) {
    throw new AppError(502, "device_error", "The camera did not send a JPEG picture of at most 5 MB");
  }
  const stored = await app.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(cameraSnapshots)
      .values({ cameraId: camera.id, contentType: "image/jpeg", image: picture.image })
      .returning({ id: cameraSnapshots.id, takenAt: cameraSnapshots.takenAt });
    const keep = await tx
      .select({ id: cameraSnapshots.id })
      .from(cameraSnapshots)
      .where(eq(cameraSnapshots.cameraId, camera.id))
      .orderBy(desc(cameraSnapshots.takenAt), desc(cameraSnapshots.id))
      .limit(SNAPSHOTS_KEPT);
    await tx.delete(cameraSnapshots).where(
      and(
        eq(cameraSnapshots.cameraId, camera.id),
        notInArray(
          cameraSnapshots.id,
          keep.map((k) => k.id),
        ),
      ),
    );
    return row!;
  });
  return { snapshot_url: `/api/v1/cameras/snapshots/${stored.id}`, taken_at: stored.takenAt.toISOString() };
}

/** A stored picture, for an admin who may see its camera. */
export async function readSnapshot(app: FastifyInstance, actor: AdminActor, id: string) {
  const [row] = await app.db.select().from(cameraSnapshots).where(eq(cameraSnapshots.id, id));
  if (!row) throw notFound(`Snapshot ${id} not found`);
  await cameraRow(app.db, actor, row.cameraId);
  return row;
}

async function ptzTarget(app: FastifyInstance, actor: AdminActor, id: string) {
  const { camera, target } = await cameraWithTarget(app, actor, id);
  if (!target) throw conflict("This camera has no pan, tilt or zoom", "no_ptz");
  return { camera, target };
}

/** Learns from a no-PTZ answer, so the screen disables the pad next time. */
async function rememberNoPtz(app: FastifyInstance, cameraId: string, err: unknown) {
  if (err instanceof PtzNotSupportedError) {
    await app.db.update(cameras).set({ hasPtz: false }).where(eq(cameras.id, cameraId));
  }
}

export async function cameraPtzPresets(app: FastifyInstance, actor: AdminActor, id: string): Promise<PtzPreset[]> {
  const { camera, target } = await ptzTarget(app, actor, id);
  try {
    return await app.cameraDevices.ptzPresets(target, camera.cameraIndex, { networks: networksOf(app) });
  } catch (err) {
    await rememberNoPtz(app, camera.id, err);
    deviceError(err, "Reading the presets");
  }
}

export async function cameraPtz(
  app: FastifyInstance,
  actor: AdminActor,
  id: string,
  command: PtzCommand,
): Promise<{ action: string; done: boolean }> {
  const { camera, target } = await ptzTarget(app, actor, id);
  try {
    await app.cameraDevices.ptz(
      target,
      camera.cameraIndex,
      {
        action: command.action,
        speed: command.speed ?? 50,
        ...(command.preset !== undefined ? { preset: command.preset } : {}),
      },
      { networks: networksOf(app) },
    );
    return { action: command.action, done: true };
  } catch (err) {
    await rememberNoPtz(app, camera.id, err);
    deviceError(err, `PTZ ${command.action}`);
  }
}
