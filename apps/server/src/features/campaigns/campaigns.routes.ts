import {
  campaignIdParams,
  campaignInputSchema,
  campaignListQuerySchema,
  campaignListSchema,
  campaignSchema,
} from "@glide/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorResponses } from "../../platform/route-errors.ts";
import { actorOf, requireAdmin } from "../admin-auth/admin-auth.hooks.ts";
import { listCampaigns } from "./campaigns.query.ts";
import { createCampaign, deleteCampaign, replaceCampaign } from "./campaigns.service.ts";

const errors = errorResponses(400, 401, 403, 404, 422);

/** Campaigns: platform admins keep every one; store admins the chain-wide ones to read and their stores' to change. */
export const campaignRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("preHandler", requireAdmin);
  const tags = ["campaigns"];

  app.get(
    "/api/v1/campaigns/",
    {
      schema: {
        tags,
        summary:
          "Campaigns the admin sees (a store admin: the chain-wide ones and their stores'), the latest first day first; store_id gives those that count in that store, search matches product name or SKU. The total is in X-Total-Count.",
        querystring: campaignListQuerySchema,
        response: { 200: campaignListSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { items, total } = await listCampaigns({ db: app.db, actor: actorOf(request), query: request.query });
      reply.header("x-total-count", String(total));
      return items;
    },
  );

  app.post(
    "/api/v1/campaigns/",
    {
      schema: {
        tags,
        summary:
          "Add a campaign: a price below the product's ordinary price from one day to another (at most 366 days) in one store, or in every store (store_id null, platform admins only)",
        body: campaignInputSchema,
        response: { 201: campaignSchema, ...errors },
      },
    },
    async (request, reply) => {
      const created = await createCampaign({ db: app.db, actor: actorOf(request), input: request.body });
      return reply.status(201).send(created);
    },
  );

  app.put(
    "/api/v1/campaigns/:id",
    {
      schema: {
        tags,
        summary: "Replace a campaign with the body; a store admin only their stores' campaigns, kept in their stores",
        params: campaignIdParams,
        body: campaignInputSchema,
        response: { 200: campaignSchema, ...errors },
      },
    },
    (request) => replaceCampaign({ db: app.db, actor: actorOf(request), id: request.params.id, input: request.body }),
  );

  app.delete(
    "/api/v1/campaigns/:id",
    {
      schema: {
        tags,
        summary: "Delete a campaign; a store admin only their stores' campaigns",
        params: campaignIdParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await deleteCampaign({ db: app.db, actor: actorOf(request), id: request.params.id });
      return reply.status(204).send(null);
    },
  );
};
