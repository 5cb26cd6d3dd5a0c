import type { FastifyRequest } from "fastify";
import { forbidden, unauthorized } from "../../platform/errors.ts";
import type { ShopperKeys } from "./shopper-auth.service.ts";
import type { SignInWatch } from "./sign-in-watch.ts";

declare module "fastify" {
  interface FastifyInstance {
    shopperKeys: ShopperKeys;
    /** This instance's view of which shopper sign-ins are live (sign-in-watch.ts). */
    signIns: SignInWatch;
  }
  interface FastifyRequest {
    /** The signed-in shopper's customer id, set by requireShopper. */
    shopperId: string | null;
  }
}

/** preHandler for shopper routes: a valid access token of a live sign-in in `Authorization: Bearer`. */
export async function requireShopper(request: FastifyRequest): Promise<void> {
  const header = request.headers.authorization ?? "";
  const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
  const customerId = token ? await request.server.signIns.customerOf(token) : null;
  if (!customerId) throw unauthorized("Logga in med BankID först.", "unauthorized");
  request.shopperId = customerId;
}

export function shopperOf(request: FastifyRequest): string {
  if (!request.shopperId) throw unauthorized("Logga in med BankID först.", "unauthorized");
  return request.shopperId;
}

/**
 * The signed-in shopper, for a body that names them by `user_id` (the spec
 * sends it to the face check): someone else's id is refused with `detail`.
 */
export function namedShopper(request: FastifyRequest, userId: string, detail: string): string {
  const customerId = shopperOf(request);
  if (userId !== customerId) throw forbidden(detail);
  return customerId;
}
