import {
  checkoutResponseSchema,
  checkoutSchema,
  exitScanResponseSchema,
  exitScanSchema,
  exitStatusSchema,
  exitTokenSchema,
} from "@glide/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { deriveKey } from "../../platform/crypto.ts";
import { AppError } from "../../platform/errors.ts";
import { errorResponses } from "../../platform/route-errors.ts";
import { storeOfDevice } from "../devices/devices.service.ts";
import { chargeWith, paymentsOf } from "../payments/charge.ts";
import { sessionAnnouncer } from "../sessions/session-events.ts";
import { namedShopper, requireShopper, shopperOf } from "../shopper-auth/shopper-auth.hooks.ts";
import { exitStatus, issueExitToken, payFromPhone, scanAtGate } from "./exit.service.ts";

const errors = errorResponses(400, 401, 402, 403, 404, 409, 410, 422, 503);
const tags = ["exit"];
/** The phone's payment keeps the answers (and tag) it has always had: no 410, that is the exit code's. */
const { 410: _expired, ...payErrors } = errors;

export const exitRoutes: FastifyPluginAsyncZod = async (app) => {
  const key = deriveKey(app.config.secretKey, "exit-token");
  const announce = sessionAnnouncer(app.bus, app.log);

  app.get(
    "/api/v1/exit/token",
    {
      preHandler: requireShopper,
      schema: {
        tags,
        summary: "The exit QR code for the shopper's visit: signed, bound to the visit and store, two minutes",
        response: {
          200: exitTokenSchema,
          ...errors,
        },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return issueExitToken(app.db, key, shopperOf(request));
    },
  );

  app.get(
    "/api/v1/exit/status",
    {
      preHandler: requireShopper,
      schema: {
        tags,
        summary:
          "Where the visit stands at the exit (shopping, pending, declined, paid, empty), the receipt, and whether a card must be added first",
        response: {
          200: exitStatusSchema,
          ...errors,
        },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return exitStatus(app.db, shopperOf(request), app.saleClock());
    },
  );

  app.post(
    "/api/v1/exit/scan",
    {
      schema: {
        tags,
        summary:
          "The exit gate read an exit code (Authorization: Device <exit_gate key>): pays the visit once, opens the gate",
        body: exitScanSchema,
        response: { 200: exitScanResponseSchema, ...errors },
      },
    },
    async (request) => {
      const gateStoreId = await storeOfDevice(app.db, request.headers.authorization, "exit_gate", {
        missing: "The exit gate must send its device key",
        unknown: "Unknown exit gate key",
      });
      // Read before scanAtGate opens any transaction (PGlite has one connection).
      const spotCheckShare = (await app.settings.effective(gateStoreId)).store.spot_check_share;
      const answer = await scanAtGate({
        db: app.db,
        key,
        payments: chargeWith(paymentsOf(app)),
        mailReceipts: app.receiptMails.sends,
        gateStoreId: gateStoreId,
        saleClock: app.saleClock,
        token: request.body.token,
        openGate: ({ storeId, sessionId }) => app.door.open({ storeId, sessionId }),
        announce: sessionAnnouncer(app.bus, request.log),
        spotCheckShare,
        log: request.log,
      });
      if (answer.status === "paid") app.receiptMails.kick();
      return answer;
    },
  );

  app.post(
    "/api/v1/checkout",
    {
      preHandler: requireShopper,
      schema: {
        tags: ["checkout"],
        summary: "Pay for the open visit with the card on file: charged once, however often it is called",
        body: checkoutSchema,
        response: { 200: checkoutResponseSchema, ...payErrors },
      },
    },
    async (request, reply) => {
      // Whose visit first: another shopper's id is refused before anything else is said.
      const customerId = namedShopper(request, request.body.user_id, "Du kan bara betala för ditt eget besök.");
      try {
        const answer = await payFromPhone({
          db: app.db,
          payments: chargeWith(paymentsOf(app)),
          mailReceipts: app.receiptMails.sends,
          now: app.saleClock,
          customerId,
          announce,
          spotCheckShare: async (storeId) => (await app.settings.effective(storeId)).store.spot_check_share,
          log: request.log,
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
};
