import type { FastifyReply, FastifyRequest } from "fastify";
import type { AdminActor } from "../features/admin-auth/admin-auth.service.ts";
import { resolveSession } from "../features/admin-auth/admin-auth.service.ts";
import { verifyAccessToken } from "../features/shopper-auth/shopper-tokens.ts";
import { forbidden, unauthorized } from "./errors.ts";

export const ADMIN_COOKIE = "glide_admin_session";

/** preHandler for every console route: the caller must hold a live admin session. */
export async function requireAdmin(request: FastifyRequest): Promise<void> {
  const token = request.cookies[ADMIN_COOKIE];
  const actor = token ? await resolveSession(request.server.db, token) : null;
  if (!actor) throw unauthorized("Sign in required", "unauthorized");
  request.admin = actor;
}

/** The admin checked by requireAdmin; a route without that guard is a programming error. */
export function actorOf(request: FastifyRequest): AdminActor {
  if (!request.admin) throw unauthorized();
  return request.admin;
}

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

export function assertPlatformAdmin(actor: AdminActor, action: string): void {
  if (actor.role !== "platform_admin") throw forbidden(`Only platform admins may ${action}`);
}

export function assertCanManageStore(actor: AdminActor, storeId: string): void {
  if (actor.role === "platform_admin") return;
  if (!actor.storeIds.includes(storeId)) throw forbidden("You do not manage this store");
}

/** preHandler for shopper routes: a valid BankID access token in `Authorization: Bearer`. */
export async function requireShopper(request: FastifyRequest): Promise<void> {
  const header = request.headers.authorization ?? "";
  const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
  const customerId = token ? await verifyAccessToken(request.server.shopperKeys.jwt, token) : null;
  if (!customerId) throw unauthorized("Logga in med BankID först.", "unauthorized");
  request.shopperId = customerId;
}

export function shopperOf(request: FastifyRequest): string {
  if (!request.shopperId) throw unauthorized("Logga in med BankID först.", "unauthorized");
  return request.shopperId;
}
