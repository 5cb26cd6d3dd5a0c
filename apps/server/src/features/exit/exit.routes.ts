import { errorSchema, receiptSchema } from "@glide/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { queryRows, sql } from "../../db/client.ts";
import { deriveKey, sha256 } from "../../platform/crypto.ts";
import { unauthorized } from "../../platform/errors.ts";
import { chargeWith, paymentsOf } from "../checkout/charge.ts";
import { sessionAnnouncer } from "../sessions/session-events.ts";
import { requireShopper, shopperOf } from "../shopper-auth/shopper-auth.hooks.ts";
import { exitStatus, issueExitToken, scanAtGate } from "./exit.service.ts";

const errors = {
  400: errorSchema,
  401: errorSchema,
  402: errorSchema,
  403: errorSchema,
  404: errorSchema,
  409: errorSchema,
  410: errorSchema,
  422: errorSchema,
  503: errorSchema,
};
const tags = ["exit"];

export const exitRoutes: FastifyPluginAsyncZod = async (app) => {
  const key = deriveKey(app.config.secretKey, "exit-token");

  app.get(
    "/api/v1/exit/token",
    {
      preHandler: requireShopper,
      schema: {
        tags,
        summary: "The exit QR code for the shopper's visit: signed, bound to the visit and store, two minutes",
        response: {
          200: z.object({ token: z.string(), session_id: z.string(), expires_at: z.string() }),
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
          200: z.object({
            state: z.enum(["shopping", "pending", "declined", "paid", "empty"]),
            receipt: receiptSchema.nullable(),
            notice: z
              .string()
              .optional()
              .describe("Swedish, for the phone; only when the visit was picked for a staff check at the exit"),
            needs_card: z
              .literal(true)
              .optional()
              .describe(
                "Only when the gate refused the exit code for want of a card and there is still none on file: the phone leads to the card page",
              ),
          }),
          ...errors,
        },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return exitStatus(app.db, shopperOf(request));
    },
  );

  app.post(
    "/api/v1/exit/scan",
    {
      schema: {
        tags,
        summary:
          "The exit gate read an exit code (Authorization: Device <exit_gate key>): pays the visit once, opens the gate",
        body: z.object({ token: z.string().trim().min(1, "token is required").max(400) }),
        response: {
          200: z.object({
            gate_opened: z.boolean(),
            status: z.enum(["paid", "empty", "pending"]),
            receipt_number: z.number().int().nullable(),
          }),
          ...errors,
        },
      },
    },
    async (request) => {
      const deviceKey = /^Device\s+(\S+)$/i.exec(request.headers.authorization ?? "")?.[1];
      if (!deviceKey) throw unauthorized("The exit gate must send its device key", "device_key_required");
      const [gate] = await queryRows<{ store_id: string }>(
        app.db,
        sql`update store_device_keys set last_used_at = now()
            where key_hash = ${sha256(deviceKey)} and kind = 'exit_gate' returning store_id`,
      );
      if (!gate) throw unauthorized("Unknown exit gate key", "invalid_device_key");
      // Read before scanAtGate opens any transaction (PGlite has one connection).
      const spotCheckShare = (await app.settings.effective(gate.store_id)).store.spot_check_share;
      const answer = await scanAtGate({
        db: app.db,
        key,
        payments: chargeWith(paymentsOf(app)),
        mailReceipts: app.receiptMails.sends,
        gateStoreId: gate.store_id,
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
};
