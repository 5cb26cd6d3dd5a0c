import { randomUUID } from "node:crypto";
import type { ShopperTokens } from "@glide/contracts";
import { and, eq, isNull, sql } from "drizzle-orm";
import { jwtVerify, SignJWT } from "jose";
import type { Db, Tx } from "../../db/client.ts";
import { customers, shopperRefreshTokens } from "../../db/schema/index.ts";
import { randomToken, sha256 } from "../../platform/crypto.ts";
import { unauthorized } from "../../platform/errors.ts";

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
const REFRESH_TOKEN_TTL_MS = 30 * 24 * 3600 * 1000;
const ISSUER = "glide";
const AUDIENCE = "shopper";

/** A short-lived access token (JWT, HS256) and a refresh token stored only as a hash. */
export async function issueTokens(
  db: Db | Tx,
  jwtKey: Buffer,
  customer: { id: string; name: string },
  familyId: string = randomUUID(),
): Promise<ShopperTokens> {
  const accessToken = await new SignJWT({})
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

/** The customer id in a valid access token, or null. */
export async function verifyAccessToken(jwtKey: Buffer, token: string): Promise<string | null> {
  try {
    const { payload } = await jwtVerify(token, jwtKey, { issuer: ISSUER, audience: AUDIENCE, algorithms: ["HS256"] });
    return payload.sub ?? null;
  } catch {
    return null;
  }
}

/**
 * Trades a refresh token for a new pair. Each refresh token works once; a
 * second use means it was stolen, so the whole family is revoked.
 */
export async function rotateRefreshToken(db: Db, jwtKey: Buffer, token: string): Promise<ShopperTokens> {
  const hash = sha256(token);
  const outcome = await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ token: shopperRefreshTokens, name: customers.name })
      .from(shopperRefreshTokens)
      .innerJoin(customers, eq(customers.id, shopperRefreshTokens.customerId))
      .where(eq(shopperRefreshTokens.tokenHash, hash))
      .for("update");
    if (!row || row.token.revokedAt || row.token.expiresAt.getTime() < Date.now()) return null;
    if (row.token.usedAt) {
      await tx
        .update(shopperRefreshTokens)
        .set({ revokedAt: sql`now()` })
        .where(eq(shopperRefreshTokens.familyId, row.token.familyId));
      return "reused" as const;
    }
    await tx.update(shopperRefreshTokens).set({ usedAt: sql`now()` }).where(eq(shopperRefreshTokens.tokenHash, hash));
    return issueTokens(tx, jwtKey, { id: row.token.customerId, name: row.name }, row.token.familyId);
  });
  if (outcome === "reused") throw unauthorized("Sessionen är avslutad. Logga in igen.", "refresh_token_reused");
  if (!outcome) throw unauthorized("Sessionen har gått ut. Logga in igen.", "invalid_refresh_token");
  return outcome;
}

export async function revokeRefreshToken(db: Db, token: string): Promise<void> {
  const [row] = await db
    .select({ familyId: shopperRefreshTokens.familyId })
    .from(shopperRefreshTokens)
    .where(eq(shopperRefreshTokens.tokenHash, sha256(token)));
  if (!row) return;
  await db
    .update(shopperRefreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(shopperRefreshTokens.familyId, row.familyId), isNull(shopperRefreshTokens.revokedAt)));
}
