import { adminMeSchema, loginSchema } from "@glide/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorResponses } from "../../platform/route-errors.ts";
import { ADMIN_COOKIE, currentAdmin } from "./admin-auth.hooks.ts";
import { login, logout, SESSION_ABSOLUTE_MS, toMe } from "./admin-auth.service.ts";

export const adminAuthRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ["admin auth"];

  app.post(
    "/api/v1/admin/login",
    {
      schema: {
        tags,
        summary: "Sign in to the console; sets the session cookie",
        body: loginSchema,
        response: { 200: adminMeSchema, ...errorResponses(401, 422, 429) },
      },
    },
    async (request, reply) => {
      const { token, actor } = await login({
        db: app.db,
        email: request.body.email,
        password: request.body.password,
        ip: request.ip,
        userAgent: request.headers["user-agent"],
      });
      reply.setCookie(ADMIN_COOKIE, token, {
        path: "/",
        httpOnly: true,
        sameSite: "strict",
        secure: app.config.secureCookies,
        maxAge: SESSION_ABSOLUTE_MS / 1000,
      });
      return toMe(actor);
    },
  );

  app.post(
    "/api/v1/admin/logout",
    { schema: { tags, summary: "Sign out; deletes the session", response: { 204: z.null() } } },
    async (request, reply) => {
      const token = request.cookies[ADMIN_COOKIE];
      if (token) await logout(app.db, token);
      reply.clearCookie(ADMIN_COOKIE, { path: "/" });
      return reply.status(204).send(null);
    },
  );

  // Asked on every console load to learn whether anyone is signed in: "nobody" is an
  // expected answer, not an error, so it is 204 rather than a 401 the browser logs as a
  // failed request. Every other console route still answers 401 without a session.
  app.get(
    "/api/v1/admin/me",
    {
      schema: {
        tags,
        summary: "The signed-in admin; 204 with no body when nobody is signed in (or the session has ended)",
        response: { 200: adminMeSchema, 204: z.null() },
      },
    },
    async (request, reply) => {
      const actor = await currentAdmin(request);
      if (!actor) return reply.status(204).send(null);
      return toMe(actor);
    },
  );
};
