import { healthSchema, readySchema } from "@glide/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { DATABASE_RETRY_AFTER_SECONDS } from "../../platform/http-errors.ts";

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/ready",
    {
      schema: {
        tags: ["health"],
        summary:
          "Readiness for a load balancer: 503 while this instance shuts down (SIGTERM) or its database does not answer",
        response: { 200: readySchema, 503: readySchema },
      },
    },
    async (_request, reply) => {
      reply.header("cache-control", "no-store");
      if (app.draining) return reply.status(503).send({ status: "draining" as const });
      try {
        await app.database.ping(2_000);
        return { status: "ready" as const };
      } catch {
        reply.header("retry-after", String(DATABASE_RETRY_AFTER_SECONDS));
        return reply.status(503).send({ status: "database_unavailable" as const });
      }
    },
  );

  app.get(
    "/api/health",
    {
      schema: {
        tags: ["health"],
        summary:
          "Liveness and the database: 503 while the database does not answer; it stays 200 while the instance shuts down",
        response: { 200: healthSchema, 503: healthSchema },
      },
    },
    async (_request, reply) => {
      const kind = app.database.kind;
      try {
        await app.database.ping(2_000);
        return { status: "ok" as const, database: { kind, status: "up" as const } };
      } catch (err) {
        reply.header("retry-after", String(DATABASE_RETRY_AFTER_SECONDS));
        return reply.status(503).send({
          status: "unavailable",
          database: { kind, status: "down", detail: (err as Error).message },
        });
      }
    },
  );
};
