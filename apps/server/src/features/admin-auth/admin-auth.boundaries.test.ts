import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/client.ts";
import { clearExpired } from "../../platform/housekeeping.ts";
import { countHit, rateLimitExpiry } from "../../platform/rate-limit.ts";
import { createTestContext, signIn, TEST_PASSWORD, type TestContext } from "../../test/harness.ts";
import { adminSessionExpiry, createAdmin, LOGIN_LIMITS, login } from "./admin-auth.service.ts";

/**
 * The console sign-in's limits in SQL, each a second either side: which
 * sessions housekeeping and a new sign-in clear (30 idle minutes, 12 hours
 * since sign-in), how long an account's lock holds, and which rate-limit
 * windows housekeeping clears (ended over an hour ago).
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

const viaHttp = (email: string, password: string, ip: string) =>
  ctx.app.inject({ method: "POST", url: "/api/v1/admin/login", payload: { email, password }, remoteAddress: ip });

/**
 * Four sessions of one admin, told apart by address: idle a second short of
 * 30 minutes and a second past, signed in a second short of 12 hours ago and
 * a second past (each otherwise fresh).
 */
async function sessionsAtTheEdges() {
  const { id, email } = await signIn(ctx.app);
  await ctx.app.db.execute(sql`delete from admin_sessions where admin_user_id = ${id}`);
  const edges = {
    "10.20.0.1": sql`last_seen_at = now() - interval '29 minutes 59 seconds'`,
    "10.20.0.2": sql`last_seen_at = now() - interval '30 minutes 1 second'`,
    "10.20.0.3": sql`created_at = now() - interval '11 hours 59 minutes 59 seconds'`,
    "10.20.0.4": sql`created_at = now() - interval '12 hours 1 second'`,
  };
  // Every session first, then their times: a sign-in clears the admin's expired sessions.
  for (const ip of Object.keys(edges)) await login({ db: ctx.app.db, email, password: TEST_PASSWORD, ip });
  for (const [ip, set] of Object.entries(edges))
    await ctx.app.db.execute(sql`update admin_sessions set ${set} where admin_user_id = ${id} and ip = ${ip}`);
  const ips = async () =>
    (
      await queryRows<{ ip: string }>(
        ctx.app.db,
        sql`select ip from admin_sessions where admin_user_id = ${id} order by ip`,
      )
    ).map((r) => r.ip);
  return { email, ips };
}

describe("expired console sessions", () => {
  it("housekeeping deletes one idle 30:01 or signed in 12:00:01 ago, and keeps one a second short of either", async () => {
    const { ips } = await sessionsAtTheEdges();
    await clearExpired(ctx.app.db, [adminSessionExpiry]);
    expect(await ips()).toEqual(["10.20.0.1", "10.20.0.3"]);
  });

  it("a new sign-in of the admin clears the same ones, and keeps the same ones", async () => {
    const { email, ips } = await sessionsAtTheEdges();
    await login({ db: ctx.app.db, email, password: TEST_PASSWORD, ip: "10.20.0.9" });
    expect(await ips()).toEqual(["10.20.0.1", "10.20.0.3", "10.20.0.9"]);
  });
});

describe("an account's lock", () => {
  it("holds until its window ends, even two seconds before, and lets the right password in after", async () => {
    const email = "edge-lock@example.se";
    await createAdmin({ db: ctx.app.db, email, password: TEST_PASSWORD, role: "platform_admin" });
    for (let i = 0; i < LOGIN_LIMITS.perAccount; i++)
      expect((await viaHttp(email, "not the password", `10.21.0.${i}`)).statusCode).toBe(401);
    const key = `admin-login:account:${createHash("sha256").update(email).digest("hex")}`;
    const windowEnds = (seconds: number) =>
      ctx.app.db.execute(
        sql`update rate_limits set reset_at = now() + make_interval(secs => ${seconds}) where key = ${key}`,
      );
    await windowEnds(2);
    expect((await viaHttp(email, TEST_PASSWORD, "10.21.1.1")).statusCode).toBe(429);
    await windowEnds(-1);
    expect((await viaHttp(email, TEST_PASSWORD, "10.21.1.2")).statusCode).toBe(200);
  });
});

describe("rate-limit windows in housekeeping", () => {
  it("deletes a window that ended an hour and a second ago, and keeps one that ended a second short of an hour", async () => {
    await countHit(ctx.app.db, "edge-window-kept", 60_000);
    await countHit(ctx.app.db, "edge-window-cleared", 60_000);
    await ctx.app.db.execute(
      sql`update rate_limits set reset_at = now() - interval '59 minutes 59 seconds' where key = 'edge-window-kept'`,
    );
    await ctx.app.db.execute(
      sql`update rate_limits set reset_at = now() - interval '1 hour 1 second' where key = 'edge-window-cleared'`,
    );
    await clearExpired(ctx.app.db, [rateLimitExpiry]);
    const left = await queryRows<{ key: string }>(
      ctx.app.db,
      sql`select key from rate_limits where key like 'edge-window-%' order by key`,
    );
    expect(left.map((r) => r.key)).toEqual(["edge-window-kept"]);
  });
});
