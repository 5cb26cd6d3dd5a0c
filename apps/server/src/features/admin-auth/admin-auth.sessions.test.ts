import { createHash } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { queryRows } from "../../db/client.ts";
import { adminSessions } from "../../db/schema/index.ts";
import { clearExpired } from "../../platform/housekeeping.ts";
import { as, signIn, TEST_PASSWORD } from "../../test/harness.ts";
import { ctx, login, openAdminAuthTests } from "./admin-auth.fixtures.ts";
import { ADMIN_COOKIE } from "./admin-auth.hooks.ts";
import {
  adminSessionExpiry,
  createAdmin,
  LOGIN_LIMITS,
  login as loginDirect,
  resolveSession,
} from "./admin-auth.service.ts";

beforeAll(openAdminAuthTests);
afterAll(() => ctx.close());

describe("sessions", () => {
  it("me says nobody is signed in with 204 and no body; the console's other routes refuse with 401", async () => {
    for (const cookie of [null, "forged-token"]) {
      const me = await as(ctx.app, cookie).get("/api/v1/admin/me");
      expect(me.statusCode).toBe(204);
      expect(me.body).toBe("");
      const stores = await as(ctx.app, cookie).get("/api/v1/stores");
      expect(stores.statusCode).toBe(401);
      expect(stores.json()).toMatchObject({ code: "unauthorized" });
    }
  });

  describe("idle expiry, on a clock the test moves", () => {
    const minute = 60 * 1000;
    let start: number;
    const at = (minutes: number) => vi.setSystemTime(start + minutes * minute);
    afterEach(() => vi.useRealTimers());

    it("slides: a request at minute 29 keeps the session alive past minute 31", async () => {
      const active = await signIn(ctx.app);
      const idle = await signIn(ctx.app);
      // Only Date is faked: the database driver's own timers keep running.
      vi.useFakeTimers({ toFake: ["Date"] });
      start = Date.now();
      at(29);
      expect((await as(ctx.app, active.cookie).get("/api/v1/admin/me")).statusCode).toBe(200);
      at(31);
      expect((await as(ctx.app, active.cookie).get("/api/v1/admin/me")).statusCode).toBe(200);
      // The same age without the request at minute 29 is past the idle limit.
      expect((await as(ctx.app, idle.cookie).get("/api/v1/admin/me")).statusCode).toBe(204);
      const left = await ctx.app.db.select().from(adminSessions).where(eq(adminSessions.adminUserId, idle.id));
      expect(left).toHaveLength(0);
    });

    it("expires 30 minutes after the last request, not before", async () => {
      const { cookie } = await signIn(ctx.app);
      vi.useFakeTimers({ toFake: ["Date"] });
      start = Date.now();
      at(10);
      expect((await as(ctx.app, cookie).get("/api/v1/admin/me")).statusCode).toBe(200);
      at(39.9);
      expect((await as(ctx.app, cookie).get("/api/v1/admin/me")).statusCode).toBe(200);
      at(39.9 + 30.1);
      expect((await as(ctx.app, cookie).get("/api/v1/admin/me")).statusCode).toBe(204);
    });
  });

  it("expires 12 hours after sign-in however active", async () => {
    const { cookie, id } = await signIn(ctx.app);
    await ctx.app.db
      .update(adminSessions)
      .set({ createdAt: sql`now() - interval '12 hours 1 minute'` })
      .where(eq(adminSessions.adminUserId, id));
    expect((await as(ctx.app, cookie).get("/api/v1/admin/me")).statusCode).toBe(204);
  });

  it("signs out by deleting the session", async () => {
    const { cookie, id } = await signIn(ctx.app);
    const res = await as(ctx.app, cookie).post("/api/v1/admin/logout");
    expect(res.statusCode).toBe(204);
    expect(res.cookies.find((c) => c.name === ADMIN_COOKIE)?.value).toBe("");
    expect(await ctx.app.db.select().from(adminSessions).where(eq(adminSessions.adminUserId, id))).toHaveLength(0);
    expect((await as(ctx.app, cookie).get("/api/v1/admin/me")).statusCode).toBe(204);
  });

  it("refuses a state-changing request from another origin", async () => {
    const { cookie } = await signIn(ctx.app);
    const res = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/stores/",
      payload: { name: "CSRF" },
      cookies: { [ADMIN_COOKIE]: cookie },
      headers: { origin: "https://evil.example" },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: "Cross-origin request refused", code: "cross_origin" });
    const sameSite = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/stores/",
      payload: { name: "Sibling" },
      cookies: { [ADMIN_COOKIE]: cookie },
      headers: { "sec-fetch-site": "same-site" },
    });
    expect(sameSite.statusCode).toBe(403);
    const ok = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/stores/",
      payload: { name: "Same origin" },
      cookies: { [ADMIN_COOKIE]: cookie },
      headers: { origin: "http://localhost:80", host: "localhost:80", "sec-fetch-site": "same-origin" },
    });
    expect(ok.statusCode).toBe(201);
  });
});

describe("what a sign-in writes and clears", () => {
  const sessionsOf = (adminUserId: string) =>
    ctx.app.db.select().from(adminSessions).where(eq(adminSessions.adminUserId, adminUserId));

  it("says 1 minute, not 0 or 1 minutes, when the lock ends within the minute", async () => {
    const email = "soon@example.se";
    await createAdmin({ db: ctx.app.db, email, password: TEST_PASSWORD, role: "platform_admin" });
    for (let i = 0; i < LOGIN_LIMITS.perAccount; i++) await login(email, "not the password", "10.12.0.1");
    await ctx.app.db.execute(
      sql`update rate_limits set reset_at = now() + interval '20 seconds'
          where key = ${`admin-login:account:${createHash("sha256").update(email).digest("hex")}`}`,
    );
    const locked = await login(email, TEST_PASSWORD, "10.12.0.2");
    expect(locked.statusCode).toBe(429);
    expect(locked.json().detail).toBe("Too many sign-in attempts. Try again in 1 minute.");
  });

  it("stores no browser name when none was sent", async () => {
    const made = await createAdmin({
      db: ctx.app.db,
      email: "noua@example.se",
      password: TEST_PASSWORD,
      role: "platform_admin",
    });
    await loginDirect({ db: ctx.app.db, email: "noua@example.se", password: TEST_PASSWORD, ip: "10.12.1.1" });
    const rows = await sessionsOf(made.id);
    expect(rows.map((r) => r.userAgent)).toEqual([null]);
  });

  it("clears that admin's expired sessions, and only those", async () => {
    const { id, email } = await signIn(ctx.app);
    const other = await signIn(ctx.app);
    // Three sessions of this admin: idle too long, signed in too long ago, and live.
    await loginDirect({ db: ctx.app.db, email, password: TEST_PASSWORD, ip: "10.12.2.1" });
    await loginDirect({ db: ctx.app.db, email, password: TEST_PASSWORD, ip: "10.12.2.2" });
    const idle = sql`last_seen_at = now() - interval '31 minutes'`;
    await ctx.app.db.execute(sql`update admin_sessions set ${idle} where admin_user_id = ${id} and ip = '10.12.2.1'`);
    await ctx.app.db.execute(
      sql`update admin_sessions set created_at = now() - interval '12 hours 1 minute' where admin_user_id = ${id} and ip = '10.12.2.2'`,
    );
    await ctx.app.db.execute(sql`update admin_sessions set ${idle} where admin_user_id = ${other.id}`);
    const live = (await sessionsOf(id)).filter((r) => r.ip !== "10.12.2.1" && r.ip !== "10.12.2.2");
    expect(live).toHaveLength(1);

    await loginDirect({ db: ctx.app.db, email, password: TEST_PASSWORD, ip: "10.12.2.3" });
    const left = (await sessionsOf(id)).map((r) => r.tokenHash);
    expect(left).toHaveLength(2);
    expect(left).toContain(live[0]!.tokenHash);
    // Another admin's expired session waits for housekeeping.
    expect(await sessionsOf(other.id)).toHaveLength(1);
  });

  it("writes the last request's time at most once a minute", async () => {
    const { cookie, id } = await signIn(ctx.app);
    const ageSeconds = async () =>
      (
        await queryRows<{ s: number }>(
          ctx.app.db,
          sql`select extract(epoch from now() - last_seen_at)::int as s from admin_sessions where admin_user_id = ${id}`,
        )
      )[0]!.s;
    await ctx.app.db.execute(
      sql`update admin_sessions set last_seen_at = now() - interval '50 seconds' where admin_user_id = ${id}`,
    );
    expect((await as(ctx.app, cookie).get("/api/v1/admin/me")).statusCode).toBe(200);
    expect(await ageSeconds()).toBeGreaterThanOrEqual(50);
    await ctx.app.db.execute(
      sql`update admin_sessions set last_seen_at = now() - interval '70 seconds' where admin_user_id = ${id}`,
    );
    expect((await as(ctx.app, cookie).get("/api/v1/admin/me")).statusCode).toBe(200);
    expect(await ageSeconds()).toBeLessThan(5);
  });

  it("checks a session without counting it as activity when asked not to touch it (a live feed's heartbeat)", async () => {
    const { cookie, id } = await signIn(ctx.app);
    const lastSeen = async () =>
      (
        await queryRows<{ s: number }>(
          ctx.app.db,
          sql`select extract(epoch from now() - last_seen_at)::int as s from admin_sessions where admin_user_id = ${id}`,
        )
      )[0]!.s;
    await ctx.app.db.execute(
      sql`update admin_sessions set last_seen_at = now() - interval '10 minutes' where admin_user_id = ${id}`,
    );
    expect(await resolveSession(ctx.app.db, cookie, { touch: false })).toMatchObject({ id });
    expect(await lastSeen()).toBeGreaterThanOrEqual(600);
    expect(await resolveSession(ctx.app.db, cookie)).toMatchObject({ id });
    expect(await lastSeen()).toBeLessThan(5);
  });
});

describe("the edges of a session's life", () => {
  afterEach(() => vi.useRealTimers());
  const minute = 60 * 1000;
  /** Sets the session's times to exact instants and the clock to `now`, to the millisecond. */
  const pin = async (id: string, times: { createdAt: number; lastSeenAt: number; now: number }) => {
    await ctx.app.db
      .update(adminSessions)
      .set({ createdAt: new Date(times.createdAt), lastSeenAt: new Date(times.lastSeenAt) })
      .where(eq(adminSessions.adminUserId, id));
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(times.now);
  };
  const lastSeen = async (id: string) =>
    (await ctx.app.db.select().from(adminSessions).where(eq(adminSessions.adminUserId, id)))[0]?.lastSeenAt.getTime();

  it("is alive at exactly 30 idle minutes and at exactly 12 hours, and gone a millisecond later", async () => {
    const t = Date.now() - 13 * 60 * minute;
    const idle = await signIn(ctx.app);
    await pin(idle.id, { createdAt: t, lastSeenAt: t, now: t + 30 * minute });
    expect((await as(ctx.app, idle.cookie).get("/api/v1/admin/me")).statusCode).toBe(200);
    await pin(idle.id, { createdAt: t, lastSeenAt: t, now: t + 30 * minute + 1 });
    expect((await as(ctx.app, idle.cookie).get("/api/v1/admin/me")).statusCode).toBe(204);

    const old = await signIn(ctx.app);
    const twelveHours = 12 * 60 * minute;
    await pin(old.id, { createdAt: t, lastSeenAt: t + twelveHours - minute / 2, now: t + twelveHours });
    expect((await as(ctx.app, old.cookie).get("/api/v1/admin/me")).statusCode).toBe(200);
    await pin(old.id, { createdAt: t, lastSeenAt: t + twelveHours - minute / 2, now: t + twelveHours + 1 });
    expect((await as(ctx.app, old.cookie).get("/api/v1/admin/me")).statusCode).toBe(204);
  });

  it("is not written at exactly one minute since the last write, and is a millisecond later", async () => {
    const { cookie, id } = await signIn(ctx.app);
    const t = Date.now() - 10 * minute;
    await pin(id, { createdAt: t, lastSeenAt: t, now: t + minute });
    expect((await as(ctx.app, cookie).get("/api/v1/admin/me")).statusCode).toBe(200);
    expect(await lastSeen(id)).toBe(t);
    await pin(id, { createdAt: t, lastSeenAt: t, now: t + minute + 1 });
    expect((await as(ctx.app, cookie).get("/api/v1/admin/me")).statusCode).toBe(200);
    expect(await lastSeen(id)).toBe(t + minute + 1);
  });

  it("tells the longer wait when both the account and the address are locked", async () => {
    const email = "both@example.se";
    await createAdmin({ db: ctx.app.db, email, password: TEST_PASSWORD, role: "platform_admin" });
    for (let i = 0; i < LOGIN_LIMITS.perAccount; i++) await login(email, "not the password", "10.13.0.1");
    // The account's lock ends within the minute, the address's in 15 minutes.
    await ctx.app.db.execute(
      sql`update rate_limits set reset_at = now() + interval '20 seconds'
          where key = ${`admin-login:account:${createHash("sha256").update(email).digest("hex")}`}`,
    );
    for (let i = LOGIN_LIMITS.perAccount; i < LOGIN_LIMITS.perAddress; i++) {
      await login(`nobody${i}@example.se`, "not the password", "10.13.0.1");
    }
    const locked = await login(email, TEST_PASSWORD, "10.13.0.1");
    expect(locked.statusCode).toBe(429);
    expect(locked.json().detail).toBe("Too many sign-in attempts. Try again in 15 minutes.");
  });

  // Last in this file: housekeeping clears every expired session, other tests' too.
  it("housekeeping clears sessions signed in over 12 hours ago, however recently used", async () => {
    const old = await signIn(ctx.app);
    const young = await signIn(ctx.app);
    await ctx.app.db.execute(
      sql`update admin_sessions set created_at = now() - interval '12 hours 1 minute' where admin_user_id = ${old.id}`,
    );
    await ctx.app.db.execute(
      sql`update admin_sessions set created_at = now() - interval '11 hours 59 minutes' where admin_user_id = ${young.id}`,
    );
    await clearExpired(ctx.app.db, [adminSessionExpiry]);
    expect(await lastSeen(old.id)).toBeUndefined();
    expect(await lastSeen(young.id)).toBeDefined();
  });
});
