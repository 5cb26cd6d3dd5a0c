import {
  paymentMethodResponseSchema,
  paymentMethodSchema,
  receiptIdParams,
  receiptSchema,
  receiptSummarySchema,
} from "@glide/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { schedulePeriodic } from "../../platform/housekeeping.ts";
import { errorResponses } from "../../platform/route-errors.ts";
import { listReceipts, ownReceipt } from "../orders/receipts.service.ts";
import { chargeWith, paymentsOf } from "../payments/charge.ts";
import { readCard, removeCard, saveCard } from "../payments/payment-method.service.ts";
import { sessionAnnouncer } from "../sessions/session-events.ts";
import { requireShopper, shopperOf } from "../shopper-auth/shopper-auth.hooks.ts";
import { settleUnsettled } from "./checkout.service.ts";

const errors = errorResponses(400, 401, 402, 403, 404, 409, 422, 503);
const tags = ["checkout"];

declare module "fastify" {
  interface FastifyInstance {
    /** When a checkout prices an order (app.ts' BuildOptions.saleClock). */
    saleClock: () => Date;
  }
}

/** How often charges the provider did not answer are asked again, with their own keys. */
export const SETTLE_INTERVAL_MS = 60_000;

export const checkoutRoutes: FastifyPluginAsyncZod = async (app) => {
  const announce = sessionAnnouncer(app.bus, app.log);
  // A charge that got no answer is settled by asking again with the same key: never a second charge.
  schedulePeriodic(
    app,
    "settle unanswered charges",
    SETTLE_INTERVAL_MS,
    async () => {
      if (!app.payments) return;
      const settled = await settleUnsettled({
        db: app.db,
        payments: chargeWith(app.payments),
        announce,
        mailReceipts: app.receiptMails.sends,
        now: app.saleClock,
      });
      if (settled > 0) {
        app.log.info({ settled }, "settled charges the provider had not answered");
        app.receiptMails.kick();
      }
    },
    { oncePerRound: true },
  );

  app.get(
    "/api/v1/receipts",
    {
      preHandler: requireShopper,
      schema: {
        tags,
        summary: "The shopper's receipts, newest first",
        response: { 200: z.array(receiptSummarySchema), ...errors },
      },
    },
    (request) => listReceipts(app.db, shopperOf(request)),
  );

  app.get(
    "/api/v1/receipts/:id",
    {
      preHandler: requireShopper,
      schema: {
        tags,
        summary: "One of the shopper's receipts",
        params: receiptIdParams,
        response: { 200: receiptSchema, ...errors },
      },
    },
    (request) => ownReceipt(app.db, shopperOf(request), request.params.id),
  );

  app.get(
    "/api/v1/payment-method",
    {
      preHandler: requireShopper,
      schema: {
        tags,
        summary: "The card on file: brand and last four only",
        response: { 200: paymentMethodResponseSchema, ...errors },
      },
    },
    async (request) => ({ card: await readCard(app.db, shopperOf(request)) }),
  );

  app.put(
    "/api/v1/payment-method",
    {
      preHandler: requireShopper,
      schema: {
        tags,
        summary: "Save the card the card page made (or a test id such as pm_card_visa), replacing any earlier one",
        body: paymentMethodSchema,
        response: { 200: paymentMethodResponseSchema, ...errors },
      },
    },
    async (request) => ({
      card: await saveCard(app.db, paymentsOf(app), shopperOf(request), request.body.payment_method),
    }),
  );

  app.delete(
    "/api/v1/payment-method",
    {
      preHandler: requireShopper,
      schema: { tags, summary: "Remove the card on file", response: { 204: z.null(), ...errors } },
    },
    async (request, reply) => {
      await removeCard(app.db, paymentsOf(app), shopperOf(request));
      return reply.status(204).send(null);
    },
  );
};
