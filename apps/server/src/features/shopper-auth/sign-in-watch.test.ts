import { eq, sql } from "drizzle-orm";
import { decodeJwt } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { shopperRefreshTokens } from "../../db/schema/index.ts";
import { createTestContext, signInShopper, type TestContext } from "../../test/harness.ts";
import { SIGN_IN_ENDED_TOPIC } from "./sign-in-events.ts";
import { type SignInWatch, watchSignIns } from "./sign-in-watch.ts";

let ctx: TestContext;
let watch: SignInWatch | null = null;
beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.app.bus.ready();
});
afterEach(() => {
  watch?.close();
  watch = null;
});
afterAll(() => ctx.close());

const open = (recheckMs?: number) => {
  watch = watchSignIns({
    db: ctx.app.db,
    bus: ctx.app.bus,
    jwtKey: ctx.app.shopperKeys.jwt,
    logger: ctx.app.log,
    ...(recheckMs ? { recheckMs } : {}),
  });
  return watch;
};

describe("watching a shopper's sign-in", () => {
  it("admits a live sign-in's token, and refuses a forged or ended one", async () => {
    const w = open();
    const s = await signInShopper(ctx.app);
    const admitted = await w.admit(s.accessToken, () => {});
    expect(admitted?.customerId).toBe(s.customerId);
    admitted?.stop();
    expect(await w.admit(`${s.accessToken}x`, () => {})).toBeNull();
    await ctx.app.inject({ method: "POST", url: "/api/v1/auth/logout", payload: { refresh_token: s.refreshToken } });
    expect(await w.admit(s.accessToken, () => {})).toBeNull();
  });

  it("ends a sign-in whose end was never announced at the next check of the database", async () => {
    const w = open(100);
    const s = await signInShopper(ctx.app);
    const other = await signInShopper(ctx.app);
    const ended = vi.fn();
    const stillLive = vi.fn();
    await w.admit(s.accessToken, ended);
    await w.admit(other.accessToken, stillLive);
    // Revoked behind the service's back: no event on the bus, as if this instance had missed it.
    const sid = decodeJwt(s.accessToken).sid as string;
    await ctx.app.db
      .update(shopperRefreshTokens)
      .set({ revokedAt: sql`now()` })
      .where(eq(shopperRefreshTokens.familyId, sid));
    await vi.waitFor(() => expect(ended).toHaveBeenCalledWith("signed_out"), { timeout: 3_000 });
    expect(ended).toHaveBeenCalledTimes(1);
    expect(stillLive).not.toHaveBeenCalled();
  });

  it("tells each watcher once, and none that stopped watching", async () => {
    const w = open();
    const s = await signInShopper(ctx.app);
    const first = vi.fn();
    const stopped = vi.fn();
    await w.admit(s.accessToken, first);
    (await w.admit(s.accessToken, stopped))?.stop();
    const sid = decodeJwt(s.accessToken).sid as string;
    let heard = 0;
    const stop = ctx.app.bus.subscribe(SIGN_IN_ENDED_TOPIC, () => heard++);
    await ctx.app.bus.publish(SIGN_IN_ENDED_TOPIC, { family_id: sid });
    await ctx.app.bus.publish(SIGN_IN_ENDED_TOPIC, { family_id: sid });
    await vi.waitFor(() => expect(heard).toBe(2));
    stop();
    expect(first).toHaveBeenCalledWith("signed_out");
    // A token of a sign-in heard of as ended is refused without asking the database, which still says live.
    expect(await w.admit(s.accessToken, () => {})).toBeNull();
    expect(first).toHaveBeenCalledTimes(1);
    expect(stopped).not.toHaveBeenCalled();
  });
});
