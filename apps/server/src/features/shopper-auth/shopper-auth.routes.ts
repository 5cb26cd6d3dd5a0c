import {
  authCollectSchema,
  authInitResponseSchema,
  authInitSchema,
  collectResponseSchema,
  orderRefParams,
  qrResponseSchema,
  refreshSchema,
  tokensSchema,
} from "@glide/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { pageOrigin } from "../../platform/bankid/addresses.ts";
import { randomToken, sha256 } from "../../platform/crypto.ts";
import { notFound } from "../../platform/errors.ts";
import { errorResponses } from "../../platform/route-errors.ts";
import { cancelSignIn, collectSignIn, currentQr, devSignIn, startSignIn } from "./shopper-auth.service.ts";
import { refreshSignIn, signOut } from "./sign-in-events.ts";

/** A cookie of its own (not the session) that ties a BankID order to the browser that started it. */
const DEVICE_COOKIE = "glide_device";

const errors = errorResponses(400, 401, 404, 409, 422, 429);
const tags = ["shopper sign-in"];

export const shopperAuthRoutes: FastifyPluginAsyncZod = async (app) => {
  function deviceHash(request: FastifyRequest, reply: FastifyReply, create: boolean): string {
    let device = request.cookies[DEVICE_COOKIE];
    if (!device && create) {
      device = randomToken(24);
      reply.setCookie(DEVICE_COOKIE, device, {
        path: "/api/v1/auth",
        httpOnly: true,
        sameSite: "lax",
        secure: app.config.secureCookies,
        maxAge: 365 * 24 * 3600,
      });
    }
    return sha256(device ?? "no-device");
  }

  app.post(
    "/api/v1/auth/init",
    {
      schema: {
        tags,
        summary: "Start a BankID sign-in; the QR secret stays on the server",
        body: authInitSchema,
        response: { 200: authInitResponseSchema, ...errors, ...errorResponses(502, 503) },
      },
    },
    (request, reply) =>
      startSignIn({
        db: app.db,
        bankid: app.bankid,
        ip: request.ip,
        userAgent: request.headers["user-agent"],
        deviceHash: deviceHash(request, reply, true),
        // BankID returns the shopper to the host name the page was opened under, where its order and cookie are.
        publicUrl: pageOrigin(request, app.config.publicUrl),
        visibleText: request.body.user_visible_data,
        returnPath: request.body.return_path,
        autostart: request.body.autostart ?? false,
      }),
  );

  app.get(
    "/api/v1/auth/qr/:order_ref",
    {
      schema: {
        tags,
        summary: "The animated QR code's data for the current second",
        params: orderRefParams,
        response: { 200: qrResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return currentQr({
        db: app.db,
        orderRef: request.params.order_ref,
        deviceHash: deviceHash(request, reply, false),
      });
    },
  );

  app.post(
    "/api/v1/auth/collect",
    {
      schema: {
        tags,
        summary: "Poll (every 2 s) a sign-in; on complete the tokens and the user",
        body: authCollectSchema,
        response: { 200: collectResponseSchema, ...errors, ...errorResponses(503) },
      },
    },
    (request, reply) =>
      collectSignIn({
        db: app.db,
        bankid: app.bankid,
        keys: app.shopperKeys,
        orderRef: request.body.order_ref,
        deviceHash: deviceHash(request, reply, false),
      }),
  );

  app.post(
    "/api/v1/auth/cancel",
    { schema: { tags, summary: "Cancel a sign-in", body: authCollectSchema, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await cancelSignIn({
        db: app.db,
        bankid: app.bankid,
        orderRef: request.body.order_ref,
        deviceHash: deviceHash(request, reply, false),
      });
      return reply.status(204).send(null);
    },
  );

  app.post(
    "/api/v1/auth/refresh",
    {
      schema: {
        tags,
        summary:
          "A new token pair for a refresh token (each works once; again within 20 s gives a fresh pair of the same sign-in)",
        body: refreshSchema,
        response: { 200: tokensSchema, ...errors },
      },
    },
    (request) =>
      refreshSignIn({
        db: app.db,
        bus: app.bus,
        signIns: app.signIns,
        log: request.log,
        jwtKey: app.shopperKeys.jwt,
        refreshToken: request.body.refresh_token,
      }),
  );

  app.post(
    "/api/v1/auth/logout",
    {
      schema: {
        tags,
        summary:
          "Sign out: the refresh token and the access tokens of that sign-in stop working, and its live cart sockets close (4401)",
        body: refreshSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await signOut({
        db: app.db,
        bus: app.bus,
        signIns: app.signIns,
        log: request.log,
        refreshToken: request.body.refresh_token,
      });
      return reply.status(204).send(null);
    },
  );

  app.post(
    "/api/v1/auth/dev-login",
    {
      schema: {
        tags,
        summary: "Development aid (DEV_TOOLS=true only): sign in as a test shopper without BankID",
        response: { 200: tokensSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      if (!app.config.devTools) throw notFound(`No route POST ${request.url}`);
      return devSignIn({ db: app.db, keys: app.shopperKeys });
    },
  );
};
