import { createHash } from "node:crypto";
import { adminMeSchema } from "@glide/contracts";
import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { queryRows } from "../../db/client.ts";
import { adminSessions } from "../../db/schema/index.ts";
import { clearExpired } from "../../platform/housekeeping.ts";
import { as, createTestContext, signIn, TEST_PASSWORD, type TestContext } from "../../test/harness.ts";
import { ADMIN_COOKIE } from "./admin-auth.hooks.ts";
import {
  adminSessionExpiry,
  countAdmins,
  createAdmin,
  deleteAdmin,
  LOGIN_LIMITS,
  listAdmins,
  login as loginDirect,
  resolveSession,
  setAdminPassword,
} from "./admin-auth.service.ts";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const login = (email: string, password: string, ip = "10.1.1.1") =>
  ctx.app.inject({ method: "POST", url: "/api/v1/admin/login", payload: { email, password }, remoteAddress: ip });

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

describe("rate limits", () => {
  it("locks an account after repeated failures, even for the right password, from any address", async () => {
    await createAdmin({ db: ctx.app.db, email: "locked@example.se", password: TEST_PASSWORD, role: "platform_admin" });
    for (let i = 0; i < LOGIN_LIMITS.perAccount; i++) {
      expect((await login("locked@example.se", "wrong password!", `10.3.0.${i}`)).statusCode).toBe(401);
    }
    const res = await login("locked@example.se", TEST_PASSWORD, "10.3.1.1");
    expect(res.statusCode).toBe(429);
    expect(res.json().detail).toMatch(/^Too many sign-in attempts\. Try again in \d+ minutes?\.$/);
    // Another account is not affected.
    await createAdmin({ db: ctx.app.db, email: "free@example.se", password: TEST_PASSWORD, role: "platform_admin" });
    expect((await login("free@example.se", TEST_PASSWORD, "10.3.1.1")).statusCode).toBe(200);
  });

  it("lets the account in again once the window has passed", async () => {
    await ctx.app.db.execute(sql`update rate_limits set reset_at = now() - interval '1 second'`);
    expect((await login("locked@example.se", TEST_PASSWORD, "10.3.1.2")).statusCode).toBe(200);
  });

  it("limits one address trying many accounts", async () => {
    for (let i = 0; i < LOGIN_LIMITS.perAddress; i++) {
      expect((await login(`guess${i}@example.se`, "wrong password!", "10.4.4.4")).statusCode).toBe(401);
    }
    await createAdmin({ db: ctx.app.db, email: "victim@example.se", password: TEST_PASSWORD, role: "platform_admin" });
    expect((await login("victim@example.se", TEST_PASSWORD, "10.4.4.4")).statusCode).toBe(429);
    expect((await login("victim@example.se", TEST_PASSWORD, "10.4.4.5")).statusCode).toBe(200);
  });

  it("does not count refused attempts: a locked address cannot lock someone else's account", async () => {
    for (let i = 0; i < LOGIN_LIMITS.perAddress; i++) await login(`scan${i}@example.se`, "wrong password!", "10.4.5.5");
    await createAdmin({
      db: ctx.app.db,
      email: "bystander@example.se",
      password: TEST_PASSWORD,
      role: "platform_admin",
    });
    for (let i = 0; i <= LOGIN_LIMITS.perAccount; i++) {
      expect((await login("bystander@example.se", "wrong password!", "10.4.5.5")).statusCode).toBe(429);
    }
    expect((await login("bystander@example.se", TEST_PASSWORD, "10.4.5.6")).statusCode).toBe(200);
  });

  it("lets the right password in below the limit, and a success starts the account's count again", async () => {
    await createAdmin({ db: ctx.app.db, email: "typo@example.se", password: TEST_PASSWORD, role: "platform_admin" });
    for (let i = 0; i < LOGIN_LIMITS.perAccount - 1; i++) {
      expect((await login("typo@example.se", "wrong password!", "10.6.0.1")).statusCode).toBe(401);
    }
    expect((await login("typo@example.se", TEST_PASSWORD, "10.6.0.1")).statusCode).toBe(200);
    for (let i = 0; i < LOGIN_LIMITS.perAccount; i++) {
      expect((await login("typo@example.se", "wrong password!", "10.6.0.1")).statusCode).toBe(401);
    }
    expect((await login("typo@example.se", TEST_PASSWORD, "10.6.0.1")).statusCode).toBe(429);
  });

  it("does not count successful sign-ins against the address", async () => {
    await createAdmin({ db: ctx.app.db, email: "office@example.se", password: TEST_PASSWORD, role: "platform_admin" });
    for (let i = 0; i <= LOGIN_LIMITS.perAddress; i++) {
      expect((await login("office@example.se", TEST_PASSWORD, "10.7.0.1")).statusCode).toBe(200);
    }
  });
});

describe("rate limits under parallel requests", () => {
  const statuses = async (requests: Promise<{ statusCode: number }>[]) => {
    const codes = (await Promise.all(requests)).map((r) => r.statusCode);
    return { codes, count: (code: number) => codes.filter((c) => c === code).length };
  };

  it("checks at most the account's limit of 50 parallel wrong passwords; the rest are refused", async () => {
    await createAdmin({ db: ctx.app.db, email: "swarm@example.se", password: TEST_PASSWORD, role: "platform_admin" });
    const { codes, count } = await statuses(
      Array.from({ length: 50 }, (_, i) => login("swarm@example.se", "wrong password!", `10.50.${i}.1`)),
    );
    expect(count(401)).toBe(LOGIN_LIMITS.perAccount);
    expect(count(429)).toBe(50 - LOGIN_LIMITS.perAccount);
    expect(codes.length).toBe(50);
  });

  it("keeps the attacker out when the right password is 31st of 50 parallel guesses", async () => {
    await createAdmin({ db: ctx.app.db, email: "target@example.se", password: TEST_PASSWORD, role: "platform_admin" });
    const { count } = await statuses(
      Array.from({ length: 50 }, (_, i) =>
        login("target@example.se", i === 30 ? TEST_PASSWORD : "wrong password!", `10.51.${i}.1`),
      ),
    );
    expect(count(200)).toBe(0);
    expect(count(401)).toBe(LOGIN_LIMITS.perAccount);
    expect(count(429)).toBe(50 - LOGIN_LIMITS.perAccount);
  });

  it("checks at most the address's limit of 50 parallel guesses at different accounts", async () => {
    const { count } = await statuses(
      Array.from({ length: 50 }, (_, i) => login(`spray${i}@example.se`, "wrong password!", "10.52.0.1")),
    );
    expect(count(401)).toBe(LOGIN_LIMITS.perAddress);
    expect(count(429)).toBe(50 - LOGIN_LIMITS.perAddress);
  });
});

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

describe("creating admins", () => {
  const create = (fields: Partial<Parameters<typeof createAdmin>[0]>) =>
    createAdmin({
      db: ctx.app.db,
      email: "new@example.se",
      password: TEST_PASSWORD,
      role: "platform_admin",
      ...fields,
    });

  it("refuses a bad e-mail, a password under 12 characters, a taken e-mail and an unknown store", async () => {
    await expect(create({ email: "not-an-address" })).rejects.toMatchObject({ status: 422 });
    await expect(create({ email: "short@example.se", password: "x".repeat(11) })).rejects.toMatchObject({
      status: 422,
      message: "password: must be at least 12 characters",
    });
    await expect(create({ email: "twelve@example.se", password: "x".repeat(12) })).resolves.toMatchObject({
      email: "twelve@example.se",
    });
    await expect(create({ email: "TWELVE@example.se" })).rejects.toMatchObject({ status: 409 });
    await expect(
      create({ email: "lost@example.se", role: "store_admin", storeIds: ["00000000-0000-4000-8000-000000000000"] }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it("gives a store admin their stores, and tells them at sign-in", async () => {
    const store = (await as(ctx.app, (await signIn(ctx.app)).cookie).post("/api/v1/stores/", { name: "Min" })).json()
      .id as string;
    await create({ email: "mine@example.se", role: "store_admin", storeIds: [store, store] });
    const res = await login("mine@example.se", TEST_PASSWORD, "10.9.9.2");
    expect(res.json()).toMatchObject({ role: "store_admin", store_ids: [store] });
  });
});

describe("creating admins: what is stored", () => {
  it("refuses addresses that only contain a valid one, and says why", async () => {
    for (const email of ["a b@example.se", "a@b.se c", "a@@example.se", "@example.se", "a@example", "a@example."]) {
      await expect(
        createAdmin({ db: ctx.app.db, email, password: TEST_PASSWORD, role: "platform_admin" }),
      ).rejects.toMatchObject({ status: 422, message: "email: not a valid e-mail address" });
    }
  });

  it("stores the address trimmed, names a taken one, and gives a platform admin no stores", async () => {
    const store = (await as(ctx.app, (await signIn(ctx.app)).cookie).post("/api/v1/stores/", { name: "Ej min" })).json()
      .id as string;
    const made = await createAdmin({
      db: ctx.app.db,
      email: "  Spaced@Example.se ",
      password: TEST_PASSWORD,
      role: "platform_admin",
      storeIds: [store],
    });
    expect(made).toMatchObject({ email: "Spaced@Example.se", role: "platform_admin", storeIds: [] });
    expect((await listAdmins(ctx.app.db)).find((a) => a.id === made.id)?.storeIds).toEqual([]);
    await expect(
      createAdmin({ db: ctx.app.db, email: "spaced@example.se", password: TEST_PASSWORD, role: "platform_admin" }),
    ).rejects.toMatchObject({ status: 409, message: "An admin with e-mail spaced@example.se already exists" });
  });

  it("names every unknown store id, and creates nothing then", async () => {
    const store = (await as(ctx.app, (await signIn(ctx.app)).cookie).post("/api/v1/stores/", { name: "Finns" })).json()
      .id as string;
    const lost = ["00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002"];
    await expect(
      createAdmin({
        db: ctx.app.db,
        email: "half@example.se",
        password: TEST_PASSWORD,
        role: "store_admin",
        storeIds: [lost[0]!, store, lost[1]!],
      }),
    ).rejects.toMatchObject({ status: 404, message: `Unknown store id: ${lost[0]}, ${lost[1]}` });
    expect((await listAdmins(ctx.app.db)).some((a) => a.email === "half@example.se")).toBe(false);
  });

  it("creates a store admin without stores when none are given", async () => {
    const made = await createAdmin({
      db: ctx.app.db,
      email: "nostores@example.se",
      password: TEST_PASSWORD,
      role: "store_admin",
    });
    expect(made.storeIds).toEqual([]);
    expect((await login("nostores@example.se", TEST_PASSWORD, "10.9.9.3")).json()).toMatchObject({
      role: "store_admin",
      store_ids: [],
    });
  });
});

describe("the admin command's use cases", () => {
  it("sets a new password: the old one stops working and the admin is signed out everywhere", async () => {
    const email = "reset@example.se";
    await createAdmin({ db: ctx.app.db, email, password: TEST_PASSWORD, role: "platform_admin" });
    const other = await signIn(ctx.app);
    const cookie = (await login(email, TEST_PASSWORD, "10.11.0.1")).cookies.find((c) => c.name === ADMIN_COOKIE)!;
    await setAdminPassword({ db: ctx.app.db, email: " RESET@example.se ", password: "a new password!" });
    expect((await as(ctx.app, cookie.value).get("/api/v1/admin/me")).statusCode).toBe(204);
    expect((await as(ctx.app, other.cookie).get("/api/v1/admin/me")).statusCode).toBe(200);
    expect((await login(email, TEST_PASSWORD, "10.11.0.2")).statusCode).toBe(401);
    expect((await login(email, "a new password!", "10.11.0.3")).statusCode).toBe(200);
  });

  it("refuses a new password under 12 characters, and an unknown admin", async () => {
    await createAdmin({ db: ctx.app.db, email: "keep@example.se", password: TEST_PASSWORD, role: "platform_admin" });
    await expect(
      setAdminPassword({ db: ctx.app.db, email: "keep@example.se", password: "x".repeat(11) }),
    ).rejects.toMatchObject({ status: 422, message: "password: must be at least 12 characters" });
    expect((await login("keep@example.se", TEST_PASSWORD, "10.11.1.1")).statusCode).toBe(200);
    await setAdminPassword({ db: ctx.app.db, email: "keep@example.se", password: "y".repeat(12) });
    expect((await login("keep@example.se", "y".repeat(12), "10.11.1.2")).statusCode).toBe(200);
    await expect(
      setAdminPassword({ db: ctx.app.db, email: "ghost@example.se", password: TEST_PASSWORD }),
    ).rejects.toMatchObject({ status: 404, message: "No admin with e-mail ghost@example.se" });
  });

  it("lists admins by e-mail with their own stores, and counts them", async () => {
    const cookie = (await signIn(ctx.app)).cookie;
    const a = (await as(ctx.app, cookie).post("/api/v1/stores/", { name: "A" })).json().id as string;
    const b = (await as(ctx.app, cookie).post("/api/v1/stores/", { name: "B" })).json().id as string;
    const before = await countAdmins(ctx.app.db);
    const zed = await createAdmin({
      db: ctx.app.db,
      email: "zz-list@example.se",
      password: TEST_PASSWORD,
      role: "store_admin",
      storeIds: [a, b],
    });
    const ann = await createAdmin({
      db: ctx.app.db,
      email: "aa-list@example.se",
      password: TEST_PASSWORD,
      role: "store_admin",
      storeIds: [b],
    });
    expect(await countAdmins(ctx.app.db)).toBe(before + 2);

    const listed = await listAdmins(ctx.app.db);
    expect(listed).toHaveLength(before + 2);
    // By e-mail, not by creation: "zz" was created first. (Only these two: the collation orders the rest.)
    const emails = listed.map((x) => x.email);
    expect(emails.indexOf("aa-list@example.se")).toBeLessThan(emails.indexOf("zz-list@example.se"));
    expect(listed.find((x) => x.id === zed.id)).toEqual({
      id: zed.id,
      email: "zz-list@example.se",
      role: "store_admin",
      storeIds: expect.arrayContaining([a, b]),
    });
    expect(listed.find((x) => x.id === zed.id)?.storeIds).toHaveLength(2);
    expect(listed.find((x) => x.id === ann.id)?.storeIds).toEqual([b]);
  });

  it("deletes one admin, whatever the case of the e-mail, and refuses an unknown one", async () => {
    await createAdmin({ db: ctx.app.db, email: "gone@example.se", password: TEST_PASSWORD, role: "platform_admin" });
    await createAdmin({ db: ctx.app.db, email: "stays@example.se", password: TEST_PASSWORD, role: "platform_admin" });
    const before = await countAdmins(ctx.app.db);
    await deleteAdmin(ctx.app.db, " GONE@example.se ");
    expect(await countAdmins(ctx.app.db)).toBe(before - 1);
    const emails = (await listAdmins(ctx.app.db)).map((x) => x.email);
    expect(emails).not.toContain("gone@example.se");
    expect(emails).toContain("stays@example.se");
    await expect(deleteAdmin(ctx.app.db, "gone@example.se")).rejects.toMatchObject({
      status: 404,
      message: "No admin with e-mail gone@example.se",
    });
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
