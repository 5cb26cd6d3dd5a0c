import type { FastifyRequest } from "fastify";
import { forbidden, unauthorized } from "../../platform/errors.ts";
import { type AdminActor, resolveSession } from "./admin-auth.service.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The signed-in admin, set by requireAdmin. */
    admin: AdminActor | null;
  }
}

export const ADMIN_COOKIE = "glide_admin_session";

/** The admin whose live session the request's cookie holds, or null (no cookie, or an ended session). */
export async function currentAdmin(request: FastifyRequest): Promise<AdminActor | null> {
  const token = request.cookies[ADMIN_COOKIE];
  return token ? await resolveSession(request.server.db, token) : null;
}

/** preHandler for every console route: the caller must hold a live admin session. */
export async function requireAdmin(request: FastifyRequest): Promise<void> {
  const actor = await currentAdmin(request);
  if (!actor) throw unauthorized("Sign in required", "unauthorized");
  request.admin = actor;
}

/** The admin checked by requireAdmin; a route without that guard is a programming error. */
export function actorOf(request: FastifyRequest): AdminActor {
  if (!request.admin) throw unauthorized();
  return request.admin;
}

export function assertPlatformAdmin(actor: AdminActor, action: string): void {
  if (actor.role !== "platform_admin") throw forbidden(`Only platform admins may ${action}`);
}

export function assertCanManageStore(actor: AdminActor, storeId: string): void {
  if (actor.role === "platform_admin") return;
  if (!actor.storeIds.includes(storeId)) throw forbidden("You do not manage this store");
}
