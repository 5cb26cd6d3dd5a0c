import type { ServerResponse } from "node:http";
import {
  sessionDetailSchema,
  sessionIdParamsSchema,
  sessionListQuerySchema,
  sessionLiveEventSchema,
  sessionRowSchema,
} from "@glide/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../platform/errors.ts";
import { errorResponses } from "../../platform/route-errors.ts";
import { ADMIN_COOKIE, actorOf, requireAdmin } from "../admin-auth/admin-auth.hooks.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";
import { resolveSession } from "../admin-auth/admin-auth.service.ts";
import { startAbandonedSweep } from "./abandoned-sweep.ts";
import { getSession } from "./admin-sessions.service.ts";
import { SESSIONS_TOPIC } from "./session-events.ts";
import { listSessions } from "./session-list.ts";

const errors = errorResponses(400, 401, 403, 404, 422);
const tags = ["sessions (console)"];

/** A comment line this often keeps proxies from closing a quiet stream and finds clients that went away. */
export const LIVE_HEARTBEAT_MS = 25_000;

const mayWatch = (actor: AdminActor, storeId: string | null) =>
  actor.role === "platform_admin" || (storeId !== null && actor.storeIds.includes(storeId));

export const adminSessionRoutes: FastifyPluginAsyncZod = async (app) => {
  startAbandonedSweep(app);
  app.addHook("preHandler", requireAdmin);

  app.get(
    "/api/v1/admin/sessions",
    {
      schema: {
        tags,
        summary:
          "Visits that went through the door, newest entry first; filters store_id, status, from/to (entry day), search (shopper name, session id, receipt number). The total is in X-Total-Count, counted up to 10,000 (X-Total-Count-Capped: true past it).",
        querystring: sessionListQuerySchema,
        response: { 200: z.array(sessionRowSchema), ...errors },
      },
    },
    async (request, reply) => {
      const { items, total, capped } = await listSessions({
        db: app.db,
        actor: actorOf(request),
        query: request.query,
        at: app.saleClock(),
      });
      reply.header("x-total-count", String(total));
      if (capped) reply.header("x-total-count-capped", "true");
      reply.header("cache-control", "no-store");
      return items;
    },
  );

  // Every open stream, so closing the app ends them instead of waiting for the browsers to hang up.
  const streams = new Set<ServerResponse>();
  app.addHook("preClose", async () => {
    for (const stream of streams) stream.end();
  });

  app.get(
    "/api/v1/admin/sessions/live",
    {
      schema: {
        tags,
        summary:
          'Server-sent events: `data: {"store_id","session_id","kind"}` for each change to a visit of a store the admin may see; a comment every 25 s.',
        response: { 200: z.string().describe("text/event-stream"), ...errors, ...errorResponses(406) },
      },
    },
    async (request, reply) => {
      let actor = actorOf(request);
      // A stream never ends by itself: only a client that asks for one (EventSource does) gets it.
      if (!/text\/event-stream/i.test(request.headers.accept ?? ""))
        throw new AppError(406, "not_acceptable", "This is an event stream: send Accept: text/event-stream");
      const token = request.cookies[ADMIN_COOKIE] ?? "";
      reply.hijack();
      const stream = reply.raw;
      stream.writeHead(200, {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-store",
        connection: "keep-alive",
        // Proxies such as nginx would otherwise hold the events back in a buffer.
        "x-accel-buffering": "no",
        "x-request-id": request.id,
      });
      stream.write(": live\n\n");
      streams.add(stream);
      const unsubscribe = app.bus.subscribe(SESSIONS_TOPIC, (message) => {
        const change = sessionLiveEventSchema.safeParse(message);
        if (!change.success || !mayWatch(actor, change.data.store_id)) return;
        stream.write(`data: ${JSON.stringify(change.data)}\n\n`);
      });
      // The heartbeat also reads the sign-in again: the stream ends with the admin session it was opened with,
      // and a change to the admin's stores applies from then on. An open screen is not activity: the read does
      // not move the idle clock, so a console left open still signs out after its idle time.
      const heartbeat = setInterval(() => {
        resolveSession(app.db, token, { touch: false }).then(
          (current) => {
            if (!current) return stream.end();
            actor = current;
            stream.write(": heartbeat\n\n");
          },
          () => stream.write(": heartbeat\n\n"),
        );
      }, LIVE_HEARTBEAT_MS);
      heartbeat.unref();
      stream.on("close", () => {
        clearInterval(heartbeat);
        unsubscribe();
        streams.delete(stream);
      });
    },
  );

  app.get(
    "/api/v1/admin/sessions/:id",
    {
      schema: {
        tags,
        summary:
          "One visit: the row, its timeline (kind, source, staff), the cart, the order with refunded quantities, refunds, disputes, spot check",
        params: sessionIdParamsSchema,
        response: { 200: sessionDetailSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return getSession({ db: app.db, actor: actorOf(request), id: request.params.id, at: app.saleClock() });
    },
  );
};
