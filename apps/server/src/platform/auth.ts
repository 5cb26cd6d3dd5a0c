import type { FastifyReply, FastifyRequest } from "fastify";
import { forbidden } from "./errors.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * State-changing requests from another site are refused. Browsers send Origin
 * (and Sec-Fetch-Site) on every such request; tools that send neither are not
 * browsers and carry no ambient cookie risk.
 */
export async function sameOriginOnly(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  if (SAFE_METHODS.has(request.method)) return;
  const site = request.headers["sec-fetch-site"];
  if (site === "cross-site" || site === "same-site") throw forbidden("Cross-origin request refused", "cross_origin");
  const origin = request.headers.origin;
  if (!origin) return;
  const allowed = new Set([`${request.protocol}://${request.host}`, new URL(request.server.config.publicUrl).origin]);
  if (!allowed.has(origin)) throw forbidden("Cross-origin request refused", "cross_origin");
}
