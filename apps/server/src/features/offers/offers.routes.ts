import {
  multiBuyOfferIdParams,
  multiBuyOfferInputSchema,
  multiBuyOfferListQuerySchema,
  multiBuyOfferListSchema,
  multiBuyOfferSchema,
} from "@glide/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorResponses } from "../../platform/route-errors.ts";
import { actorOf, requireAdmin } from "../admin-auth/admin-auth.hooks.ts";
import { listOffers } from "./offers.query.ts";
import { createOffer, deleteOffer, replaceOffer } from "./offers.service.ts";

const errors = errorResponses(400, 401, 403, 404, 422);

/** Multi-buy offers: platform admins keep every one; store admins the chain-wide ones to read and their stores' to change. */
export const offerRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("preHandler", requireAdmin);
  const tags = ["offers"];

  app.get(
    "/api/v1/offers/",
    {
      schema: {
        tags,
        summary:
          "Multi-buy offers the admin sees (a store admin: the chain-wide ones and their stores'), the latest first day first; store_id gives those that count in that store, search matches the label or a product's name or SKU. The total is in X-Total-Count.",
        querystring: multiBuyOfferListQuerySchema,
        response: { 200: multiBuyOfferListSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { items, total } = await listOffers({ db: app.db, actor: actorOf(request), query: request.query });
      reply.header("x-total-count", String(total));
      return items;
    },
  );

  app.post(
    "/api/v1/offers/",
    {
      schema: {
        tags,
        summary:
          "Add a multi-buy offer ('3 för 2', '2 för 35 kr') over one product or a set, from one day to another (at most 366 days) in one store, or in every store (store_id null, platform admins only)",
        body: multiBuyOfferInputSchema,
        response: { 201: multiBuyOfferSchema, ...errors },
      },
    },
    async (request, reply) => {
      const created = await createOffer({ db: app.db, actor: actorOf(request), input: request.body });
      await app.offerBook.changed();
      return reply.status(201).send(created);
    },
  );

  app.put(
    "/api/v1/offers/:id",
    {
      schema: {
        tags,
        summary:
          "Replace an offer and its products with the body; a store admin only their stores' offers, kept in their stores",
        params: multiBuyOfferIdParams,
        body: multiBuyOfferInputSchema,
        response: { 200: multiBuyOfferSchema, ...errors },
      },
    },
    async (request) => {
      const offer = await replaceOffer({
        db: app.db,
        actor: actorOf(request),
        id: request.params.id,
        input: request.body,
      });
      await app.offerBook.changed();
      return offer;
    },
  );

  app.delete(
    "/api/v1/offers/:id",
    {
      schema: {
        tags,
        summary: "Delete an offer; a store admin only their stores' offers",
        params: multiBuyOfferIdParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await deleteOffer({ db: app.db, actor: actorOf(request), id: request.params.id });
      await app.offerBook.changed();
      return reply.status(204).send(null);
    },
  );
};
