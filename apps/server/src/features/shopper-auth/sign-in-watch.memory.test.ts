import { decodeJwt } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestContext, revokeUnannounced, signInShopper, type TestContext } from "../../test/harness.ts";
import { ACCESS_TOKEN_TTL_SECONDS } from "./shopper-tokens.ts";
import { type SIGN_IN_WATCH_LIMITS, type SignInWatch, watchSignIns } from "./sign-in-watch.ts";

/**
 * What the watch keeps in memory, and for how long: every map it holds is
 * emptied once its entries can no longer matter, and none grows past its
 * bound. The watch's clock is the test's, so lifetimes of minutes pass at
 * once; its checks run on a short real interval.
 */
const RECHECK_MS = 20;
let ctx: TestContext;
let watch: SignInWatch | null = null;
let clock = 0;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterEach(() => {
  watch?.close();
  watch = null;
});
afterAll(() => ctx.close());

const open = (opts: { trustMs?: number; limits?: Partial<typeof SIGN_IN_WATCH_LIMITS> } = {}) => {
  clock = Date.now();
  watch = watchSignIns({
    db: ctx.app.db,
    bus: ctx.app.bus,
    jwtKey: ctx.app.shopperKeys.jwt,
    logger: ctx.app.log,
    recheckMs: RECHECK_MS,
    now: () => clock,
    ...opts,
  });
  return watch;
};
/** Long enough for a few of the watch's checks to have run at the clock as it now is. */
const checksRun = () => new Promise((resolve) => setTimeout(resolve, 5 * RECHECK_MS));
const expiryOf = (token: string) => (decodeJwt(token).exp as number) * 1000;

describe("what the sign-in watch forgets, and when", () => {
  it("forgets a sign-in heard of as ended a token's lifetime after its end, not a moment before", async () => {
    const w = open();
    const s = await signInShopper(ctx.app);
    const endedAt = clock;
    w.ended(decodeJwt(s.accessToken).sid as string);
    clock = endedAt + ACCESS_TOKEN_TTL_SECONDS * 1000;
    await checksRun();
    expect(w.held().ended).toBe(1);
    clock += 1;
    await checksRun();
    expect(w.held().ended).toBe(0);
    // By then every token of that sign-in has expired by itself.
    expect(await w.customerOf(s.accessToken)).toBeNull();
  });

  it("forgets a verified token when it expires, not a moment before", async () => {
    const w = open();
    const s = await signInShopper(ctx.app);
    expect(await w.customerOf(s.accessToken)).toBe(s.customerId);
    clock = expiryOf(s.accessToken) - 1;
    await checksRun();
    expect(w.held().verified).toBe(1);
    clock += 1;
    await checksRun();
    expect(w.held().verified).toBe(0);
  });

  it("forgets a trusted sign-in when its window closes, not a moment before", async () => {
    const w = open({ trustMs: 5_000 });
    const s = await signInShopper(ctx.app);
    const asked = clock;
    expect(await w.customerOf(s.accessToken)).toBe(s.customerId);
    clock = asked + 4_999;
    await checksRun();
    expect(w.held().trusted).toBe(1);
    clock += 1;
    await checksRun();
    expect(w.held().trusted).toBe(0);
  });

  it("keeps no more verified tokens and trusted sign-ins than its bounds, however many come", async () => {
    const w = open({ limits: { keptTokens: 2, trustedSignIns: 2 } });
    const shoppers = [await signInShopper(ctx.app), await signInShopper(ctx.app)];
    for (const s of shoppers) expect(await w.customerOf(s.accessToken)).toBe(s.customerId);
    // Exactly at the bounds: nothing dropped yet.
    expect(w.held()).toMatchObject({ verified: 2, trusted: 2 });
    const third = await signInShopper(ctx.app);
    expect(await w.customerOf(third.accessToken)).toBe(third.customerId);
    expect(w.held()).toMatchObject({ verified: 2, trusted: 2 });
    // The oldest trusted sign-in was the one let go: ended behind the watch's back, it alone is asked again.
    for (const s of shoppers) await revokeUnannounced(ctx.app, s.accessToken);
    expect(await w.customerOf(shoppers[0]!.accessToken)).toBeNull();
    expect(await w.customerOf(shoppers[1]!.accessToken)).toBe(shoppers[1]!.customerId);
  });
});

describe("a held connection's expiry", () => {
  it("is re-armed while a timer's longest delay falls short of it, and ends the connection at its second", async () => {
    const w = open({ limits: { maxTimerMs: RECHECK_MS } });
    const s = await signInShopper(ctx.app);
    const onEnd = vi.fn();
    expect(await w.admit(s.accessToken, onEnd)).not.toBeNull();
    clock = expiryOf(s.accessToken) - 1;
    await checksRun();
    expect(onEnd).not.toHaveBeenCalled();
    expect(w.held().watched).toBe(1);
    clock += 1;
    await vi.waitFor(() => expect(onEnd).toHaveBeenCalledWith("expired"));
    expect(w.held().watched).toBe(0);
    await checksRun();
    expect(onEnd).toHaveBeenCalledTimes(1);
  });

  it("lets go of every connection when the watch closes: none is told of an expiry afterwards", async () => {
    const w = open({ limits: { maxTimerMs: RECHECK_MS } });
    const s = await signInShopper(ctx.app);
    const onEnd = vi.fn();
    await w.admit(s.accessToken, onEnd);
    await w.admit(s.accessToken, onEnd);
    expect(w.held().watched).toBe(2);
    w.close();
    expect(w.held().watched).toBe(0);
    clock = expiryOf(s.accessToken);
    await checksRun();
    expect(onEnd).not.toHaveBeenCalled();
  });
});
