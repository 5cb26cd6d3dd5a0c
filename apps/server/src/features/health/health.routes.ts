import { healthSchema, readySchema } from "@glide/contracts";
import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { DATABASE_RETRY_AFTER_SECONDS } from "../../platform/http-errors.ts";

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  /** Null when the database answers; otherwise why not, with Retry-After set on the reply. */
  const databaseDown = async (reply: FastifyReply): Promise<string | null> => {
    try {
      await app.database.ping(2_000);
      return null;
    } catch (err) {
      reply.header("retry-after", String(DATABASE_RETRY_AFTER_SECONDS));
      return (err as Error).message;
    }
  };

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
      if ((await databaseDown(reply)) !== null)
        return reply.status(503).send({ status: "database_unavailable" as const });
      return { status: "ready" as const };
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
      const down = await databaseDown(reply);
      if (down === null) return { status: "ok" as const, database: { kind, status: "up" as const } };
      return reply.status(503).send({ status: "unavailable", database: { kind, status: "down", detail: down } });
    },
  );
};
