import { healthSchema } from "@glide/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { DATABASE_RETRY_AFTER_SECONDS } from "../../platform/http-errors.ts";

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/health",
    {
      schema: {
        tags: ["health"],
        summary: "Liveness and database readiness: 503 while the database does not answer",
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
