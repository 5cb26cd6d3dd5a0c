import { type EntrySession, entryResponseSchema } from "@glide/contracts";
import { sql } from "drizzle-orm";
import { decodeJwt, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/client.ts";
import { as, createDeviceKey, createTestContext, signIn, signInShopper, type TestContext } from "../../test/harness.ts";
import type { SessionChange } from "./session-events.ts";
import { cancelEntrySession, createEntrySession, scanAtDoor } from "./sessions.service.ts";

let ctx: TestContext;
let storeA: string;
let storeB: string;
let keyA: string;
let keyB: string;

beforeAll(async () => {
  ctx = await createTestContext();
  const admin = as(ctx.app, (await signIn(ctx.app)).cookie);
  storeA = (await admin.post("/api/v1/stores/", { name: "Butik A" })).json().id;
  storeB = (await admin.post("/api/v1/stores/", { name: "Butik B" })).json().id;
  keyA = (await createDeviceKey(ctx.app, storeA)).key;
  keyB = (await createDeviceKey(ctx.app, storeB)).key;
});
afterAll(() => ctx.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const createEntry = (token: string, storeId = storeA) =>
  ctx.app.inject({
    method: "POST",
    url: "/api/v1/sessions/entry",
    headers: bearer(token),
    payload: { store_id: storeId },
  });
async function entry(token: string, storeId = storeA): Promise<EntrySession> {
  const res = await createEntry(token, storeId);
  expect(res.statusCode, res.body).toBe(200);
  return entryResponseSchema.parse(res.json());
}
const scan = (e: EntrySession) =>
  ctx.app.inject({
    method: "POST",
    url: "/api/v1/sessions/door/scan",
    headers: { authorization: `Device ${e.store_id === storeA ? keyA : keyB}` },
    payload: { session_id: e.session_id, session_token: e.session_token, store_id: e.store_id },
  });
const cancel = (sessionId: string, token: string) =>
  ctx.app.inject({ method: "DELETE", url: `/api/v1/sessions/entry/${sessionId}`, headers: bearer(token) });
const invalid = { detail: "Ogiltig QR-kod.", code: "invalid_token" };

describe("an older entry code", () => {
  it("stops opening the door when a newer one is issued, in this store and any other", async () => {
    const s = await signInShopper(ctx.app);
    const here = await entry(s.accessToken, storeA);
    const there = await entry(s.accessToken, storeB);
    const newest = await entry(s.accessToken, storeA);
    expect((await scan(here)).json()).toEqual(invalid);
    expect((await scan(there)).statusCode).toBe(403);
    expect((await scan(newest)).statusCode).toBe(200);
  });

  it("of another shopper, or one that already opened the door, is left alone", async () => {
    const anna = await signInShopper(ctx.app, "Anna");
    const bo = await signInShopper(ctx.app, "Bo");
    const inside = await entry(anna.accessToken);
    expect((await scan(inside)).statusCode).toBe(200);
    const annasNext = await entry(anna.accessToken);
    await entry(bo.accessToken);
    expect((await scan(annasNext)).statusCode).toBe(200);
    const [row] = await queryRows<{ door_opened_at: string | null; entry_revoked_at: string | null }>(
      ctx.app.db,
      sql`select door_opened_at, entry_revoked_at from shopping_sessions where id = ${inside.session_id}`,
    );
    expect(row).toMatchObject({ entry_revoked_at: null });
    expect(row!.door_opened_at).not.toBeNull();
  });

  it("never opens the door once revoked, however the scan and the new code race", async () => {
    for (let round = 0; round < 8; round++) {
      const s = await signInShopper(ctx.app);
      const old = await entry(s.accessToken);
      const [scanned, issued] = await Promise.all([scan(old), createEntry(s.accessToken)]);
      expect(issued.statusCode).toBe(200);
      expect([200, 403]).toContain(scanned.statusCode);
      const [row] = await queryRows<{ opened: boolean; revoked: boolean; events: number }>(
        ctx.app.db,
        sql`select door_opened_at is not null as opened, entry_revoked_at is not null as revoked,
              (select count(*)::int from door_events where session_id = ${old.session_id}) as events
            from shopping_sessions where id = ${old.session_id}`,
      );
      // Exactly one of the two won: opened and never revoked, or revoked and never opened.
      expect(row).toEqual(
        scanned.statusCode === 200
          ? { opened: true, revoked: false, events: 1 }
          : { opened: false, revoked: true, events: 0 },
      );
    }
  });
});

describe("cancelling an entry code", () => {
  it("stops it opening the door, and may be repeated", async () => {
    const s = await signInShopper(ctx.app);
    const e = await entry(s.accessToken);
    expect((await cancel(e.session_id, s.accessToken)).statusCode).toBe(204);
    expect((await cancel(e.session_id, s.accessToken)).statusCode).toBe(204);
    const res = await scan(e);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(invalid);
    // The shopper's other, newer code is not touched by cancelling this one.
    const next = await entry(s.accessToken);
    expect((await cancel(e.session_id, s.accessToken)).statusCode).toBe(204);
    expect((await scan(next)).statusCode).toBe(200);
  });

  it("is for the code's own shopper only, and not after the door opened", async () => {
    const owner = await signInShopper(ctx.app);
    const stranger = await signInShopper(ctx.app);
    const e = await entry(owner.accessToken);
    const theirs = await cancel(e.session_id, stranger.accessToken);
    expect(theirs.statusCode).toBe(403);
    expect(theirs.json()).toEqual({ detail: "Det här är inte din session.", code: "forbidden" });
    expect((await ctx.app.inject({ method: "DELETE", url: `/api/v1/sessions/entry/${e.session_id}` })).statusCode).toBe(
      401,
    );
    expect((await cancel("00000000-0000-4000-8000-000000000000", owner.accessToken)).json().code).toBe(
      "unknown_session",
    );
    expect((await cancel("nope", owner.accessToken)).statusCode).toBe(400);

    expect((await scan(e)).statusCode).toBe(200);
    const late = await cancel(e.session_id, owner.accessToken);
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe("door_opened");
  });
});

describe("a shopper token that should no longer count", () => {
  it("answers 401 in Swedish when the customer is gone, not 500", async () => {
    const s = await signInShopper(ctx.app);
    await ctx.app.db.execute(sql`delete from customers where id = ${s.customerId}`);
    const res = await createEntry(s.accessToken);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ detail: "Logga in med BankID först.", code: "unauthorized" });
  });

  it("is refused without exp, and accepted with it", async () => {
    const s = await signInShopper(ctx.app);
    const { sid } = decodeJwt(s.accessToken);
    const forge = (exp: boolean) => {
      const jwt = new SignJWT({ sid })
        .setProtectedHeader({ alg: "HS256" })
        .setSubject(s.customerId)
        .setIssuer("glide")
        .setAudience("shopper")
        .setIssuedAt();
      return (exp ? jwt.setExpirationTime("1m") : jwt).sign(ctx.app.shopperKeys.jwt);
    };
    expect((await createEntry(await forge(false))).statusCode).toBe(401);
    expect((await createEntry(await forge(true))).statusCode).toBe(200);
  });

  it("ends at sign-out", async () => {
    const s = await signInShopper(ctx.app);
    await entry(s.accessToken);
    const out = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/auth/logout",
      payload: { refresh_token: s.refreshToken },
    });
    expect(out.statusCode).toBe(204);
    expect((await createEntry(s.accessToken)).statusCode).toBe(401);
  });
});

describe("what the Sessions screen is told, and the answers of the use cases", () => {
  /** An announcer that only remembers what it was told. */
  const recorder = () => {
    const told: SessionChange[] = [];
    return { told, announce: async (change: SessionChange) => void told.push(change) };
  };

  it("a new code announces the codes it replaced (in their own stores) and then itself", async () => {
    const s = await signInShopper(ctx.app);
    const here = await entry(s.accessToken, storeA);
    const there = await entry(s.accessToken, storeB);
    const { told, announce } = recorder();
    const made = await createEntrySession({
      db: ctx.app.db,
      customerId: s.customerId,
      storeId: storeA,
      ttlSeconds: 60,
      announce,
    });
    expect(told).toEqual([
      { store_id: storeB, session_id: there.session_id, kind: "entry_revoked" },
      { store_id: storeA, session_id: made.session_id, kind: "entry_issued" },
    ]);
    expect(told.some((c) => c.session_id === here.session_id)).toBe(false);
  });

  it("answers 401 when the shopper no longer exists, and names an unknown store", async () => {
    await expect(
      createEntrySession({
        db: ctx.app.db,
        customerId: "00000000-0000-4000-8000-00000000dead",
        storeId: storeA,
        ttlSeconds: 60,
      }),
    ).rejects.toMatchObject({ status: 401, code: "unauthorized", message: "Logga in med BankID först." });
    const s = await signInShopper(ctx.app);
    const res = await createEntry(s.accessToken, "00000000-0000-4000-8000-000000000000");
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: "Butiken finns inte.", code: "unknown_store" });
  });

  it("passes on an error that is not a vanished shopper as it is", async () => {
    const s = await signInShopper(ctx.app);
    const announce = async () => {
      throw new Error("bus down");
    };
    await expect(
      createEntrySession({ db: ctx.app.db, customerId: s.customerId, storeId: storeA, ttlSeconds: 60, announce }),
    ).rejects.toThrow(/^bus down$/);
  });

  it("a cancel is announced once, however often it is repeated", async () => {
    const s = await signInShopper(ctx.app);
    const e = await entry(s.accessToken, storeB);
    const { told, announce } = recorder();
    await cancelEntrySession({ db: ctx.app.db, customerId: s.customerId, sessionId: e.session_id, announce });
    await cancelEntrySession({ db: ctx.app.db, customerId: s.customerId, sessionId: e.session_id, announce });
    expect(told).toEqual([{ store_id: storeB, session_id: e.session_id, kind: "entry_revoked" }]);
  });

  it("an opened door is announced for its store", async () => {
    const s = await signInShopper(ctx.app);
    const e = await entry(s.accessToken, storeB);
    const { told, announce } = recorder();
    const opened = await scanAtDoor({
      db: ctx.app.db,
      door: ctx.app.door,
      caller: { kind: "device", key: keyB },
      sessionId: e.session_id,
      sessionToken: e.session_token,
      storeId: storeB,
      announce,
    });
    expect(opened).toEqual({ door_opened: true, session_id: e.session_id });
    expect(told).toEqual([{ store_id: storeB, session_id: e.session_id, kind: "door_opened" }]);
  });

  it("says in words why a cancel or a scan is refused", async () => {
    const s = await signInShopper(ctx.app);
    expect((await cancel("00000000-0000-4000-8000-000000000000", s.accessToken)).json()).toEqual({
      detail: "Sessionen finns inte.",
      code: "unknown_session",
    });
    const e = await entry(s.accessToken);
    expect((await scan(e)).statusCode).toBe(200);
    expect((await cancel(e.session_id, s.accessToken)).json()).toEqual({
      detail: "Dörren har redan öppnats för det här besöket.",
      code: "door_opened",
    });
    const unknown = await scan({ ...e, session_id: "00000000-0000-4000-8000-000000000000" });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ detail: "Okänd QR-kod.", code: "unknown_session" });
  });
});
