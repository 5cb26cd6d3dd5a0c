import {
  storeCreateSchema,
  storeIdParams,
  storeListQuery,
  storeModuleParams,
  storeModuleSchema,
  storeModuleUpdateSchema,
  storeSchema,
  storeUpdateSchema,
} from "@glide/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorResponses } from "../../platform/route-errors.ts";
import { actorOf, requireAdmin } from "../admin-auth/admin-auth.hooks.ts";
import { keptStoreLists } from "./store-list.ts";
import { createStore, deleteStore, listStoreModules, setStoreModule, updateStore } from "./stores.service.ts";

const errors = errorResponses(400, 401, 403, 404, 422);

export const storeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("preHandler", requireAdmin);
  const tags = ["stores"];
  const lists = keptStoreLists();

  app.get(
    "/api/v1/stores/",
    {
      schema: {
        tags,
        summary:
          "Stores the admin may see; search matches name, city, organisation number or e-mail. The total is in X-Total-Count.",
        querystring: storeListQuery,
        response: { 200: z.array(storeSchema), ...errors },
      },
    },
    async (request, reply) => {
      const { body, total } = await lists.list(app.db, actorOf(request), request.query);
      reply.header("x-total-count", String(total)).type("application/json; charset=utf-8");
      // JSON already checked against the schema when it was read (store-list.ts): sent as it is.
      return reply.send(body as never);
    },
  );

  app.post(
    "/api/v1/stores/",
    { schema: { tags, summary: "Create a store", body: storeCreateSchema, response: { 201: storeSchema, ...errors } } },
    async (request, reply) => {
      const store = await createStore({
        db: app.db,
        actor: actorOf(request),
        input: request.body,
        settings: await app.settings.effective(),
      });
      return reply.status(201).send(store);
    },
  );

  app.put(
    "/api/v1/stores/:id",
    {
      schema: {
        tags,
        summary: "Update a store (any subset of fields; only is_active for the bulk actions)",
        params: storeIdParams,
        body: storeUpdateSchema,
        response: { 200: storeSchema, ...errors },
      },
    },
    (request) => updateStore({ db: app.db, actor: actorOf(request), id: request.params.id, input: request.body }),
  );

  app.delete(
    "/api/v1/stores/:id",
    { schema: { tags, summary: "Delete a store", params: storeIdParams, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await deleteStore({ db: app.db, actor: actorOf(request), id: request.params.id });
      return reply.status(204).send(null);
    },
  );

  app.get(
    "/api/v1/stores/:id/modules",
    {
      schema: {
        tags,
        summary: "The module catalogue with this store's enabled flags",
        params: storeIdParams,
        response: { 200: z.array(storeModuleSchema), ...errors },
      },
    },
    (request) => listStoreModules({ db: app.db, actor: actorOf(request), storeId: request.params.id }),
  );

  app.post(
    "/api/v1/stores/:id/modules/:moduleId",
    {
      schema: {
        tags,
        summary: "Enable or disable a module for a store",
        params: storeModuleParams,
        body: storeModuleUpdateSchema,
        response: { 200: storeModuleSchema, ...errors },
      },
    },
    (request) =>
      setStoreModule({
        db: app.db,
        actor: actorOf(request),
        storeId: request.params.id,
        moduleId: request.params.moduleId,
        bodyModuleId: request.body.module_id,
        enabled: request.body.enabled,
      }),
  );
};
