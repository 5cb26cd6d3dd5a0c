import {
  pantAmountListQuerySchema,
  pantAmountListSchema,
  pantAmountParams,
  pantAmountSchema,
  pantAmountUpdateSchema,
} from "@glide/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorResponses } from "../../platform/route-errors.ts";
import { actorOf, requireAdmin } from "../admin-auth/admin-auth.hooks.ts";
import { HOME_COUNTRY } from "../vat-rates/vat-rate-table.ts";
import { deletePantAmount, listPantAmounts, setPantAmount } from "./pant-amounts.service.ts";

const errors = errorResponses(400, 401, 403, 404, 422);

/** The pant table: every console admin reads it, platform admins change it. */
export const pantAmountRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("preHandler", requireAdmin);
  const tags = ["pant-amounts"];

  app.get(
    "/api/v1/pant-amounts/",
    {
      schema: {
        tags,
        summary:
          "What each pant mark is worth in one country (Sweden unless told), every mark in order, in kronor; null for a mark the country has no pant for. 422 for an unknown country",
        querystring: pantAmountListQuerySchema,
        response: { 200: pantAmountListSchema, ...errors },
      },
    },
    (request) => listPantAmounts({ db: app.db, country: request.query.country ?? HOME_COUNTRY }),
  );

  app.put(
    "/api/v1/pant-amounts/:country/:code",
    {
      schema: {
        tags,
        summary:
          "Set what a mark is worth in a country (platform admins), from the next scan on; 422 for an unknown country or mark",
        params: pantAmountParams,
        body: pantAmountUpdateSchema,
        response: { 200: pantAmountSchema, ...errors },
      },
    },
    (request) =>
      setPantAmount({
        db: app.db,
        actor: actorOf(request),
        country: request.params.country,
        code: request.params.code,
        amount: request.body.amount,
      }),
  );

  app.delete(
    "/api/v1/pant-amounts/:country/:code",
    {
      schema: {
        tags,
        summary:
          "Remove a mark's amount in a country (platform admins): its packages carry no pant there from the next scan; 404 when it has none",
        params: pantAmountParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await deletePantAmount({
        db: app.db,
        actor: actorOf(request),
        country: request.params.country,
        code: request.params.code,
      });
      return reply.status(204).send(null);
    },
  );
};
