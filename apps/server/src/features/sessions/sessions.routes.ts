import {
  doorScanResponseSchema,
  doorScanSchema,
  doorStatusSchema,
  entryRequestSchema,
  entryResponseSchema,
  sessionIdParams,
} from "@glide/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { unauthorized } from "../../platform/errors.ts";
import { errorResponses } from "../../platform/route-errors.ts";
import { requireShopper, shopperOf } from "../shopper-auth/shopper-auth.hooks.ts";
import { sessionAnnouncer } from "./session-events.ts";
import { cancelEntrySession, createEntrySession, type DoorCaller, doorStatus, scanAtDoor } from "./sessions.service.ts";

const errors = errorResponses(400, 401, 403, 404, 409, 422);
const tags = ["shopping sessions"];

export const sessionRoutes: FastifyPluginAsyncZod = async (app) => {
  const announce = sessionAnnouncer(app.bus, app.log);
  app.post(
    "/api/v1/sessions/entry",
    {
      preHandler: requireShopper,
      schema: {
        tags,
        summary:
          "Start a visit: an entry token for the door, valid once for ENTRY_TOKEN_TTL_SECONDS; the shopper's earlier unused ones stop working",
        body: entryRequestSchema,
        response: { 200: entryResponseSchema, ...errors },
      },
    },
    async (request) => {
      // Read before createEntrySession opens any transaction (PGlite has one connection). Without a payment
      // provider nothing is charged at the exit, so no store can ask for a card.
      const requireCard =
        app.payments !== null && (await app.settings.effective(request.body.store_id)).store.require_card_at_door;
      return createEntrySession({
        db: app.db,
        customerId: shopperOf(request),
        storeId: request.body.store_id,
        ttlSeconds: app.config.entryTokenTtlSeconds,
        requireCard,
        announce,
      });
    },
  );

  app.delete(
    "/api/v1/sessions/entry/:session_id",
    {
      preHandler: requireShopper,
      schema: {
        tags,
        summary: "Cancel an entry token (the shopper's Avbryt): it no longer opens the door. Idempotent.",
        params: sessionIdParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await cancelEntrySession({
        db: app.db,
        customerId: shopperOf(request),
        sessionId: request.params.session_id,
        announce,
      });
      return reply.status(204).send(null);
    },
  );

  app.post(
    "/api/v1/sessions/door/scan",
    {
      schema: {
        tags,
        summary: "The door scanner read an entry QR code (Authorization: Device <key>); opens the door once",
        body: doorScanSchema,
        response: { 200: doorScanResponseSchema, ...errors, ...errorResponses(410, 502) },
      },
    },
    async (request) => {
      const header = request.headers.authorization ?? "";
      const deviceKey = /^Device\s+(\S+)$/i.exec(header)?.[1];
      let caller: DoorCaller | null = deviceKey ? { kind: "device", key: deviceKey } : null;
      // The shopper app's "Test: Öppna Dörr" button, for development only.
      const bearer = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
      if (!caller && bearer && app.config.devTools) {
        const customerId = await app.signIns.customerOf(bearer);
        if (customerId) caller = { kind: "shopper", customerId };
      }
      if (!caller) throw unauthorized("The door scanner must send its device key", "device_key_required");
      const opened = await scanAtDoor({
        db: app.db,
        door: app.door,
        caller,
        sessionId: request.body.session_id,
        sessionToken: request.body.session_token,
        storeId: request.body.store_id,
        requireCard: async () =>
          app.payments !== null && (await app.settings.effective(request.body.store_id)).store.require_card_at_door,
        announce,
      });
      // The entrance camera learns the face of a shopper who consented, after the door has answered.
      void app.faceCheck.enrol({ sessionId: opened.session_id, storeId: request.body.store_id });
      return opened;
    },
  );

  app.get(
    "/api/v1/sessions/:session_id/door-status",
    {
      preHandler: requireShopper,
      schema: {
        tags,
        summary: "Has the door opened for this visit? Only its shopper may ask.",
        params: sessionIdParams,
        response: { 200: doorStatusSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return doorStatus({ db: app.db, customerId: shopperOf(request), sessionId: request.params.session_id });
    },
  );
};
