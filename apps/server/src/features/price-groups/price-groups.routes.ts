import {
  priceGroupInputSchema,
  priceGroupListSchema,
  priceGroupParams,
  priceGroupSchema,
  storePriceGroupSchema,
  storePricesParams,
} from "@glide/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorResponses } from "../../platform/route-errors.ts";
import { actorOf, requireAdmin } from "../admin-auth/admin-auth.hooks.ts";
import {
  createPriceGroup,
  deletePriceGroup,
  listPriceGroups,
  renamePriceGroup,
  setStorePriceGroup,
} from "./price-groups.service.ts";

const errors = errorResponses(400, 401, 403, 404, 409, 422);

/** Price groups and the stores in them: every admin reads the groups of the stores they see; platform admins write. */
export const priceGroupRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("preHandler", requireAdmin);
  const tags = ["price-groups"];

  app.get(
    "/api/v1/price-groups",
    {
      schema: {
        tags,
        summary: "Price groups by name, each with its stores (a store admin's own only) and its number of prices",
        response: { 200: priceGroupListSchema, ...errors },
      },
    },
    (request) => listPriceGroups(app.db, actorOf(request)),
  );

  app.post(
    "/api/v1/price-groups",
    {
      schema: {
        tags,
        summary: "Create a price group (platform admins); the name is unique, case aside (409)",
        body: priceGroupInputSchema,
        response: { 201: priceGroupSchema, ...errors },
      },
    },
    async (request, reply) => {
      const group = await createPriceGroup({ db: app.db, actor: actorOf(request), name: request.body.name });
      return reply.status(201).send(group);
    },
  );

  app.put(
    "/api/v1/price-groups/:id",
    {
      schema: {
        tags,
        summary: "Rename a price group (platform admins)",
        params: priceGroupParams,
        body: priceGroupInputSchema,
        response: { 200: priceGroupSchema, ...errors },
      },
    },
    (request) =>
      renamePriceGroup({ db: app.db, actor: actorOf(request), id: request.params.id, name: request.body.name }),
  );

  app.delete(
    "/api/v1/price-groups/:id",
    {
      schema: {
        tags,
        summary: "Delete a price group and its prices (platform admins); its stores leave it",
        params: priceGroupParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await deletePriceGroup({ db: app.db, actor: actorOf(request), id: request.params.id });
      return reply.status(204).send(null);
    },
  );

  app.put(
    "/api/v1/stores/:id/price-group",
    {
      schema: {
        tags,
        summary: "Put a store in a price group, or in none with null (platform admins), from its next scan on",
        params: storePricesParams,
        body: storePriceGroupSchema,
        response: { 200: storePriceGroupSchema, ...errors },
      },
    },
    (request) =>
      setStorePriceGroup({
        db: app.db,
        actor: actorOf(request),
        storeId: request.params.id,
        groupId: request.body.price_group_id,
      }),
  );
};
