import { randomUUID } from "node:crypto";
import type { ShopperTokens } from "@glide/contracts";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { jwtVerify, SignJWT } from "jose";
import type { Db, Tx } from "../../db/client.ts";
import { customers, shopperRefreshTokens } from "../../db/schema/index.ts";
import { randomToken, sha256 } from "../../platform/crypto.ts";
import { unauthorized } from "../../platform/errors.ts";

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 3600 * 1000;
/**
 * A refresh token spent this recently and presented again is a second tab
 * (or a retry after a lost answer) racing the first, not a thief: it gets a
 * fresh pair of the same sign-in instead of ending it.
 */
export const REFRESH_GRACE_MS = 20_000;
const ISSUER = "glide";
const AUDIENCE = "shopper";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A short-lived access token (JWT, HS256) and a refresh token stored only as
 * a hash. The access token names its sign-in (`sid`, the refresh family), so
 * signing out ends it too.
 */
export async function issueTokens(
  db: Db | Tx,
  jwtKey: Buffer,
  customer: { id: string; name: string },
  familyId: string = randomUUID(),
): Promise<ShopperTokens> {
  const accessToken = await new SignJWT({ sid: familyId })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(customer.id)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${ACCESS_TOKEN_TTL_SECONDS}s`)
    .sign(jwtKey);
  const refreshToken = randomToken();
  await db.insert(shopperRefreshTokens).values({
    tokenHash: sha256(refreshToken),
    customerId: customer.id,
    familyId,
    expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_MS),
  });
  return {
    access_token: accessToken,
    refresh_token: refreshToken,
    expires_in: ACCESS_TOKEN_TTL_SECONDS,
    user: { id: customer.id, name: customer.name },
  };
}

/**
 * The customer and sign-in an access token names, and when it expires (ms
 * since the epoch), from its signature and claims alone. A token without
 * `exp` (it would never expire), `iat`, `sub` or `sid` is refused.
 */
export async function readAccessToken(
  jwtKey: Buffer,
  token: string,
): Promise<{ customerId: string; familyId: string; expiresAt: number } | null> {
  try {
    const { payload } = await jwtVerify(token, jwtKey, {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ["HS256"],
      requiredClaims: ["exp", "iat", "sub", "sid"],
    });
    const { sub, sid, exp } = payload;
    // Both end up in uuid columns; anything else would be a query error, not an answer.
    if (typeof sub !== "string" || typeof sid !== "string" || !UUID.test(sub) || !UUID.test(sid)) return null;
    return { customerId: sub, familyId: sid, expiresAt: (exp as number) * 1000 };
  } catch {
    return null;
  }
}

/**
 * Whether a sign-in is still live: not signed out, not ended by reuse
 * detection, and the customer is still there (their refresh tokens go with
 * them). Revocation marks every token of a family, so the first live row the
 * family index finds answers it.
 */
export async function isSignInLive(db: Db | Tx, claims: { customerId: string; familyId: string }): Promise<boolean> {
  const [live] = await db
    .select({ customerId: shopperRefreshTokens.customerId })
    .from(shopperRefreshTokens)
    .where(
      and(
        eq(shopperRefreshTokens.familyId, claims.familyId),
        eq(shopperRefreshTokens.customerId, claims.customerId),
        isNull(shopperRefreshTokens.revokedAt),
      ),
    )
    .limit(1);
  return live !== undefined;
}

/** Of these sign-ins, the ones still live (as isSignInLive), asked a thousand at a time. */
export async function liveSignIns(db: Db, familyIds: string[]): Promise<Set<string>> {
  const live = new Set<string>();
  for (let i = 0; i < familyIds.length; i += 1000) {
    const rows = await db
      .selectDistinct({ familyId: shopperRefreshTokens.familyId })
      .from(shopperRefreshTokens)
      .where(
        and(
          inArray(shopperRefreshTokens.familyId, familyIds.slice(i, i + 1000)),
          isNull(shopperRefreshTokens.revokedAt),
        ),
      );
    for (const row of rows) live.add(row.familyId);
  }
  return live;
}

/**
 * Ends a sign-in: every refresh token of the family, and with them the
 * access tokens that name it. Repeated until nothing is left, because a
 * rotation running at the same moment may add a token this statement did not
 * see yet (PostgreSQL, read committed).
 */
async function revokeFamily(db: Db | Tx, familyId: string): Promise<void> {
  for (let round = 0; round < 5; round++) {
    const revoked = await db
      .update(shopperRefreshTokens)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(shopperRefreshTokens.familyId, familyId), isNull(shopperRefreshTokens.revokedAt)))
      .returning({ tokenHash: shopperRefreshTokens.tokenHash });
    if (revoked.length === 0) return;
  }
}

/**
 * Trades a refresh token for a new pair. Each refresh token works once; a
 * second use after the grace window means it was stolen, so the whole family
 * is revoked, and `onSignInEnded` hears of it once that is committed.
 */
export async function rotateRefreshToken(
  db: Db,
  jwtKey: Buffer,
  token: string,
  opts: { graceMs?: number; onSignInEnded?: (familyId: string) => Promise<void> } = {},
): Promise<ShopperTokens> {
  const graceMs = opts.graceMs ?? REFRESH_GRACE_MS;
  const hash = sha256(token);
  const outcome = await db.transaction(async (tx) => {
    // The row lock makes a second tab's refresh wait for the first and then see it spent.
    const [row] = await tx
      .select({ token: shopperRefreshTokens, name: customers.name })
      .from(shopperRefreshTokens)
      .innerJoin(customers, eq(customers.id, shopperRefreshTokens.customerId))
      .where(eq(shopperRefreshTokens.tokenHash, hash))
      .for("update");
    if (!row || row.token.revokedAt || row.token.expiresAt.getTime() <= Date.now()) return null;
    const customer = { id: row.token.customerId, name: row.name };
    if (row.token.usedAt) {
      if (Date.now() - row.token.usedAt.getTime() <= graceMs) {
        return issueTokens(tx, jwtKey, customer, row.token.familyId);
      }
      await revokeFamily(tx, row.token.familyId);
      return { reused: row.token.familyId };
    }
    // This instance's clock, like the grace window it is compared with.
    await tx.update(shopperRefreshTokens).set({ usedAt: new Date() }).where(eq(shopperRefreshTokens.tokenHash, hash));
    return issueTokens(tx, jwtKey, customer, row.token.familyId);
  });
  if (outcome && "reused" in outcome) {
    await opts.onSignInEnded?.(outcome.reused);
    throw unauthorized("Sessionen är avslutad. Logga in igen.", "refresh_token_reused");
  }
  if (!outcome) throw unauthorized("Sessionen har gått ut. Logga in igen.", "invalid_refresh_token");
  return outcome;
}

/**
 * Sign-out: the refresh token's family ends, and so do the access tokens
 * issued with it. Answers the family (the sign-in) it ended, or null for a
 * token it does not know.
 */
export async function revokeRefreshToken(db: Db, token: string): Promise<string | null> {
  const [row] = await db
    .select({ familyId: shopperRefreshTokens.familyId })
    .from(shopperRefreshTokens)
    .where(eq(shopperRefreshTokens.tokenHash, sha256(token)));
  if (!row) return null;
  await revokeFamily(db, row.familyId);
  return row.familyId;
}
