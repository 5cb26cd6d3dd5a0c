import { decodeJwt } from "jose";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  createTestContext,
  revokeUnannounced as revokeHere,
  signInShopper,
  TEST_DATABASE_URL,
  type TestContext,
  waitingForLocks,
} from "../../test/harness.ts";
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

const open = (recheckMs?: number, trustMs?: number) => {
  watch = watchSignIns({
    db: ctx.app.db,
    bus: ctx.app.bus,
    jwtKey: ctx.app.shopperKeys.jwt,
    logger: ctx.app.log,
    ...(recheckMs ? { recheckMs } : {}),
    ...(trustMs ? { trustMs } : {}),
  });
  return watch;
};

const revokeUnannounced = (accessToken: string) => revokeHere(ctx.app, accessToken);

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
    await revokeUnannounced(s.accessToken);
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

describe("a request's check of the sign-in", () => {
  it("asks the database once per trust window: an end it missed is refused when the window is over", async () => {
    const w = open(undefined, 400);
    const s = await signInShopper(ctx.app);
    const other = await signInShopper(ctx.app);
    expect(await w.customerOf(s.accessToken)).toBe(s.customerId);
    expect(await w.customerOf(other.accessToken)).toBe(other.customerId);
    const trustedAt = Date.now();
    await revokeUnannounced(s.accessToken);
    // Within the window the database is not asked: the missed end is not seen yet.
    expect(await w.customerOf(s.accessToken)).toBe(s.customerId);
    expect(Date.now() - trustedAt).toBeLessThan(400);
    await new Promise((resolve) => setTimeout(resolve, 450 - (Date.now() - trustedAt)));
    expect(await w.customerOf(s.accessToken)).toBeNull();
    expect(await w.customerOf(s.accessToken)).toBeNull();
    // The other sign-in is asked again too, and is still live.
    expect(await w.customerOf(other.accessToken)).toBe(other.customerId);
  });

  it("refuses a trusted sign-in at once when this instance ends it or hears of its end, and no other", async () => {
    const w = open();
    const mine = await signInShopper(ctx.app);
    const heard = await signInShopper(ctx.app);
    const other = await signInShopper(ctx.app);
    for (const s of [mine, heard, other]) expect(await w.customerOf(s.accessToken)).toBe(s.customerId);
    w.ended(decodeJwt(mine.accessToken).sid as string);
    expect(await w.customerOf(mine.accessToken)).toBeNull();
    await ctx.app.bus.publish(SIGN_IN_ENDED_TOPIC, { family_id: decodeJwt(heard.accessToken).sid });
    await vi.waitFor(async () => expect(await w.customerOf(heard.accessToken)).toBeNull());
    // The database still calls both live: the refusals came from what this instance knows.
    expect(await w.customerOf(other.accessToken)).toBe(other.customerId);
  });

  it("refuses a forged, an expired or a malformed token, and a token whose sign-in ended before it was seen", async () => {
    const w = open();
    const s = await signInShopper(ctx.app);
    expect(await w.customerOf(`${s.accessToken}x`)).toBeNull();
    expect(await w.customerOf("not-a-token")).toBeNull();
    await revokeUnannounced(s.accessToken);
    expect(await w.customerOf(s.accessToken)).toBeNull();
  });
});

describe.skipIf(!TEST_DATABASE_URL)("an end heard while the database is being asked (PostgreSQL)", () => {
  /** Runs `during` while the sign-ins' table is locked, so every question about a sign-in waits until it returns. */
  async function withSignInsHeld(during: () => Promise<void>) {
    const other = new pg.Client({ connectionString: ctx.databaseUrl });
    await other.connect();
    try {
      await other.query("begin");
      await other.query("lock table shopper_refresh_tokens in access exclusive mode");
      await during();
      await other.query("commit");
    } finally {
      await other.end();
    }
  }
  const familyOf = (token: string) => decodeJwt(token).sid as string;

  it("wins over the database's answer, for a request and for a held connection", async () => {
    const w = open();
    const s = await signInShopper(ctx.app);
    const onEnd = vi.fn();
    let request: Promise<string | null> | undefined;
    let connection: Promise<unknown> | undefined;
    await withSignInsHeld(async () => {
      request = w.customerOf(s.accessToken);
      connection = w.admit(s.accessToken, onEnd);
      // Both wait on one question: the same sign-in is asked once however many ask at once.
      await waitingForLocks(ctx.app.db, 1, "shopper_refresh_tokens");
      w.ended(familyOf(s.accessToken));
    });
    // The database, asked before the end, still called the sign-in live.
    expect(await request).toBeNull();
    expect(await connection).toBeNull();
    expect(onEnd).not.toHaveBeenCalled();
    // The end is remembered: the token is refused without asking again.
    expect(await w.customerOf(s.accessToken)).toBeNull();
  });

  it("asks once for many connections opened at once with one token, and admits them all", async () => {
    const w = open();
    const s = await signInShopper(ctx.app);
    const other = await signInShopper(ctx.app);
    let admitted: Promise<unknown>[] = [];
    await withSignInsHeld(async () => {
      admitted = [
        ...Array.from({ length: 5 }, () => w.admit(s.accessToken, () => {})),
        w.admit(other.accessToken, () => {}),
      ];
      // One question per sign-in, not one per connection.
      await waitingForLocks(ctx.app.db, 2, "shopper_refresh_tokens");
    });
    const answers = (await Promise.all(admitted)) as ({ customerId: string } | null)[];
    expect(answers.map((a) => a?.customerId)).toEqual([...Array(5).fill(s.customerId), other.customerId]);
  });
});
