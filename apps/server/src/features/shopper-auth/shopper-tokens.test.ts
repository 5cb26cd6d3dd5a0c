import { tokensSchema } from "@glide/contracts";
import { eq, sql } from "drizzle-orm";
import { decodeJwt, SignJWT } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { queryRows } from "../../db/client.ts";
import { customers, shopperRefreshTokens } from "../../db/schema/index.ts";
import { sha256 } from "../../platform/crypto.ts";
import { createTestContext, signInShopper, type TestContext } from "../../test/harness.ts";
import {
  ACCESS_TOKEN_TTL_SECONDS,
  issueTokens,
  REFRESH_GRACE_MS,
  readAccessToken,
  rotateRefreshToken,
} from "./shopper-tokens.ts";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const post = (url: string, payload: object) => ctx.app.inject({ method: "POST", url, payload });
const refresh = (refresh_token: string) => post("/api/v1/auth/refresh", { refresh_token });
/** A shopper route that answers 404 for a made-up visit once the token is accepted, 401 before. */
const probe = async (accessToken: string, app = ctx.app) =>
  (
    await app.inject({
      method: "GET",
      url: "/api/v1/sessions/00000000-0000-4000-8000-000000000000/door-status",
      headers: { authorization: `Bearer ${accessToken}` },
    })
  ).statusCode;
const accepted = 404;
/** Moves a refresh token's use (or expiry) back in time, as if that much time had passed. */
const spentAgo = (token: string, ms: number) =>
  ctx.app.db.execute(
    sql`update shopper_refresh_tokens set used_at = now() - make_interval(secs => ${ms / 1000})
        where token_hash = ${sha256(token)}`,
  );

describe("the access token", () => {
  it("lives exactly expires_in seconds and names its sign-in", async () => {
    const s = await signInShopper(ctx.app);
    const res = await refresh(s.refreshToken);
    const pair = tokensSchema.parse(res.json());
    const claims = decodeJwt(pair.access_token);
    expect(claims.exp! - claims.iat!).toBe(pair.expires_in);
    expect(pair.expires_in).toBe(ACCESS_TOKEN_TTL_SECONDS);
    expect(claims.sub).toBe(s.customerId);
    expect(claims.sid).toBe(decodeJwt(s.accessToken).sid);
  });

  it("is refused without exp or sid, or signed with another key", async () => {
    const s = await signInShopper(ctx.app);
    const { sid } = decodeJwt(s.accessToken);
    const sign = (claims: object, exp: string | null, key = ctx.app.shopperKeys.jwt) => {
      const jwt = new SignJWT({ ...claims })
        .setProtectedHeader({ alg: "HS256" })
        .setSubject(s.customerId)
        .setIssuer("glide")
        .setAudience("shopper")
        .setIssuedAt();
      return (exp ? jwt.setExpirationTime(exp) : jwt).sign(key);
    };
    expect(await probe(await sign({ sid }, "5m"))).toBe(accepted);
    expect(await probe(await sign({ sid }, null))).toBe(401);
    expect(await probe(await sign({}, "5m"))).toBe(401);
    expect(await probe(await sign({ sid: "not-a-uuid" }, "5m"))).toBe(401);
    expect(await probe(await sign({ sid }, "5m", Buffer.alloc(32, 1)))).toBe(401);
  });

  it("is refused from another issuer or audience, or naming a subject that is not a customer id", async () => {
    const s = await signInShopper(ctx.app);
    const { sid } = decodeJwt(s.accessToken);
    const sign = (iss: string, aud: string, sub: string) =>
      new SignJWT({ sid })
        .setProtectedHeader({ alg: "HS256" })
        .setSubject(sub)
        .setIssuer(iss)
        .setAudience(aud)
        .setIssuedAt()
        .setExpirationTime("5m")
        .sign(ctx.app.shopperKeys.jwt);
    expect(await probe(await sign("glide", "shopper", s.customerId))).toBe(accepted);
    expect(await probe(await sign("someone-else", "shopper", s.customerId))).toBe(401);
    expect(await probe(await sign("glide", "admin", s.customerId))).toBe(401);
    for (const sub of ["x", `${s.customerId}x`, "42"])
      expect(await probe(await sign("glide", "shopper", sub))).toBe(401);
  });

  it("lasts 15 minutes, and its refresh token 30 days", async () => {
    const s = await signInShopper(ctx.app);
    const pair = tokensSchema.parse((await refresh(s.refreshToken)).json());
    expect(pair.expires_in).toBe(900);
    const [row] = await queryRows<{ seconds: number }>(
      ctx.app.db,
      sql`select extract(epoch from expires_at - now())::int as seconds from shopper_refresh_tokens
          where token_hash = ${sha256(pair.refresh_token)}`,
    );
    const seconds = row?.seconds ?? 0;
    expect(seconds).toBeGreaterThan(30 * 24 * 3600 - 60);
    expect(seconds).toBeLessThanOrEqual(30 * 24 * 3600);
  });

  it("signing out with a token the server does not know still answers 204", async () => {
    expect((await post("/api/v1/auth/logout", { refresh_token: "not-a-token-we-issued" })).statusCode).toBe(204);
  });

  it("stops working at sign-out, and only for that sign-in", async () => {
    const phone = await signInShopper(ctx.app);
    const [customer] = await ctx.app.db.select().from(customers).where(eq(customers.id, phone.customerId));
    const tablet = await issueTokens(ctx.app.db, ctx.app.shopperKeys.jwt, customer!);
    const renewed = tokensSchema.parse((await refresh(phone.refreshToken)).json());

    expect(await probe(phone.accessToken)).toBe(accepted);
    expect((await post("/api/v1/auth/logout", { refresh_token: renewed.refresh_token })).statusCode).toBe(204);
    // Both access tokens of the phone's sign-in end, the one issued before the refresh too.
    expect(await probe(phone.accessToken)).toBe(401);
    expect(await probe(renewed.access_token)).toBe(401);
    expect((await refresh(renewed.refresh_token)).statusCode).toBe(401);
    expect(await probe(tablet.access_token)).toBe(accepted);
    expect((await refresh(tablet.refresh_token)).statusCode).toBe(200);
  });

  it("is refused once the customer is gone: at once if not yet checked, else when its sign-in is next asked", async () => {
    const unchecked = await signInShopper(ctx.app);
    await ctx.app.db.execute(sql`delete from customers where id = ${unchecked.customerId}`);
    const res = await ctx.app.inject({
      method: "GET",
      url: "/api/v1/sessions/00000000-0000-4000-8000-000000000000/door-status",
      headers: { authorization: `Bearer ${unchecked.accessToken}` },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ detail: "Logga in med BankID först.", code: "unauthorized" });

    // Deleted in the database, no sign-out: an instance that has just checked the sign-in takes it as live for
    // its trust window, then asks again.
    const short = await createTestContext({}, { signInTrustMs: 300 });
    try {
      const checked = await signInShopper(short.app);
      expect(await probe(checked.accessToken, short.app)).toBe(accepted);
      await short.app.db.execute(sql`delete from customers where id = ${checked.customerId}`);
      await vi.waitFor(async () => expect(await probe(checked.accessToken, short.app)).toBe(401), { timeout: 2_000 });
    } finally {
      await short.close();
    }
  });
});

describe("what an access token must name", () => {
  const sign = (claims: { sub: string; sid: string }) =>
    new SignJWT({ sid: claims.sid })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(claims.sub)
      .setIssuer("glide")
      .setAudience("shopper")
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(ctx.app.shopperKeys.jwt);

  it("is refused when its sign-in belongs to another customer", async () => {
    const anna = await signInShopper(ctx.app, "Anna");
    const bo = await signInShopper(ctx.app, "Bo");
    const annasSid = decodeJwt(anna.accessToken).sid as string;
    expect(await probe(await sign({ sub: anna.customerId, sid: annasSid }))).toBe(accepted);
    expect(await probe(await sign({ sub: bo.customerId, sid: annasSid }))).toBe(401);
  });

  it("takes ids in either case, and refuses anything around them", async () => {
    const s = await signInShopper(ctx.app);
    const sid = decodeJwt(s.accessToken).sid as string;
    expect(await probe(await sign({ sub: s.customerId.toUpperCase(), sid: sid.toUpperCase() }))).toBe(accepted);
    expect(await probe(await sign({ sub: `x${s.customerId}`, sid }))).toBe(401);
    expect(await probe(await sign({ sub: s.customerId, sid: `${sid}x` }))).toBe(401);
    expect(await probe(await sign({ sub: s.customerId, sid: `x${sid}` }))).toBe(401);
    expect(await probe(await sign({ sub: s.customerId.replaceAll("-", ""), sid }))).toBe(401);
  });

  it("comes with the customer's id and name", async () => {
    const s = await signInShopper(ctx.app, "Signe Ström");
    const pair = tokensSchema.parse((await refresh(s.refreshToken)).json());
    expect(pair.user).toEqual({ id: s.customerId, name: "Signe Ström" });
  });
});

describe("reading an access token directly", () => {
  const sign = (claims: Record<string, unknown>) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer("glide")
      .setAudience("shopper")
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(ctx.app.shopperKeys.jwt);

  it("answers null, not a query error later, for ids that are not UUIDs or not strings", async () => {
    const s = await signInShopper(ctx.app);
    const sid = decodeJwt(s.accessToken).sid as string;
    const read = async (claims: Record<string, unknown>) =>
      readAccessToken(ctx.app.shopperKeys.jwt, await sign(claims));
    const valid = await sign({ sub: s.customerId, sid });
    expect(await readAccessToken(ctx.app.shopperKeys.jwt, valid)).toEqual({
      customerId: s.customerId,
      familyId: sid,
      expiresAt: decodeJwt(valid).exp! * 1000,
    });
    expect(await read({ sub: s.customerId, sid: "not-a-uuid" })).toBeNull();
    expect(await read({ sub: "not-a-uuid", sid })).toBeNull();
    expect(await read({ sub: s.customerId, sid: [sid] })).toBeNull();
    expect(await read({ sub: [s.customerId], sid })).toBeNull();
    expect(await readAccessToken(ctx.app.shopperKeys.jwt, "not.a.token")).toBeNull();
  });
});

describe("the refresh token's edges, to the millisecond", () => {
  afterEach(() => vi.useRealTimers());
  const setTimes = (token: string, times: { expiresAt?: number; usedAt?: number }) =>
    ctx.app.db
      .update(shopperRefreshTokens)
      .set({
        ...(times.expiresAt !== undefined ? { expiresAt: new Date(times.expiresAt) } : {}),
        ...(times.usedAt !== undefined ? { usedAt: new Date(times.usedAt) } : {}),
      })
      .where(eq(shopperRefreshTokens.tokenHash, sha256(token)));
  const at = (ms: number) => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(ms);
  };
  const rotate = (token: string) => rotateRefreshToken(ctx.app.db, ctx.app.shopperKeys.jwt, token);

  it("is refused at the very millisecond it expires", async () => {
    const s = await signInShopper(ctx.app);
    const expiry = Date.now() + 60_000;
    await setTimes(s.refreshToken, { expiresAt: expiry });
    at(expiry - 1);
    const live = await signInShopper(ctx.app);
    await setTimes(live.refreshToken, { expiresAt: expiry });
    await expect(rotate(live.refreshToken)).resolves.toMatchObject({ expires_in: ACCESS_TOKEN_TTL_SECONDS });
    at(expiry);
    await expect(rotate(s.refreshToken)).rejects.toMatchObject({ status: 401, code: "invalid_refresh_token" });
  });

  it("spent exactly the grace window ago still gets a fresh pair", async () => {
    const s = await signInShopper(ctx.app);
    await rotate(s.refreshToken);
    const spent = Date.now() - 60_000;
    await setTimes(s.refreshToken, { usedAt: spent });
    at(spent + REFRESH_GRACE_MS);
    await expect(rotate(s.refreshToken)).resolves.toMatchObject({ expires_in: ACCESS_TOKEN_TTL_SECONDS });
    at(spent + REFRESH_GRACE_MS + 1);
    await expect(rotate(s.refreshToken)).rejects.toMatchObject({ status: 401, code: "refresh_token_reused" });
  });
});

describe("the refresh token", () => {
  it("is refused once expired, and works until then", async () => {
    const live = await signInShopper(ctx.app);
    const old = await signInShopper(ctx.app);
    const expireIn = (token: string, seconds: number) =>
      ctx.app.db.execute(
        sql`update shopper_refresh_tokens set expires_at = now() + make_interval(secs => ${seconds})
            where token_hash = ${sha256(token)}`,
      );
    await expireIn(live.refreshToken, 60);
    await expireIn(old.refreshToken, -1);
    expect((await refresh(live.refreshToken)).statusCode).toBe(200);
    const res = await refresh(old.refreshToken);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ detail: "Sessionen har gått ut. Logga in igen.", code: "invalid_refresh_token" });
  });

  it("refreshed by two tabs at once keeps the shopper signed in", async () => {
    const s = await signInShopper(ctx.app);
    const answers = await Promise.all(Array.from({ length: 6 }, () => refresh(s.refreshToken)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    const pairs = answers.map((a) => tokensSchema.parse(a.json()));
    for (const pair of pairs) {
      expect(await probe(pair.access_token)).toBe(accepted);
      expect(decodeJwt(pair.access_token).sid).toBe(decodeJwt(s.accessToken).sid);
    }
    // Whichever pair a tab kept goes on working.
    expect((await refresh(pairs[5]!.refresh_token)).statusCode).toBe(200);
    expect((await refresh(pairs[0]!.refresh_token)).statusCode).toBe(200);
  });

  it("used again within the grace window gets a fresh pair; after it, ends the whole sign-in", async () => {
    const s = await signInShopper(ctx.app);
    const next = tokensSchema.parse((await refresh(s.refreshToken)).json());
    await spentAgo(s.refreshToken, REFRESH_GRACE_MS - 2000);
    const again = await refresh(s.refreshToken);
    expect(again.statusCode).toBe(200);
    expect(tokensSchema.parse(again.json()).refresh_token).not.toBe(next.refresh_token);

    await spentAgo(s.refreshToken, REFRESH_GRACE_MS + 1000);
    const stolen = await refresh(s.refreshToken);
    expect(stolen.statusCode).toBe(401);
    expect(stolen.json()).toEqual({ detail: "Sessionen är avslutad. Logga in igen.", code: "refresh_token_reused" });
    expect((await refresh(next.refresh_token)).statusCode).toBe(401);
    expect(await probe(next.access_token)).toBe(401);
    expect(await probe(s.accessToken)).toBe(401);
  });
});
