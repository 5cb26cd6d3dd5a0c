import {
  vatRateIdParams,
  vatRateInputSchema,
  vatRateListQuerySchema,
  vatRateListSchema,
  vatRateSchema,
} from "@glide/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorResponses } from "../../platform/route-errors.ts";
import { actorOf, requireAdmin } from "../admin-auth/admin-auth.hooks.ts";
import { createVatRate, deleteVatRate, listVatRates, replaceVatRate } from "./vat-rates.service.ts";

const errors = errorResponses(400, 401, 403, 404, 409, 422);

/** The VAT rate table: every console admin reads it, platform admins change it. */
export const vatRateRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("preHandler", requireAdmin);
  const tags = ["vat-rates"];

  app.get(
    "/api/v1/vat-rates/",
    {
      schema: {
        tags,
        summary:
          "The VAT rate periods of one country (or all), by country, category and first day; rates in percent, and today's day in Stockholm",
        querystring: vatRateListQuerySchema,
        response: { 200: vatRateListSchema, ...errors },
      },
    },
    (request) => listVatRates({ db: app.db, country: request.query.country }),
  );

  app.post(
    "/api/v1/vat-rates/",
    {
      schema: {
        tags,
        summary: "Add a period of a category's rate (platform admins); 409 when it shares a day with another",
        body: vatRateInputSchema,
        response: { 201: vatRateSchema, ...errors },
      },
    },
    async (request, reply) => {
      const created = await createVatRate({ db: app.db, actor: actorOf(request), input: request.body });
      return reply.status(201).send(created);
    },
  );

  app.put(
    "/api/v1/vat-rates/:id",
    {
      schema: {
        tags,
        summary: "Replace a period with the body (platform admins); 409 when it would share a day with another",
        params: vatRateIdParams,
        body: vatRateInputSchema,
        response: { 200: vatRateSchema, ...errors },
      },
    },
    (request) => replaceVatRate({ db: app.db, actor: actorOf(request), id: request.params.id, input: request.body }),
  );

  app.delete(
    "/api/v1/vat-rates/:id",
    {
      schema: {
        tags,
        summary: "Delete a period (platform admins)",
        params: vatRateIdParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await deleteVatRate({ db: app.db, actor: actorOf(request), id: request.params.id });
      return reply.status(204).send(null);
    },
  );
};
