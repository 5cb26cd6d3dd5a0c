import {
  faceConsentSchema,
  faceConsentUpdateSchema,
  faceVerifyResponseSchema,
  faceVerifySchema,
} from "@glide/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { FaceCheck } from "../../platform/face.ts";
import { errorResponses } from "../../platform/route-errors.ts";
import { chargeWith, paymentsOf } from "../payments/charge.ts";
import { sessionAnnouncer } from "../sessions/session-events.ts";
import { namedShopper, requireShopper, shopperOf } from "../shopper-auth/shopper-auth.hooks.ts";
import { loadVisit } from "../visits/visit-loader.ts";
import { faceConsent, setFaceConsent, verifyFace } from "./face.service.ts";

declare module "fastify" {
  interface FastifyInstance {
    faceCheck: FaceCheck;
  }
}

const errors = errorResponses(400, 401, 403, 422);
const tags = ["face"];

export const faceRoutes: FastifyPluginAsyncZod = async (app) => {
  const announce = sessionAnnouncer(app.bus, app.log);

  app.get(
    "/api/v1/face/consent",
    {
      preHandler: requireShopper,
      schema: {
        tags,
        summary: "Whether the shopper agreed to the face check at the exit",
        response: { 200: faceConsentSchema, ...errors },
      },
    },
    (request) => faceConsent(app.db, shopperOf(request)),
  );

  app.put(
    "/api/v1/face/consent",
    {
      preHandler: requireShopper,
      schema: {
        tags,
        summary: "Give (true) or withdraw (false) consent to the face check; withdrawing takes effect at once",
        body: faceConsentUpdateSchema,
        response: { 200: faceConsentSchema, ...errors },
      },
    },
    (request) => setFaceConsent(app.db, shopperOf(request), request.body.consent),
  );

  app.post(
    "/api/v1/face/verify",
    {
      preHandler: requireShopper,
      schema: {
        tags,
        summary:
          "The face check at the exit: ok only with consent, in a store with face_checkout, when the exit camera shows the face learnt at the door; then the visit is paid and the gate opens",
        body: faceVerifySchema,
        response: { 200: faceVerifyResponseSchema, ...errors },
      },
    },
    async (request) => {
      const customerId = namedShopper(request, request.body.user_id, "Du kan bara verifiera dig själv.");
      // Read before any transaction (PGlite has one connection): the share of exits a staff check draws.
      const visit = await loadVisit(app.db, { openOf: customerId });
      const spotCheckShare = visit ? (await app.settings.effective(visit.store_id)).store.spot_check_share : 0;
      const answer = await verifyFace({
        db: app.db,
        check: app.faceCheck,
        customerId,
        announce,
        exit: {
          db: app.db,
          payments: chargeWith(paymentsOf(app)),
          mailReceipts: app.receiptMails.sends,
          saleClock: app.saleClock,
          openGate: ({ storeId, sessionId }) => app.door.open({ storeId, sessionId }),
          spotCheckShare,
          log: request.log,
        },
      });
      if (answer.status === "ok") app.receiptMails.kick();
      return answer;
    },
  );
};
