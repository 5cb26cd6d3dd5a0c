import { errorSchema } from "@glide/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { queryRows, sql } from "../../db/client.ts";
import { forbidden } from "../../platform/errors.ts";
import type { FaceVerifier } from "../../platform/face.ts";
import { recordSessionEvent, sessionAnnouncer } from "../sessions/session-events.ts";
import { requireShopper, shopperOf } from "../shopper-auth/shopper-auth.hooks.ts";

declare module "fastify" {
  interface FastifyInstance {
    faceVerifier: FaceVerifier;
  }
}

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 422: errorSchema };
const tags = ["face"];
const consentSchema = z.object({ consent: z.boolean(), given_at: z.string().nullable() });

export const faceRoutes: FastifyPluginAsyncZod = async (app) => {
  const announce = sessionAnnouncer(app.bus, app.log);
  const consentOf = async (customerId: string) => {
    const [row] = await queryRows<{ face_consent_at: Date | string | null }>(
      app.db,
      sql`select face_consent_at from customers where id = ${customerId}`,
    );
    const at = row?.face_consent_at ?? null;
    return { consent: at !== null, given_at: at === null ? null : new Date(at).toISOString() };
  };

  const faceCheck = async (
    customerId: string,
    visit: { id: string; store_id: string; consent: boolean; module_on: boolean },
  ) => {
    if (!visit.module_on) return { status: "not_verified" as const, reason: "module_off" as const };
    if (!visit.consent) return { status: "not_verified" as const, reason: "no_consent" as const };
    const ok = await app.faceVerifier.verify({ customerId, sessionId: visit.id, storeId: visit.store_id });
    return ok
      ? { status: "ok" as const, reason: "verified" as const }
      : { status: "not_verified" as const, reason: "no_match" as const };
  };

  app.get(
    "/api/v1/face/consent",
    {
      preHandler: requireShopper,
      schema: {
        tags,
        summary: "Whether the shopper agreed to the face check at the exit",
        response: { 200: consentSchema, ...errors },
      },
    },
    (request) => consentOf(shopperOf(request)),
  );

  app.put(
    "/api/v1/face/consent",
    {
      preHandler: requireShopper,
      schema: {
        tags,
        summary: "Give (true) or withdraw (false) consent to the face check; withdrawing takes effect at once",
        body: z.object({ consent: z.boolean() }),
        response: { 200: consentSchema, ...errors },
      },
    },
    async (request) => {
      const customerId = shopperOf(request);
      await app.db.execute(
        request.body.consent
          ? sql`update customers set face_consent_at = coalesce(face_consent_at, now()) where id = ${customerId}`
          : sql`update customers set face_consent_at = null where id = ${customerId}`,
      );
      return consentOf(customerId);
    },
  );

  app.post(
    "/api/v1/face/verify",
    {
      preHandler: requireShopper,
      schema: {
        tags,
        summary:
          "The face check at the exit: ok only with consent, in a store with face_checkout, when the verifier agrees",
        body: z.object({ user_id: z.uuid("user_id must be a UUID") }),
        response: {
          200: z.object({
            status: z.enum(["ok", "not_verified"]),
            reason: z.enum(["verified", "no_consent", "module_off", "no_visit", "no_match"]),
          }),
          ...errors,
        },
      },
    },
    async (request) => {
      const customerId = shopperOf(request);
      if (request.body.user_id !== customerId) throw forbidden("Du kan bara verifiera dig själv.");
      const [visit] = await queryRows<{ id: string; store_id: string; consent: boolean; module_on: boolean }>(
        app.db,
        sql`select s.id, s.store_id, c.face_consent_at is not null as consent,
              exists (select 1 from store_modules m where m.store_id = s.store_id
                        and m.module_id = 'face_checkout' and m.enabled) as module_on
            from shopping_sessions s join customers c on c.id = s.customer_id
            where s.customer_id = ${customerId} and s.state in ('in_store', 'charging')
            order by s.door_opened_at desc limit 1`,
      );
      if (!visit) return { status: "not_verified" as const, reason: "no_visit" as const };
      const answer = await faceCheck(customerId, visit);
      // The result goes on the visit's timeline: staff see why the exit asked for the QR code instead.
      await recordSessionEvent(app.db, {
        sessionId: visit.id,
        storeId: visit.store_id,
        kind: "face_check",
        source: "phone",
        detail: { ...answer },
      });
      await announce({ store_id: visit.store_id, session_id: visit.id, kind: "face_check" });
      return answer;
    },
  );
};
