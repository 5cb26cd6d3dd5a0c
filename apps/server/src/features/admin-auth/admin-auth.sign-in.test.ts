import { adminMeSchema } from "@glide/contracts";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSessions } from "../../db/schema/index.ts";
import { as, createTestContext, TEST_PASSWORD } from "../../test/harness.ts";
import { ctx, login, openAdminAuthTests } from "./admin-auth.fixtures.ts";
import { ADMIN_COOKIE } from "./admin-auth.hooks.ts";
import { createAdmin, LOGIN_LIMITS } from "./admin-auth.service.ts";

beforeAll(openAdminAuthTests);
afterAll(() => ctx.close());

describe("signing in", () => {
  it("sets an HttpOnly, SameSite=Strict session cookie and answers with the admin", async () => {
    await createAdmin({ db: ctx.app.db, email: "Kim@Example.se", password: TEST_PASSWORD, role: "platform_admin" });
    const res = await login("kim@example.SE", TEST_PASSWORD);
    expect(res.statusCode).toBe(200);
    expect(adminMeSchema.parse(res.json())).toMatchObject({
      email: "Kim@Example.se",
      role: "platform_admin",
      store_ids: [],
    });
    const cookie = res.cookies.find((c) => c.name === ADMIN_COOKIE)!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict", path: "/" });
    // Plain http on localhost is the only place the cookie goes without Secure.
    expect(cookie.secure).toBeFalsy();
    const me = await as(ctx.app, cookie.value).get("/api/v1/admin/me");
    expect(me.json().email).toBe("Kim@Example.se");
  });

  it("marks the cookie Secure when the public address is https", async () => {
    const secure = await createTestContext({ PUBLIC_URL: "https://console.glide.example" });
    try {
      await createAdmin({ db: secure.app.db, email: "s@example.se", password: TEST_PASSWORD, role: "platform_admin" });
      const res = await secure.app.inject({
        method: "POST",
        url: "/api/v1/admin/login",
        payload: { email: "s@example.se", password: TEST_PASSWORD },
      });
      expect(res.cookies.find((c) => c.name === ADMIN_COOKIE)?.secure).toBe(true);
    } finally {
      await secure.close();
    }
  });

  it("gives the same answer for an unknown e-mail and a wrong password", async () => {
    await createAdmin({ db: ctx.app.db, email: "same@example.se", password: TEST_PASSWORD, role: "platform_admin" });
    const unknown = await login("nobody@example.se", TEST_PASSWORD, "10.2.0.1");
    const wrong = await login("same@example.se", "wrong password!", "10.2.0.2");
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.json()).toEqual(wrong.json());
    expect(unknown.json().detail).toBe("Invalid email or password");
    expect(unknown.cookies).toHaveLength(0);
  });

  it("rejects a missing password with 422 naming the field", async () => {
    const res = await ctx.app.inject({ method: "POST", url: "/api/v1/admin/login", payload: { email: "a@b.se" } });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toContain("password");
  });
});

describe("the answers a refused sign-in gets", () => {
  it("says invalid_credentials for a wrong password, and how many minutes to wait once locked", async () => {
    await createAdmin({ db: ctx.app.db, email: "wait@example.se", password: TEST_PASSWORD, role: "platform_admin" });
    const wrong = await login("wait@example.se", "not the password", "10.9.9.1");
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe("invalid_credentials");
    for (let i = 1; i < LOGIN_LIMITS.perAccount; i++) await login("wait@example.se", "not the password", "10.9.9.1");
    const locked = await login("wait@example.se", TEST_PASSWORD, "10.9.9.1");
    expect(locked.statusCode).toBe(429);
    const minutes = Math.ceil(LOGIN_LIMITS.windowMs / 60_000);
    expect(locked.json().detail).toBe(`Too many sign-in attempts. Try again in ${minutes} minutes.`);
  });

  it("keeps only the first 300 characters of the browser's name", async () => {
    await createAdmin({ db: ctx.app.db, email: "ua@example.se", password: TEST_PASSWORD, role: "platform_admin" });
    const res = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/admin/login",
      payload: { email: "ua@example.se", password: TEST_PASSWORD },
      headers: { "user-agent": "x".repeat(400) },
    });
    expect(res.statusCode).toBe(200);
    const [row] = await ctx.app.db
      .select({ userAgent: adminSessions.userAgent })
      .from(adminSessions)
      .orderBy(sql`${adminSessions.createdAt} desc`)
      .limit(1);
    expect(row?.userAgent).toHaveLength(300);
  });
});
