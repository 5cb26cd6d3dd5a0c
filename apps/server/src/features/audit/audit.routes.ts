import { auditEntrySchema, auditIdParams, auditListItemSchema, auditListQuerySchema } from "@glide/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorResponses } from "../../platform/route-errors.ts";
import { actorOf, requireAdmin } from "../admin-auth/admin-auth.hooks.ts";
import { getAuditEntry, listAudit } from "./audit.service.ts";

const errors = errorResponses(400, 401, 403, 404, 422);
const tags = ["audit"];

/** The audit log of console changes, for platform admins. */
export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("preHandler", requireAdmin);

  app.get(
    "/api/v1/admin/audit",
    {
      schema: {
        tags,
        summary:
          "Console changes, newest first; search matches summary, action, actor e-mail or entity id. The total is in X-Total-Count.",
        querystring: auditListQuerySchema,
        response: { 200: z.array(auditListItemSchema), ...errors },
      },
    },
    async (request, reply) => {
      const { items, total } = await listAudit({ db: app.db, actor: actorOf(request), query: request.query });
      reply.header("x-total-count", String(total));
      return items;
    },
  );

  app.get(
    "/api/v1/admin/audit/:id",
    {
      schema: {
        tags,
        summary: "One audit entry with the entity before and after the change",
        params: auditIdParams,
        response: { 200: auditEntrySchema, ...errors },
      },
    },
    (request) => getAuditEntry({ db: app.db, actor: actorOf(request), id: request.params.id }),
  );
};
