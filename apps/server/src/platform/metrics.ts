import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";
import { safeEqual, sha256 } from "./crypto.ts";
import { unauthorized } from "./errors.ts";

/**
 * Prometheus metrics at /metrics: requests by route and status, their
 * durations, and the process's own figures. Routes are labelled by their
 * pattern (/api/v1/stores/:id), never by the ids in them. Served only when a
 * token is configured, and only to a scraper that sends it.
 */
export function registerMetrics(app: FastifyInstance, token: string | null): void {
  if (token === null) return;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "glide_" });
  const requests = new Counter({
    name: "glide_http_requests_total",
    help: "HTTP requests answered",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "glide_http_request_duration_seconds",
    help: "Time to answer an HTTP request",
    labelNames: ["method", "route"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });

  app.addHook("onResponse", async (request, reply) => {
    const route = request.routeOptions.url ?? "unmatched";
    if (route === "/metrics") return;
    requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    duration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
  });

  app.get("/metrics", { schema: { hide: true }, onRequest: bearerToken(token) }, async (_request, reply) => {
    reply.header("content-type", registry.contentType);
    return registry.metrics();
  });
}

/** Compares digests, so neither the token's content nor its length shows in the time taken. */
function bearerToken(token: string) {
  const expected = sha256(token);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const given = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? "")?.[1] ?? "";
    if (!safeEqual(sha256(given), expected)) {
      reply.header("www-authenticate", 'Bearer realm="metrics"');
      throw unauthorized("A valid metrics token is required", "unauthorized");
    }
  };
}
