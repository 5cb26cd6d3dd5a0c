import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client.ts";
import type { EventBus } from "../../platform/event-bus.ts";
import { ACCESS_TOKEN_TTL_SECONDS, isSignInLive, liveSignIns, readAccessToken } from "./shopper-tokens.ts";
import { SIGN_IN_ENDED_TOPIC, type SignInEnded } from "./sign-in-events.ts";

/**
 * How often the sign-ins behind held connections are asked of the database
 * again: the backstop for an end whose event this instance missed (the bus
 * delivers at most once, e.g. not while it reconnects), and for a customer
 * deleted with their tokens. A query per thousand sign-ins held, however
 * many connections each has.
 */
export const SIGN_IN_RECHECK_MS = 30_000;
/**
 * What the watch keeps in memory, at most:
 * - keptTokens: verified tokens kept with their claims while they are
 *   valid: a token used again (every request of a shopper, thousands of
 *   sockets opened with one) has its signature checked once;
 * - trustedSignIns: sign-ins trusted at once; the oldest is asked again past this;
 * - maxTimerMs: setTimeout's longest delay; a later expiry is re-armed when it fires.
 */
export const SIGN_IN_WATCH_LIMITS = { keptTokens: 10_000, trustedSignIns: 100_000, maxTimerMs: 2 ** 31 - 1 };
/**
 * How long a request may take a sign-in the database called live as live
 * without asking again. An end on any instance refuses its tokens at once
 * (the bus, and this instance's own sign-outs before they answer); this
 * bounds only an end whose message this instance missed.
 */
export const SIGN_IN_TRUST_MS = 10_000;

export type SignInEnd = "signed_out" | "expired";

export type WatchedSignIn = {
  customerId: string;
  /** Stops watching (the connection closed); idempotent. */
  stop(): void;
};

export interface SignInWatch {
  /**
   * The customer of an access token whose sign-in is live, watched from now
   * on: `onEnd` is called once when the sign-in ends on any instance
   * (sign-out, a reused refresh token) or this token expires. Null for a
   * token that is not valid now.
   */
  admit(token: string, onEnd: (why: SignInEnd) => void): Promise<WatchedSignIn | null>;
  /**
   * The customer of an access token whose sign-in is live, for one request:
   * the database is asked at most once per SIGN_IN_TRUST_MS per sign-in, and
   * a sign-in heard of as ended is refused without asking. Null for a token
   * that is not valid now.
   */
  customerOf(token: string): Promise<string | null>;
  /** This instance ended the sign-in (sign-out, a reused refresh token): refuse its tokens here from now on. */
  ended(familyId: string): void;
  /**
   * What it holds in memory now: sign-ins and connections watched, sign-ins
   * heard of as ended, tokens verified, sign-ins trusted.
   */
  held(): { signIns: number; watched: number; ended: number; verified: number; trusted: number };
  close(): void;
}

type Watcher = { onEnd: (why: SignInEnd) => void; timer: NodeJS.Timeout | undefined };
type Claims = { customerId: string; familyId: string; expiresAt: number };

/**
 * Long-lived connections of shoppers, kept no longer than their sign-in.
 * One bus subscription per instance; each held token costs one timer at its
 * expiry. Sign-ins heard of as ended are remembered for an access token's
 * lifetime, so a token checked while its end was on the way is refused too.
 */
export function watchSignIns(opts: {
  db: Db;
  bus: EventBus;
  jwtKey: Buffer;
  logger: FastifyBaseLogger;
  recheckMs?: number;
  trustMs?: number;
  /** The clock its lifetimes and windows are read by (tests move it). */
  now?: () => number;
  limits?: Partial<typeof SIGN_IN_WATCH_LIMITS>;
}): SignInWatch {
  const trustMs = opts.trustMs ?? SIGN_IN_TRUST_MS;
  const now = opts.now ?? Date.now;
  const limits = { ...SIGN_IN_WATCH_LIMITS, ...opts.limits };
  const byFamily = new Map<string, Set<Watcher>>();
  const ended = new Map<string, number>();
  // Many sockets opened at once with one token ask the database once.
  const checking = new Map<string, Promise<boolean>>();
  const verified = new Map<string, Claims>();
  // Sign-ins the database called live, until when a request may take them as live without asking.
  const trusted = new Map<string, { customerId: string; until: number }>();

  const notify = (watcher: Watcher, why: SignInEnd) => {
    clearTimeout(watcher.timer);
    try {
      watcher.onEnd(why);
    } catch (err) {
      opts.logger.error({ err: (err as Error).message }, "closing a connection of an ended sign-in failed");
    }
  };
  const end = (familyId: string) => {
    ended.set(familyId, now());
    trusted.delete(familyId);
    const watchers = byFamily.get(familyId);
    byFamily.delete(familyId);
    for (const watcher of watchers ?? []) notify(watcher, "signed_out");
  };
  const forget = (familyId: string, watcher: Watcher) => {
    clearTimeout(watcher.timer);
    const watchers = byFamily.get(familyId);
    watchers?.delete(watcher);
    if (watchers?.size === 0) byFamily.delete(familyId);
  };

  const unsubscribe = opts.bus.subscribe(SIGN_IN_ENDED_TOPIC, (message) => {
    const familyId = (message as Partial<SignInEnded> | null)?.family_id;
    if (typeof familyId === "string") end(familyId);
  });

  const recheck = setInterval(async () => {
    // After a token's lifetime every access token of an ended sign-in has expired by itself.
    const at = now();
    const forgetBefore = at - ACCESS_TOKEN_TTL_SECONDS * 1000;
    for (const [familyId, endedAt] of ended) if (endedAt < forgetBefore) ended.delete(familyId);
    for (const [token, claims] of verified) if (claims.expiresAt <= at) verified.delete(token);
    for (const [familyId, { until }] of trusted) if (until <= at) trusted.delete(familyId);
    const families = [...byFamily.keys()];
    if (families.length === 0) return;
    try {
      const live = await liveSignIns(opts.db, families);
      for (const familyId of families) if (!live.has(familyId)) end(familyId);
    } catch (err) {
      opts.logger.warn({ err: (err as Error).message }, "sign-ins of held connections not checked");
    }
  }, opts.recheckMs ?? SIGN_IN_RECHECK_MS);
  recheck.unref();

  const checkLive = (claims: Claims) => {
    const key = `${claims.familyId}:${claims.customerId}`;
    let check = checking.get(key);
    if (!check) {
      check = isSignInLive(opts.db, claims).finally(() => checking.delete(key));
      checking.set(key, check);
    }
    return check;
  };

  /** The token's claims, its signature checked once while it is kept; null if it is not valid now. */
  const readToken = async (token: string): Promise<Claims | null> => {
    let claims = verified.get(token) ?? null;
    if (!claims) {
      claims = await readAccessToken(opts.jwtKey, token);
      if (!claims) return null;
      if (verified.size >= limits.keptTokens) verified.delete(verified.keys().next().value!);
      verified.set(token, claims);
    }
    // As the signature check has it: valid until the second of its `exp`.
    return claims.expiresAt > now() ? claims : null;
  };

  return {
    async admit(token, onEnd) {
      const claims = await readToken(token);
      if (!claims || ended.has(claims.familyId) || !(await checkLive(claims))) return null;
      // An end heard while the database was asked counts too: after this line, the next one closes it.
      if (ended.has(claims.familyId) || claims.expiresAt <= now()) return null;
      const watcher: Watcher = { onEnd, timer: undefined };
      const arm = () => {
        const left = claims.expiresAt - now();
        watcher.timer = setTimeout(
          () => {
            if (now() < claims.expiresAt) return arm();
            forget(claims.familyId, watcher);
            notify(watcher, "expired");
          },
          Math.min(Math.max(left, 0), limits.maxTimerMs),
        );
        watcher.timer.unref();
      };
      arm();
      let watchers = byFamily.get(claims.familyId);
      if (!watchers) {
        watchers = new Set();
        byFamily.set(claims.familyId, watchers);
      }
      watchers.add(watcher);
      return { customerId: claims.customerId, stop: () => forget(claims.familyId, watcher) };
    },
    async customerOf(token) {
      const claims = await readToken(token);
      if (!claims || ended.has(claims.familyId)) return null;
      const trust = trusted.get(claims.familyId);
      if (trust && trust.customerId === claims.customerId && trust.until > now()) return claims.customerId;
      const asked = now();
      if (!(await checkLive(claims))) return null;
      // An end heard while the database was asked wins over its answer.
      if (ended.has(claims.familyId)) return null;
      trusted.delete(claims.familyId);
      if (trusted.size >= limits.trustedSignIns) trusted.delete(trusted.keys().next().value!);
      trusted.set(claims.familyId, { customerId: claims.customerId, until: asked + trustMs });
      return claims.customerId;
    },
    ended: end,
    held() {
      let watched = 0;
      for (const watchers of byFamily.values()) watched += watchers.size;
      return { signIns: byFamily.size, watched, ended: ended.size, verified: verified.size, trusted: trusted.size };
    },
    close() {
      unsubscribe();
      clearInterval(recheck);
      for (const watchers of byFamily.values()) for (const watcher of watchers) clearTimeout(watcher.timer);
      byFamily.clear();
    },
  };
}
