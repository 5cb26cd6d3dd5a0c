import { dashboardStatsSchema } from "@glide/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { errorResponses } from "../../platform/route-errors.ts";
import { actorOf, requireAdmin } from "../admin-auth/admin-auth.hooks.ts";
import { dashboardStats } from "./dashboard.service.ts";

export const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/v1/admin/dashboard",
    {
      preHandler: requireAdmin,
      schema: {
        tags: ["dashboard"],
        summary: "Platform statistics",
        response: { 200: dashboardStatsSchema, ...errorResponses(401) },
      },
    },
    (request) => dashboardStats({ db: app.db, actor: actorOf(request) }),
  );
};
