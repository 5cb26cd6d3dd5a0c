import { sessionDetailSchema, sessionIdParamsSchema, sessionWriteOffSchema } from "@glide/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { errorResponses } from "../../platform/route-errors.ts";
import { actorOf, requireAdmin } from "../admin-auth/admin-auth.hooks.ts";
import { chargeWith, paymentsOf } from "../payments/charge.ts";
import { getSession } from "../sessions/admin-sessions.service.ts";
import { sessionAnnouncer } from "../sessions/session-events.ts";
import { letOut } from "./let-out.ts";
import { chargeUnpaid, writeOffUnpaid } from "./unpaid-visits.service.ts";

const errors = errorResponses(400, 401, 402, 403, 404, 409, 422, 503);
const tags = ["sessions (console)"];

export const unpaidVisitRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("preHandler", requireAdmin);

  app.post(
    "/api/v1/admin/sessions/:id/charge",
    {
      schema: {
        tags,
        summary:
          "Charge the card on file for a visit left unpaid, exactly once however often it is asked; answers the visit as it now is",
        params: sessionIdParamsSchema,
        response: { 200: sessionDetailSchema, ...errors },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      await chargeUnpaid({
        db: app.db,
        payments: () => chargeWith(paymentsOf(app)),
        mailReceipts: app.receiptMails.sends,
        now: app.saleClock,
        actor,
        id: request.params.id,
        announce: sessionAnnouncer(app.bus, request.log),
      });
      app.receiptMails.kick();
      reply.header("cache-control", "no-store");
      return getSession({ db: app.db, actor, id: request.params.id, at: app.saleClock() });
    },
  );

  app.post(
    "/api/v1/admin/sessions/:id/write-off",
    {
      schema: {
        tags,
        summary: "Write off the goods of a visit left unpaid, with a reason; nothing is charged; audited",
        params: sessionIdParamsSchema,
        body: sessionWriteOffSchema,
        response: { 200: sessionDetailSchema, ...errors },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      await writeOffUnpaid({
        db: app.db,
        actor,
        id: request.params.id,
        reason: request.body.reason,
        announce: sessionAnnouncer(app.bus, request.log),
      });
      reply.header("cache-control", "no-store");
      return getSession({ db: app.db, actor, id: request.params.id, at: app.saleClock() });
    },
  );

  app.post(
    "/api/v1/admin/sessions/:id/let-out",
    {
      schema: {
        tags,
        summary:
          "Open the exit gate for a shopper inside who cannot pay: the visit is left unpaid (nothing owed: ended) for staff to charge or write off; audited",
        params: sessionIdParamsSchema,
        response: { 200: sessionDetailSchema, ...errors, ...errorResponses(502) },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      await letOut({
        db: app.db,
        door: app.door,
        actor,
        id: request.params.id,
        announce: sessionAnnouncer(app.bus, request.log),
      });
      reply.header("cache-control", "no-store");
      return getSession({ db: app.db, actor, id: request.params.id, at: app.saleClock() });
    },
  );
};
