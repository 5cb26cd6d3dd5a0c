import type { DeviceKeyCreated, DeviceKind } from "@glide/contracts";
import { and, desc, eq } from "drizzle-orm";
import { type Db, queryRows, sql } from "../../db/client.ts";
import { storeDeviceKeys, stores } from "../../db/schema/index.ts";
import { randomToken, sha256 } from "../../platform/crypto.ts";
import { notFound, unauthorized } from "../../platform/errors.ts";
import { assertPlatformAdmin } from "../admin-auth/admin-auth.hooks.ts";
import type { AdminActor as Actor } from "../admin-auth/admin-auth.service.ts";
import { named, recordAudit } from "../audit/audit.ts";

type Row = typeof storeDeviceKeys.$inferSelect;

const toKey = (r: Row) => ({
  id: r.id,
  store_id: r.storeId,
  kind: r.kind,
  label: r.label,
  created_at: r.createdAt.toISOString(),
  last_used_at: r.lastUsedAt?.toISOString() ?? null,
});

/** How the audit log names a key: its label, or its kind when it has none. */
const keyName = (r: Row) => (r.label ? `${named("Device key", r.label)} (${r.kind})` : `Device key (${r.kind})`);

async function existingStore(db: Db, id: string) {
  const [store] = await db.select({ id: stores.id, name: stores.name }).from(stores).where(eq(stores.id, id));
  if (!store) throw notFound(`Store ${id} not found`);
  return store;
}

/** GET /api/v1/stores/:id/device-keys: a store's keys, newest first, without the keys themselves. */
export async function listDeviceKeys(db: Db, actor: Actor, storeId: string) {
  assertPlatformAdmin(actor, "manage device keys");
  await existingStore(db, storeId);
  const rows = await db
    .select()
    .from(storeDeviceKeys)
    .where(eq(storeDeviceKeys.storeId, storeId))
    .orderBy(desc(storeDeviceKeys.createdAt));
  return rows.map(toKey);
}

/** POST /api/v1/stores/:id/device-keys: a new key, audited; the answer is the only time the key is seen. */
export async function createDeviceKey(
  db: Db,
  actor: Actor,
  storeId: string,
  input: { kind: DeviceKind; label?: string },
): Promise<DeviceKeyCreated> {
  assertPlatformAdmin(actor, "manage device keys");
  const store = await existingStore(db, storeId);
  const key = `gd_${randomToken(32)}`;
  const row = await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(storeDeviceKeys)
      .values({ storeId: store.id, kind: input.kind, label: input.label ?? null, keyHash: sha256(key) })
      .returning();
    await recordAudit(tx, {
      actor,
      action: "store.device_key_create",
      entityType: "device_key",
      entityId: created!.id,
      storeId: store.id,
      summary: `${keyName(created!)} created for ${named("store", store.name)}`,
      after: toKey(created!),
    });
    return created!;
  });
  return { ...toKey(row), key };
}

/** DELETE /api/v1/stores/:id/device-keys/:keyId: the key stops working at once, audited. */
export async function revokeDeviceKey(db: Db, actor: Actor, storeId: string, keyId: string): Promise<void> {
  assertPlatformAdmin(actor, "manage device keys");
  await db.transaction(async (tx) => {
    const [deleted] = await tx
      .delete(storeDeviceKeys)
      .where(and(eq(storeDeviceKeys.id, keyId), eq(storeDeviceKeys.storeId, storeId)))
      .returning();
    if (!deleted) throw notFound(`Device key ${keyId} not found`);
    const [store] = await tx.select({ name: stores.name }).from(stores).where(eq(stores.id, deleted.storeId));
    await recordAudit(tx, {
      actor,
      action: "store.device_key_delete",
      entityType: "device_key",
      entityId: deleted.id,
      storeId: deleted.storeId,
      summary: `${keyName(deleted)} revoked for ${named("store", store?.name ?? deleted.storeId)}`,
      before: toKey(deleted),
    });
  });
}

/**
 * The device whose key an `Authorization: Device <key>` header carries, for a
 * key of `kind`, and its store; the key is marked used. Only its hash is
 * kept, so the header is hashed and looked up. `missing` and `unknown` are
 * the 401s' words for that device.
 */
export async function deviceOf(
  db: Db,
  header: string | undefined,
  kind: DeviceKind,
  words: { missing: string; unknown: string },
): Promise<{ id: string; store_id: string }> {
  const key = /^Device\s+(\S+)$/i.exec(header ?? "")?.[1];
  if (!key) throw unauthorized(words.missing, "device_key_required");
  const [device] = await queryRows<{ id: string; store_id: string }>(
    db,
    sql`update store_device_keys set last_used_at = now()
        where key_hash = ${sha256(key)} and kind = ${kind} returning id, store_id`,
  );
  if (!device) throw unauthorized(words.unknown, "invalid_device_key");
  return device;
}

/** The store of the device whose key the header carries (deviceOf). */
export async function storeOfDevice(
  db: Db,
  header: string | undefined,
  kind: DeviceKind,
  words: { missing: string; unknown: string },
): Promise<string> {
  return (await deviceOf(db, header, kind, words)).store_id;
}
