import { randomUUID } from "node:crypto";
import { errorSchema, profileSchema } from "@glide/contracts";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shopper as newShopper } from "../../test/factories.ts";
import { createTestContext, type TestContext } from "../../test/harness.ts";
import { readProfile, setEmail } from "./profile.service.ts";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

async function shopper(name: string) {
  const { call } = await newShopper(ctx.app, { name, card: null });
  return {
    profile: async () => profileSchema.parse((await call({ method: "GET", url: "/api/v1/profile" })).json()),
    setEmail: (payload: unknown) =>
      call({ method: "PUT", url: "/api/v1/profile/email", payload: payload as InjectOptions["payload"] }),
  };
}

describe("the shopper's profile", () => {
  it("shows the name from BankID and no e-mail until one is given", async () => {
    const sam = await shopper("Sam Svensson");
    expect(await sam.profile()).toEqual({ name: "Sam Svensson", email: null });
  });

  it("sets the e-mail (trimmed), changes it, and null removes it; each answer is the profile", async () => {
    const sam = await shopper("Sam Svensson");
    const set = await sam.setEmail({ email: "  sam@example.se " });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({ name: "Sam Svensson", email: "sam@example.se" });
    expect(await sam.profile()).toEqual({ name: "Sam Svensson", email: "sam@example.se" });

    expect((await sam.setEmail({ email: "sam.s@example.com" })).json().email).toBe("sam.s@example.com");
    const removed = await sam.setEmail({ email: null });
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ name: "Sam Svensson", email: null });
    expect(await sam.profile()).toEqual({ name: "Sam Svensson", email: null });
  });

  it("refuses what is not an e-mail address with 422, naming the field, and keeps the one it had", async () => {
    const sam = await shopper("Sam Svensson");
    await sam.setEmail({ email: "sam@example.se" });
    const longest = `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(58)}.se`;
    expect(longest).toHaveLength(254);
    for (const payload of [
      { email: "sam" },
      { email: "sam@" },
      { email: "sam@example" },
      { email: "sam @example.se" },
      { email: "sam@example.se\r\nBcc: x@y.se" },
      { email: "" },
      { email: 42 },
      { email: `a${longest}` },
      {},
    ]) {
      const res = await sam.setEmail(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      const body = errorSchema.parse(res.json());
      expect(body.errors?.map((e) => e.path)).toContain("email");
    }
    expect(await sam.profile()).toEqual({ name: "Sam Svensson", email: "sam@example.se" });
    // The longest address SMTP carries is taken, one character more was not.
    expect((await sam.setEmail({ email: longest })).json().email).toBe(longest);
  });

  it("changes only the signed-in shopper's own e-mail", async () => {
    const sam = await shopper("Sam");
    const kim = await shopper("Kim");
    await sam.setEmail({ email: "sam@example.se" });
    await kim.setEmail({ email: "kim@example.se" });
    expect((await sam.profile()).email).toBe("sam@example.se");
    expect((await kim.profile()).email).toBe("kim@example.se");
  });

  it("is for signed-in shoppers only", async () => {
    for (const opts of [
      { method: "GET", url: "/api/v1/profile" },
      { method: "PUT", url: "/api/v1/profile/email", payload: { email: "x@example.se" } },
    ] as const) {
      const anonymous = await ctx.app.inject(opts);
      expect(anonymous.statusCode).toBe(401);
      const forged = await ctx.app.inject({ ...opts, headers: { authorization: "Bearer not-a-token" } });
      expect(forged.statusCode).toBe(401);
    }
  });

  it("answers 404 in Swedish for an account deleted after its token was checked", async () => {
    // The token check refuses a deleted account (401); this is the moment between that check and the read.
    const gone = randomUUID();
    for (const call of [
      () => readProfile(ctx.app.db, gone),
      () => setEmail({ db: ctx.app.db, customerId: gone, email: null }),
    ])
      await expect(call()).rejects.toMatchObject({
        status: 404,
        code: "no_account",
        message: "Kontot finns inte längre.",
      });
  });
});
