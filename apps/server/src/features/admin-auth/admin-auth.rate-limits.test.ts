import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_PASSWORD } from "../../test/harness.ts";
import { ctx, login, openAdminAuthTests } from "./admin-auth.fixtures.ts";
import { createAdmin, LOGIN_LIMITS } from "./admin-auth.service.ts";

beforeAll(openAdminAuthTests);
afterAll(() => ctx.close());

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
