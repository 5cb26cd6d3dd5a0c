import { openVisitSchema, unpaidVisitSchema } from "@glide/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorResponses } from "../../platform/route-errors.ts";
import { requireShopper, shopperOf } from "../shopper-auth/shopper-auth.hooks.ts";
import { openVisit, unpaidVisits } from "./visits.ts";

export const visitRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/v1/visits/unpaid",
    {
      preHandler: requireShopper,
      schema: {
        tags: ["shopping sessions"],
        summary:
          "The shopper's visits left with goods and no payment, oldest first; POST /api/v1/checkout pays them, and until then no entry code is given",
        response: { 200: z.array(unpaidVisitSchema), ...errorResponses(401) },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return unpaidVisits(app.db, shopperOf(request));
    },
  );

  app.get(
    "/api/v1/visits/open",
    {
      preHandler: requireShopper,
      schema: {
        tags: ["shopping sessions"],
        summary:
          "The shopper's visit inside a store now (the one through the door last), with its cart's total and units; null when there is none",
        response: { 200: openVisitSchema.nullable(), ...errorResponses(401) },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return openVisit(app.db, shopperOf(request));
    },
  );
};
