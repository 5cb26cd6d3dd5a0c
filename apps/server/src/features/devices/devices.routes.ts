import {
  deviceKeyCreatedSchema,
  deviceKeyCreateSchema,
  deviceKeyParams,
  deviceKeySchema,
  storeIdParams,
} from "@glide/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorResponses } from "../../platform/route-errors.ts";
import { actorOf, requireAdmin } from "../admin-auth/admin-auth.hooks.ts";
import { createDeviceKey, listDeviceKeys, revokeDeviceKey } from "./devices.service.ts";

const errors = errorResponses(400, 401, 403, 404, 422);
const tags = ["store devices"];

/** Keys for a store's door scanner and other devices; the key is shown once, only its hash is kept. */
export const deviceRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("preHandler", requireAdmin);

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
    async (request) => listDeviceKeys(app.db, actorOf(request), request.params.id),
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
    async (request, reply) =>
      reply.status(201).send(await createDeviceKey(app.db, actorOf(request), request.params.id, request.body)),
  );

  app.delete(
    "/api/v1/stores/:id/device-keys/:keyId",
    {
      schema: {
        tags,
        summary: "Revoke a device key",
        params: deviceKeyParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await revokeDeviceKey(app.db, actorOf(request), request.params.id, request.params.keyId);
      return reply.status(204).send(null);
    },
  );
};
