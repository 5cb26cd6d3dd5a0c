import type { ShopperTokens } from "@glide/contracts";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client.ts";
import type { EventBus } from "../../platform/event-bus.ts";
import { revokeRefreshToken, rotateRefreshToken } from "./shopper-tokens.ts";

/**
 * A sign-in's end told to every instance: what a connection held open with
 * one of its access tokens (the live cart's socket) is closed by whichever
 * instance holds it. The message names the sign-in (the refresh family,
 * the access token's `sid`), nothing else.
 */
export const SIGN_IN_ENDED_TOPIC = "shopper-sign-in-ended";

export type SignInEnded = { family_id: string };

/** What this instance knows of ended sign-ins (sign-in-watch.ts's SignInWatch). */
type EndsSignIns = { ended(familyId: string): void };

/**
 * The revocation is committed before this is sent, so a lost message leaves
 * the sign-in ended all the same; held connections then end at their own
 * check (sign-in-watch.ts) instead of at once. A failure is logged, not
 * answered: the shopper asked to sign out, and has.
 */
export async function announceSignInEnded(
  bus: EventBus,
  signIns: EndsSignIns,
  log: FastifyBaseLogger,
  familyId: string,
): Promise<void> {
  // This instance refuses the sign-in's tokens before the answer leaves, whatever the bus does.
  signIns.ended(familyId);
  try {
    await bus.publish(SIGN_IN_ENDED_TOPIC, { family_id: familyId } satisfies SignInEnded);
  } catch (err) {
    log.warn({ err: (err as Error).message }, "sign-in end not published");
  }
}

/** POST /api/v1/auth/logout: the sign-in ends, everywhere its tokens are held open too. */
export async function signOut(opts: {
  db: Db;
  bus: EventBus;
  signIns: EndsSignIns;
  log: FastifyBaseLogger;
  refreshToken: string;
}): Promise<void> {
  const familyId = await revokeRefreshToken(opts.db, opts.refreshToken);
  if (familyId) await announceSignInEnded(opts.bus, opts.signIns, opts.log, familyId);
}

/** POST /api/v1/auth/refresh: a new pair; a stolen (reused) token ends the sign-in, as sign-out does. */
export function refreshSignIn(opts: {
  db: Db;
  bus: EventBus;
  signIns: EndsSignIns;
  log: FastifyBaseLogger;
  jwtKey: Buffer;
  refreshToken: string;
}): Promise<ShopperTokens> {
  return rotateRefreshToken(opts.db, opts.jwtKey, opts.refreshToken, {
    onSignInEnded: (familyId) => announceSignInEnded(opts.bus, opts.signIns, opts.log, familyId),
  });
}
