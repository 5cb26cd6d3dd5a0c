import {
  disputeCreateSchema,
  disputeIdParams,
  disputeListQuerySchema,
  disputeResolveSchema,
  disputeSchema,
  orderIdParams,
  orderRefundsSchema,
  receiptDisputeSchema,
  receiptIdParams,
  refundCreateSchema,
  refundResultSchema,
} from "@glide/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { schedulePeriodic } from "../../platform/housekeeping.ts";
import { errorResponses } from "../../platform/route-errors.ts";
import { actorOf, requireAdmin } from "../admin-auth/admin-auth.hooks.ts";
import { paymentsOf } from "../payments/charge.ts";
import { sessionAnnouncer } from "../sessions/session-events.ts";
import { requireShopper, shopperOf } from "../shopper-auth/shopper-auth.hooks.ts";
import { listDisputes, openDispute, resolveDispute } from "./disputes.service.ts";
import { readOrderRefunds } from "./order-refunds.ts";
import { settlePendingRefunds } from "./refund-provider.ts";
import { createRefund } from "./refunds.service.ts";

const errors = errorResponses(400, 401, 403, 404, 409, 422, 503);

/** How often refunds the provider did not answer are asked again, with their own keys. */
export const REFUND_SETTLE_INTERVAL_MS = 60_000;

export const refundRoutes: FastifyPluginAsyncZod = async (app) => {
  const announce = sessionAnnouncer(app.bus, app.log);
  const deps = () => ({
    db: app.db,
    provider: () => paymentsOf(app),
    announce,
    kickMails: () => app.receiptMails.kick(),
  });

  // A refund that got no answer is settled by asking again with the same key: never paid back twice.
  schedulePeriodic(
    app,
    "settle unanswered refunds",
    REFUND_SETTLE_INTERVAL_MS,
    async () => {
      if (!app.payments) return;
      const settled = await settlePendingRefunds(deps());
      if (settled.succeeded + settled.failed > 0)
        app.log.info(settled, "settled refunds the provider had not answered");
    },
    { oncePerRound: true },
  );

  app.get(
    "/api/v1/admin/orders/:id/refunds",
    {
      preHandler: requireAdmin,
      schema: {
        tags: ["refunds"],
        summary: "An order's lines with what is left to refund of each, and its refunds",
        params: orderIdParams,
        response: { 200: orderRefundsSchema, ...errors },
      },
    },
    (request) => readOrderRefunds({ db: app.db, actor: actorOf(request), orderId: request.params.id }),
  );

  app.post(
    "/api/v1/admin/orders/:id/refunds",
    {
      preHandler: requireAdmin,
      schema: {
        tags: ["refunds"],
        summary:
          "Refund units of some lines, or the whole order, through the payment provider. The server computes the amount; never more than was captured. Lines added at a spot check were paid apart: a request touching both payments makes one refund of each (the answer is the first refund, plus all in `refunds`). The same idempotency_key answers the same refunds (200).",
        params: orderIdParams,
        body: refundCreateSchema,
        response: { 200: refundResultSchema, 201: refundResultSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { created, refunds } = await createRefund(deps(), {
        actor: actorOf(request),
        orderId: request.params.id,
        request: request.body,
      });
      return reply.status(created ? 201 : 200).send({ ...refunds[0]!, refunds });
    },
  );

  app.post(
    "/api/v1/receipts/:id/dispute",
    {
      preHandler: requireShopper,
      schema: {
        tags: ["refunds"],
        summary: "The shopper disputes one of their receipts (one open dispute per receipt)",
        params: receiptIdParams,
        body: disputeCreateSchema,
        response: { 201: receiptDisputeSchema, ...errors },
      },
    },
    async (request, reply) => {
      const dispute = await openDispute({
        db: app.db,
        announce,
        customerId: shopperOf(request),
        orderId: request.params.id,
        message: request.body.message,
      });
      return reply.status(201).send(dispute);
    },
  );

  app.get(
    "/api/v1/admin/disputes",
    {
      preHandler: requireAdmin,
      schema: {
        tags: ["refunds"],
        summary: "Shoppers' disputes, newest first, of the stores the admin manages (X-Total-Count)",
        querystring: disputeListQuerySchema,
        response: { 200: z.array(disputeSchema), ...errors },
      },
    },
    async (request, reply) => {
      const { items, total } = await listDisputes({ db: app.db, actor: actorOf(request), query: request.query });
      reply.header("x-total-count", String(total));
      return items;
    },
  );

  app.put(
    "/api/v1/admin/disputes/:id",
    {
      preHandler: requireAdmin,
      schema: {
        tags: ["refunds"],
        summary: "Resolve or reject an open dispute with an answer the shopper sees",
        params: disputeIdParams,
        body: disputeResolveSchema,
        response: { 200: disputeSchema, ...errors },
      },
    },
    (request) =>
      resolveDispute({
        db: app.db,
        announce,
        actor: actorOf(request),
        disputeId: request.params.id,
        state: request.body.state,
        resolution: request.body.resolution,
      }),
  );
};
