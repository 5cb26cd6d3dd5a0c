import {
  spotCheckDecisionSchema,
  spotCheckIdParams,
  spotCheckListQuerySchema,
  spotCheckSchema,
} from "@glide/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorResponses } from "../../platform/route-errors.ts";
import { actorOf, requireAdmin } from "../admin-auth/admin-auth.hooks.ts";
import { chargeWith, paymentsOf } from "../payments/charge.ts";
import { sessionAnnouncer } from "../sessions/session-events.ts";
import { listSpotChecks } from "./spot-check-list.ts";
import { decideSpotCheck } from "./spot-checks.service.ts";

const errors = errorResponses(400, 401, 403, 404, 409, 422, 503);
const tags = ["spot checks"];

export const spotCheckRoutes: FastifyPluginAsyncZod = async (app) => {
  const announce = sessionAnnouncer(app.bus, app.log);

  app.get(
    "/api/v1/admin/spot-checks",
    {
      preHandler: requireAdmin,
      schema: {
        tags,
        summary: "Exits flagged for a staff check, with the order's lines (pending oldest first; X-Total-Count)",
        querystring: spotCheckListQuerySchema,
        response: { 200: z.array(spotCheckSchema), ...errors },
      },
    },
    async (request, reply) => {
      const { items, total } = await listSpotChecks({ db: app.db, actor: actorOf(request), query: request.query });
      reply.header("x-total-count", String(total));
      return items;
    },
  );

  app.put(
    "/api/v1/admin/spot-checks/:id/outcome",
    {
      preHandler: requireAdmin,
      schema: {
        tags,
        summary:
          "Record what staff found: ok, items added (charged apart on the saved card) or items removed (refunded). Decided once; the same request again answers the same.",
        params: spotCheckIdParams,
        body: spotCheckDecisionSchema,
        response: { 200: spotCheckSchema, ...errors },
      },
    },
    (request) =>
      decideSpotCheck(
        {
          db: app.db,
          provider: () => paymentsOf(app),
          charges: { charge: (charge) => chargeWith(paymentsOf(app)).charge(charge) },
          announce,
          kickMails: () => app.receiptMails.kick(),
          saleClock: app.saleClock,
        },
        { actor: actorOf(request), checkId: request.params.id, decision: request.body },
      ),
  );
};
