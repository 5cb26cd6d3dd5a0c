import {
  checkoutResponseSchema,
  checkoutSchema,
  errorSchema,
  paymentMethodResponseSchema,
  paymentMethodSchema,
  receiptIdParams,
  receiptSchema,
  receiptSummarySchema,
} from "@glide/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError, forbidden, safeError } from "../../platform/errors.ts";
import { schedulePeriodic } from "../../platform/housekeeping.ts";
import { sessionAnnouncer } from "../sessions/session-events.ts";
import { requireShopper, shopperOf } from "../shopper-auth/shopper-auth.hooks.ts";
import { flagAtExit } from "../spot-checks/spot-checks.service.ts";
import { chargeWith, paymentsOf } from "./charge.ts";
import { checkout, settleUnsettled } from "./checkout.service.ts";
import { listReceipts, ownReceipt, readCard, removeCard, saveCard } from "./payment-method.service.ts";

const errors = {
  400: errorSchema,
  401: errorSchema,
  402: errorSchema,
  403: errorSchema,
  404: errorSchema,
  409: errorSchema,
  422: errorSchema,
  503: errorSchema,
};
const tags = ["checkout"];

/** How often charges the provider did not answer are asked again, with their own keys. */
export const SETTLE_INTERVAL_MS = 60_000;

export const checkoutRoutes: FastifyPluginAsyncZod = async (app) => {
  const announce = sessionAnnouncer(app.bus, app.log);
  // A charge that got no answer is settled by asking again with the same key: never a second charge.
  schedulePeriodic(app, "settle unanswered charges", SETTLE_INTERVAL_MS, async () => {
    if (!app.payments) return;
    const settled = await settleUnsettled({
      db: app.db,
      payments: chargeWith(app.payments),
      announce,
      mailReceipts: app.receiptMails.sends,
    });
    if (settled > 0) {
      app.log.info({ settled }, "settled charges the provider had not answered");
      app.receiptMails.kick();
    }
  });

  app.post(
    "/api/v1/checkout",
    {
      preHandler: requireShopper,
      schema: {
        tags,
        summary: "Pay for the open visit with the card on file: charged once, however often it is called",
        body: checkoutSchema,
        response: { 200: checkoutResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const customerId = shopperOf(request);
      // Whose visit first: another shopper's id is refused before anything else is said.
      if (request.body.user_id !== customerId) throw forbidden("Du kan bara betala för ditt eget besök.");
      try {
        const answer = await checkout({
          db: app.db,
          payments: chargeWith(paymentsOf(app)),
          mailReceipts: app.receiptMails.sends,
          customerId,
          userId: request.body.user_id,
          announce,
          // Paying from the phone is an exit too: the same draw for a staff check as at the gate, never a reason to fail.
          afterPaid: async ({ sessionId, storeId }) => {
            const share = (await app.settings.effective(storeId)).store.spot_check_share;
            await flagAtExit({ db: app.db, announce, sessionId, storeId, customerId, share }).catch((err: unknown) =>
              request.log.warn({ err: safeError(err) }, "could not draw the exit for a spot check"),
            );
          },
        });
        // The receipt mail goes out in the background: a slow mail server never holds up the answer.
        if (answer.status === "paid") app.receiptMails.kick();
        return answer;
      } catch (err) {
        if (err instanceof AppError && err.status === 503) reply.header("retry-after", "5");
        throw err;
      }
    },
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
