import {
  deviceKeyCreatedSchema,
  deviceKeyCreateSchema,
  deviceKeySchema,
  errorSchema,
  storeIdParams,
} from "@glide/contracts";
import { and, desc, eq } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { storeDeviceKeys, stores } from "../../db/schema/index.ts";
import { randomToken, sha256 } from "../../platform/crypto.ts";
import { notFound } from "../../platform/errors.ts";
import { actorOf, assertPlatformAdmin, requireAdmin } from "../admin-auth/admin-auth.hooks.ts";
import { named, recordAudit } from "../audit/audit.ts";

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 422: errorSchema };
const tags = ["store devices"];
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

/** Keys for a store's door scanner and other devices; the key is shown once, only its hash is kept. */
export const deviceRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("preHandler", requireAdmin);
  app.addHook("preHandler", async (request) => assertPlatformAdmin(actorOf(request), "manage device keys"));

  const storeExists = async (id: string) => {
    const [store] = await app.db.select({ id: stores.id, name: stores.name }).from(stores).where(eq(stores.id, id));
    if (!store) throw notFound(`Store ${id} not found`);
    return store;
  };

  app.get(
    "/api/v1/stores/:id/device-keys",
    {
      schema: {
        tags,
        summary: "A store's device keys (without the keys)",
        params: storeIdParams,
        response: { 200: z.array(deviceKeySchema), ...errors },
      },
    },
    async (request) => {
      await storeExists(request.params.id);
      const rows = await app.db
        .select()
        .from(storeDeviceKeys)
        .where(eq(storeDeviceKeys.storeId, request.params.id))
        .orderBy(desc(storeDeviceKeys.createdAt));
      return rows.map(toKey);
    },
  );

  app.post(
    "/api/v1/stores/:id/device-keys",
    {
      schema: {
        tags,
        summary: "Create a device key; the answer is the only time the key is shown",
        params: storeIdParams,
        body: deviceKeyCreateSchema,
        response: { 201: deviceKeyCreatedSchema, ...errors },
      },
    },
    async (request, reply) => {
      const store = await storeExists(request.params.id);
      const key = `gd_${randomToken(32)}`;
      const row = await app.db.transaction(async (tx) => {
        const [created] = await tx
          .insert(storeDeviceKeys)
          .values({
            storeId: store.id,
            kind: request.body.kind,
            label: request.body.label ?? null,
            keyHash: sha256(key),
          })
          .returning();
        await recordAudit(tx, {
          actor: actorOf(request),
          action: "store.device_key_create",
          entityType: "device_key",
          entityId: created!.id,
          storeId: store.id,
          summary: `${keyName(created!)} created for ${named("store", store.name)}`,
          after: toKey(created!),
        });
        return created!;
      });
      return reply.status(201).send({ ...toKey(row), key });
    },
  );

  app.delete(
    "/api/v1/stores/:id/device-keys/:keyId",
    {
      schema: {
        tags,
        summary: "Revoke a device key",
        params: storeIdParams.extend({ keyId: z.uuid() }),
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await app.db.transaction(async (tx) => {
        const [deleted] = await tx
          .delete(storeDeviceKeys)
          .where(and(eq(storeDeviceKeys.id, request.params.keyId), eq(storeDeviceKeys.storeId, request.params.id)))
          .returning();
        if (!deleted) throw notFound(`Device key ${request.params.keyId} not found`);
        const [store] = await tx.select({ name: stores.name }).from(stores).where(eq(stores.id, deleted.storeId));
        await recordAudit(tx, {
          actor: actorOf(request),
          action: "store.device_key_delete",
          entityType: "device_key",
          entityId: deleted.id,
          storeId: deleted.storeId,
          summary: `${keyName(deleted)} revoked for ${named("store", store?.name ?? deleted.storeId)}`,
          before: toKey(deleted),
        });
      });
      return reply.status(204).send(null);
    },
  );
};
