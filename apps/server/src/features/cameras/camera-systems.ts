import type { CameraSystem, cameraSystemInputSchema, cameraSystemUpdateSchema, SettingValues } from "@glide/contracts";
import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "../../db/client.ts";
import { cameraSystems, cameras } from "../../db/schema/index.ts";
import type { CameraNetworks } from "../../platform/cameras/index.ts";
import { fieldError, isForeignKeyViolation } from "../../platform/errors.ts";
import { assertCanManageStore } from "../admin-auth/admin-auth.hooks.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";
import { named, recordAudit, recordUpdate } from "../audit/audit.ts";
import { checkHost, movesCredential } from "./addresses.ts";
import type { Sealer } from "./camera-credentials.ts";
import { systemRow, toSystem } from "./camera-records.ts";

type SystemInput = z.output<typeof cameraSystemInputSchema>;
type SystemUpdate = z.output<typeof cameraSystemUpdateSchema>;

/** A store id that names no store is a field problem, not a 500. */
async function withStoreCheck<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isForeignKeyViolation(err)) throw fieldError("store_id", "Store not found");
    throw err;
  }
}

/** A new camera system, its unset fields from the settings' system defaults, its password sealed. */
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

/** Changes a camera system; a new store moves its cameras with it. */
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
