import type { FastifyBaseLogger } from "fastify";
import { decodeJwt } from "jose";
import pino from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestContext, revokeUnannounced, signInShopper, type TestContext } from "../../test/harness.ts";
import { ACCESS_TOKEN_TTL_SECONDS } from "./shopper-tokens.ts";
import { SIGN_IN_ENDED_TOPIC } from "./sign-in-events.ts";
import { SIGN_IN_WATCH_LIMITS, type SignInWatch, watchSignIns } from "./sign-in-watch.ts";

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

type Options = {
  trustMs?: number;
  limits?: Partial<typeof SIGN_IN_WATCH_LIMITS>;
  now?: () => number;
  logger?: FastifyBaseLogger;
};
const open = (opts: Options = {}) => {
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
const familyOf = (token: string) => decodeJwt(token).sid as string;
/** With the clock at `last`, the watch's checks keep one entry of `kind`; a millisecond later they drop it. */
async function keptUntil(w: SignInWatch, kind: "ended" | "verified" | "trusted", last: number) {
  clock = last;
  await checksRun();
  expect(w.held()[kind]).toBe(1);
  clock += 1;
  await checksRun();
  expect(w.held()[kind]).toBe(0);
}
/** A logger whose lines the test reads. */
const capturedLog = () => {
  const lines: { msg: string; err?: string }[] = [];
  return { lines, logger: pino({ level: "info" }, { write: (line: string) => lines.push(JSON.parse(line)) }) };
};

describe("what the sign-in watch forgets, and when", () => {
  it("is bounded as docs/architecture.md says, with the longest delay setTimeout takes", () => {
    expect(SIGN_IN_WATCH_LIMITS).toEqual({ keptTokens: 10_000, trustedSignIns: 100_000, maxTimerMs: 2_147_483_647 });
  });

  it("forgets a sign-in heard of as ended a token's lifetime after its end, not a moment before", async () => {
    const w = open();
    const s = await signInShopper(ctx.app);
    const endedAt = clock;
    w.ended(familyOf(s.accessToken));
    await keptUntil(w, "ended", endedAt + ACCESS_TOKEN_TTL_SECONDS * 1000);
    // By then every token of that sign-in has expired by itself.
    expect(await w.customerOf(s.accessToken)).toBeNull();
  });

  it("forgets a verified token when it expires, not a moment before", async () => {
    const w = open();
    const s = await signInShopper(ctx.app);
    expect(await w.customerOf(s.accessToken)).toBe(s.customerId);
    await keptUntil(w, "verified", expiryOf(s.accessToken) - 1);
  });

  it("forgets a trusted sign-in when its window closes, not a moment before", async () => {
    const w = open({ trustMs: 5_000 });
    const s = await signInShopper(ctx.app);
    const asked = clock;
    expect(await w.customerOf(s.accessToken)).toBe(s.customerId);
    await keptUntil(w, "trusted", asked + 4_999);
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

describe("the edges of a token's lifetime and a trust window", () => {
  it("takes a token as valid until the millisecond of its expiry, and no longer", async () => {
    const w = open();
    const s = await signInShopper(ctx.app);
    clock = expiryOf(s.accessToken) - 1;
    expect(await w.customerOf(s.accessToken)).toBe(s.customerId);
    clock += 1;
    expect(await w.customerOf(s.accessToken)).toBeNull();
    expect(await w.admit(s.accessToken, () => {})).toBeNull();
  });

  it("refuses a connection whose token expired while the database was being asked", async () => {
    const s = await signInShopper(ctx.app);
    const expiry = expiryOf(s.accessToken);
    // The token is read a moment before its expiry; every later look at the clock is at it.
    let looks = 0;
    const w = open({ now: () => (looks++ === 0 ? expiry - 1 : expiry) });
    const onEnd = vi.fn();
    expect(await w.admit(s.accessToken, onEnd)).toBeNull();
    expect(looks).toBe(2);
    expect(w.held()).toMatchObject({ signIns: 0, watched: 0 });
    expect(onEnd).not.toHaveBeenCalled();
  });

  it("trusts a sign-in until its window closes, and asks the database from that millisecond", async () => {
    const w = open({ trustMs: 5_000 });
    const s = await signInShopper(ctx.app);
    const asked = clock;
    expect(await w.customerOf(s.accessToken)).toBe(s.customerId);
    await revokeUnannounced(ctx.app, s.accessToken);
    clock = asked + 4_999;
    expect(await w.customerOf(s.accessToken)).toBe(s.customerId);
    clock += 1;
    expect(await w.customerOf(s.accessToken)).toBeNull();
  });

  it("counts a sign-in asked again as the newest trusted: past the bound, the oldest other is let go", async () => {
    const w = open({ trustMs: 5_000, limits: { trustedSignIns: 3 } });
    const [a, x, c, d] = [
      await signInShopper(ctx.app),
      await signInShopper(ctx.app),
      await signInShopper(ctx.app),
      await signInShopper(ctx.app),
    ];
    const start = clock;
    expect(await w.customerOf(a!.accessToken)).toBe(a!.customerId);
    clock = start + 1;
    expect(await w.customerOf(x!.accessToken)).toBe(x!.customerId);
    // a's window is over, x's is not: a is asked again and becomes the newest, so x is the oldest.
    clock = start + 5_000;
    expect(await w.customerOf(a!.accessToken)).toBe(a!.customerId);
    expect(await w.customerOf(c!.accessToken)).toBe(c!.customerId);
    expect(await w.customerOf(d!.accessToken)).toBe(d!.customerId);
    for (const s of [a!, x!]) await revokeUnannounced(ctx.app, s.accessToken);
    expect(await w.customerOf(x!.accessToken)).toBeNull();
    expect(await w.customerOf(a!.accessToken)).toBe(a!.customerId);
  });
});

describe("letting go of what no longer matters", () => {
  it("tells a connection of an ended sign-in once: its expiry no longer fires", async () => {
    const w = open({ limits: { maxTimerMs: RECHECK_MS } });
    const s = await signInShopper(ctx.app);
    const onEnd = vi.fn();
    await w.admit(s.accessToken, onEnd);
    expect(await w.customerOf(s.accessToken)).toBe(s.customerId);
    w.ended(familyOf(s.accessToken));
    expect(onEnd).toHaveBeenCalledWith("signed_out");
    expect(w.held()).toMatchObject({ signIns: 0, watched: 0, ended: 1, trusted: 0 });
    clock = expiryOf(s.accessToken);
    await checksRun();
    expect(onEnd).toHaveBeenCalledTimes(1);
  });

  it("tells no connection that stopped watching, and forgets its sign-in with its last connection", async () => {
    const w = open({ limits: { maxTimerMs: RECHECK_MS } });
    const s = await signInShopper(ctx.app);
    const onEnd = vi.fn();
    const first = await w.admit(s.accessToken, onEnd);
    const second = await w.admit(s.accessToken, onEnd);
    expect(w.held()).toMatchObject({ signIns: 1, watched: 2 });
    first?.stop();
    expect(w.held()).toMatchObject({ signIns: 1, watched: 1 });
    second?.stop();
    expect(w.held()).toMatchObject({ signIns: 0, watched: 0 });
    clock = expiryOf(s.accessToken);
    await checksRun();
    expect(onEnd).not.toHaveBeenCalled();
  });

  it("tells the other connections when closing one fails, and logs the failure", async () => {
    const { lines, logger } = capturedLog();
    const w = open({ logger });
    const s = await signInShopper(ctx.app);
    const told = vi.fn();
    await w.admit(s.accessToken, () => {
      throw new Error("the socket was gone");
    });
    await w.admit(s.accessToken, told);
    w.ended(familyOf(s.accessToken));
    expect(told).toHaveBeenCalledWith("signed_out");
    expect(lines).toMatchObject([
      { msg: "closing a connection of an ended sign-in failed", err: "the socket was gone" },
    ]);
    // An end of a sign-in nobody watches tells no one and logs nothing.
    w.ended("a-sign-in-never-seen");
    expect(lines).toHaveLength(1);
  });

  it("takes only a sign-in's id from the bus: other messages end nothing", async () => {
    const w = open();
    for (const message of [{}, { family_id: 5 }, null, "x"]) await ctx.app.bus.publish(SIGN_IN_ENDED_TOPIC, message);
    const s = await signInShopper(ctx.app);
    await ctx.app.bus.publish(SIGN_IN_ENDED_TOPIC, { family_id: familyOf(s.accessToken) });
    // Heard in order: once the sign-in's end is heard, every message before it has been too.
    await vi.waitFor(async () => expect(await w.customerOf(s.accessToken)).toBeNull());
    expect(w.held().ended).toBe(1);
  });

  it("keeps its connections when the database cannot be asked, says so, and asks again at the next check", async () => {
    const { lines, logger } = capturedLog();
    let failing = false;
    // The recheck's question fails while `failing`; every other call goes to the database as it is.
    const db = new Proxy(ctx.app.db, {
      get(target, key, receiver) {
        if (key === "selectDistinct" && failing) throw new Error("the database is away");
        return Reflect.get(target, key, receiver);
      },
    });
    clock = Date.now();
    watch = watchSignIns({ db, bus: ctx.app.bus, jwtKey: ctx.app.shopperKeys.jwt, logger, recheckMs: RECHECK_MS });
    const s = await signInShopper(ctx.app);
    const onEnd = vi.fn();
    await watch.admit(s.accessToken, onEnd);
    failing = true;
    await revokeUnannounced(ctx.app, s.accessToken);
    await vi.waitFor(() => expect(lines.length).toBeGreaterThan(0));
    expect(lines[0]).toMatchObject({ msg: "sign-ins of held connections not checked", err: "the database is away" });
    expect(onEnd).not.toHaveBeenCalled();
    failing = false;
    await vi.waitFor(() => expect(onEnd).toHaveBeenCalledWith("signed_out"));
  });

  it("stops hearing the bus and checking when it closes", async () => {
    const w = open();
    const s = await signInShopper(ctx.app);
    expect(await w.customerOf(s.accessToken)).toBe(s.customerId);
    w.close();
    await ctx.app.bus.publish(SIGN_IN_ENDED_TOPIC, { family_id: familyOf(s.accessToken) });
    clock = expiryOf(s.accessToken);
    await checksRun();
    // Nothing heard and nothing cleaned: its checks no longer run.
    expect(w.held()).toMatchObject({ ended: 0, verified: 1 });
  });
});
