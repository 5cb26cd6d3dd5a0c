import { createHmac } from "node:crypto";
import http from "node:http";
import { decodeEntryQr, type EntrySession, encodeEntryQr, entryResponseSchema } from "@glide/contracts";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { queryRows } from "../../db/client.ts";
import { customers, shoppingSessions } from "../../db/schema/index.ts";
import { as, createTestContext, signIn, signInShopper, type TestContext } from "../../test/harness.ts";
import { issueTokens } from "../shopper-auth/shopper-tokens.ts";

let ctx: TestContext;
let admin: ReturnType<typeof as>;
let storeA: string;
let storeB: string;
let keyA: string;
let keyB: string;

const inject = (
  app: TestContext["app"],
  method: "GET" | "POST",
  url: string,
  headers: Record<string, string>,
  payload?: object,
) => app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

async function shopper(app = ctx.app): Promise<string> {
  const res = await app.inject({ method: "POST", url: "/api/v1/auth/dev-login" });
  return res.json().access_token;
}
async function entry(token: string, storeId = storeA, app = ctx.app): Promise<EntrySession> {
  const res = await inject(
    app,
    "POST",
    "/api/v1/sessions/entry",
    { authorization: `Bearer ${token}` },
    { store_id: storeId },
  );
  expect(res.statusCode, res.body).toBe(200);
  return entryResponseSchema.parse(res.json());
}
const scan = (e: EntrySession, authorization: string, overrides: object = {}, app = ctx.app) =>
  inject(
    app,
    "POST",
    "/api/v1/sessions/door/scan",
    { authorization },
    {
      session_id: e.session_id,
      session_token: e.session_token,
      store_id: e.store_id,
      ...overrides,
    },
  );
const status = (sessionId: string, token: string) =>
  inject(ctx.app, "GET", `/api/v1/sessions/${sessionId}/door-status`, { authorization: `Bearer ${token}` });

beforeAll(async () => {
  ctx = await createTestContext({ DEV_TOOLS: "true", ENTRY_TOKEN_TTL_SECONDS: "600" });
  admin = as(ctx.app, (await signIn(ctx.app)).cookie);
  storeA = (await admin.post("/api/v1/stores/", { name: "Butik A", address: "Storgatan 1", city: "Lund" })).json().id;
  storeB = (await admin.post("/api/v1/stores/", { name: "Butik B" })).json().id;
  keyA = (await admin.post(`/api/v1/stores/${storeA}/device-keys`, { kind: "door_scanner", label: "Entré" })).json()
    .key;
  keyB = (await admin.post(`/api/v1/stores/${storeB}/device-keys`, { kind: "door_scanner" })).json().key;
});
afterAll(() => ctx.close());

describe("entry sessions", () => {
  it("gives a signed-in shopper a one-time entry token for an active store", async () => {
    const e = await entry(await shopper());
    expect(e.store_id).toBe(storeA);
    expect(e.session_token.length).toBeGreaterThanOrEqual(32);
    const seconds = (Date.parse(e.expires_at) - Date.now()) / 1000;
    expect(seconds).toBeGreaterThan(590);
    expect(seconds).toBeLessThanOrEqual(600);
    const stored = await ctx.app.db.execute(
      sql`select entry_token_hash from shopping_sessions where id = ${e.session_id}`,
    );
    expect(JSON.stringify(stored)).not.toContain(e.session_token);
  });

  it("refuses an inactive store, an unknown store and a malformed id", async () => {
    const token = await shopper();
    await admin.put(`/api/v1/stores/${storeB}`, { is_active: false });
    try {
      const closed = await inject(
        ctx.app,
        "POST",
        "/api/v1/sessions/entry",
        { authorization: `Bearer ${token}` },
        { store_id: storeB },
      );
      expect(closed.statusCode).toBe(409);
      expect(closed.json()).toEqual({ detail: "Butiken är stängd just nu.", code: "store_inactive" });
    } finally {
      await admin.put(`/api/v1/stores/${storeB}`, { is_active: true });
    }
    const unknown = await inject(
      ctx.app,
      "POST",
      "/api/v1/sessions/entry",
      { authorization: `Bearer ${token}` },
      {
        store_id: "00000000-0000-4000-8000-000000000000",
      },
    );
    expect(unknown.statusCode).toBe(404);
    const bad = await inject(
      ctx.app,
      "POST",
      "/api/v1/sessions/entry",
      { authorization: `Bearer ${token}` },
      { store_id: "demo" },
    );
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail).toContain("store_id");
  });

  it("needs a valid access token", async () => {
    for (const authorization of ["", "Bearer nonsense", `Bearer ${(await shopper()).slice(0, -2)}xx`]) {
      const res = await inject(ctx.app, "POST", "/api/v1/sessions/entry", { authorization }, { store_id: storeA });
      expect(res.statusCode).toBe(401);
    }
  });

  it("puts the session, token and store in the QR code and nothing personal", () => {
    const e = {
      session_id: "5f1e0c2a-3b4d-4e5f-8a9b-0c1d2e3f4a5b",
      session_token: "abcdefghijklmnopqrstuvwx",
      store_id: "0e1f2a3b-4c5d-4e6f-9a0b-1c2d3e4f5a6b",
    };
    const text = encodeEntryQr(e);
    expect(text).toBe(`GLIDE1.${e.session_id}.${e.session_token}.${e.store_id}`);
    expect(decodeEntryQr(text)).toEqual(e);
    expect(decodeEntryQr("GLIDE1.x.y.z")).toBeNull();
  });
});

describe("the door", () => {
  it("opens once for a valid token from the store's own scanner, and the shopper sees it", async () => {
    const token = await shopper();
    const e = await entry(token);
    expect((await status(e.session_id, token)).json()).toEqual({ door_opened: false });
    const res = await scan(e, `Device ${keyA}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ door_opened: true, session_id: e.session_id });
    expect((await status(e.session_id, token)).json()).toEqual({ door_opened: true });

    const reused = await scan(e, `Device ${keyA}`);
    expect(reused.statusCode).toBe(409);
    expect(reused.json()).toEqual({ detail: "QR-koden är redan använd.", code: "token_used" });
  });

  it("refuses an expired token", async () => {
    const e = await entry(await shopper());
    await ctx.app.db.execute(
      sql`update shopping_sessions set entry_expires_at = now() - interval '1 second' where id = ${e.session_id}`,
    );
    const res = await scan(e, `Device ${keyA}`);
    expect(res.statusCode).toBe(410);
    expect(res.json()).toEqual({ detail: "QR-koden har gått ut. Vänligen börja om.", code: "token_expired" });
  });

  it("still opens at the very millisecond the token expires", async () => {
    const e = await entry(await shopper());
    const expiry = Date.now() + 60_000;
    await ctx.app.db
      .update(shoppingSessions)
      .set({ entryExpiresAt: new Date(expiry) })
      .where(eq(shoppingSessions.id, e.session_id));
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(expiry);
      expect((await scan(e, `Device ${keyA}`)).statusCode).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  it("refuses a token for another store, a key of another store, and a wrong token", async () => {
    const e = await entry(await shopper(), storeA);
    // Store B's scanner reads a code made for store A.
    const elsewhere = await scan(e, `Device ${keyB}`, { store_id: storeB });
    expect(elsewhere.statusCode).toBe(403);
    expect(elsewhere.json()).toEqual({ detail: "QR-koden gäller en annan butik.", code: "wrong_store" });
    expect((await scan(e, `Device ${keyB}`)).json().code).toBe("wrong_store");
    const forged = await scan(e, `Device ${keyA}`, { session_token: "x".repeat(32) });
    expect(forged.statusCode).toBe(403);
    expect(forged.json().code).toBe("invalid_token");
    // None of that used the token up.
    expect((await scan(e, `Device ${keyA}`)).statusCode).toBe(200);
  });

  it("needs a device key it knows", async () => {
    const e = await entry(await shopper());
    expect((await scan(e, "")).statusCode).toBe(401);
    expect((await scan(e, "Device gd_made_up")).json().code).toBe("invalid_device_key");
    const revoked = (await admin.post(`/api/v1/stores/${storeA}/device-keys`, { kind: "door_scanner" })).json();
    expect((await admin.delete(`/api/v1/stores/${storeA}/device-keys/${revoked.id}`)).statusCode).toBe(204);
    expect((await scan(e, `Device ${revoked.key}`)).statusCode).toBe(401);
  });

  it("lets the shopper's test button open the door only with DEV_TOOLS, and only for their own session", async () => {
    const token = await shopper();
    const e = await entry(token);
    const other = await createTestContext();
    try {
      // Without DEV_TOOLS a shopper's token is no key to the door.
      const res = await scan(e, `Bearer ${token}`, {}, other.app);
      expect(res.statusCode).toBe(401);
    } finally {
      await other.close();
    }
    // Another shopper's own valid token does not open this shopper's door.
    const stranger = await signInShopper(ctx.app, "Främling");
    const theirs = await scan(e, `Bearer ${stranger.accessToken}`);
    expect(theirs.statusCode).toBe(403);
    expect(theirs.json()).toEqual({ detail: "Det här är inte din session.", code: "forbidden" });
    expect((await scan(e, `Bearer ${token}`)).json()).toEqual({ door_opened: true, session_id: e.session_id });
  });

  it("tells only the session's shopper whether the door opened", async () => {
    const e = await entry(await shopper());
    const [annan] = await ctx.app.db
      .insert(customers)
      .values({ personalNumberHash: "other", personalNumberSealed: "other", name: "Annan", birthDate: "1990-01-01" })
      .returning();
    const other = await issueTokens(ctx.app.db, ctx.app.shopperKeys.jwt, annan!);
    const res = await status(e.session_id, other.access_token);
    expect(res.statusCode).toBe(403);
    expect((await status("00000000-0000-4000-8000-000000000000", other.access_token)).statusCode).toBe(404);
    expect((await inject(ctx.app, "GET", `/api/v1/sessions/${e.session_id}/door-status`, {})).statusCode).toBe(401);
  });
});

describe("what the door tells", () => {
  it("names in words an unknown key and another store's scanner, and keeps a record of who opened it", async () => {
    const token = await shopper();
    const e = await entry(token);
    expect((await scan(e, "Device gd_made_up")).json()).toEqual({
      detail: "Unknown device key",
      code: "invalid_device_key",
    });
    expect((await scan(e, `Device ${keyB}`)).json()).toEqual({
      detail: "This scanner belongs to another store",
      code: "wrong_store",
    });
    expect((await scan(e, `Device ${keyA}`)).statusCode).toBe(200);
    const button = await entry(token);
    expect((await scan(button, `Bearer ${token}`)).statusCode).toBe(200);
    const rows = await queryRows<{ session_id: string; via: string }>(
      ctx.app.db,
      sql`select session_id, via from door_events where session_id in (${e.session_id}, ${button.session_id})`,
    );
    expect(Object.fromEntries(rows.map((r) => [r.session_id, r.via]))).toEqual({
      [e.session_id]: "device",
      [button.session_id]: "shopper",
    });
  });

  it("tells a stranger and an unknown visit apart in words", async () => {
    const e = await entry(await shopper());
    const stranger = await signInShopper(ctx.app, "Främling");
    expect((await status(e.session_id, stranger.accessToken)).json()).toEqual({
      detail: "Det här är inte din session.",
      code: "forbidden",
    });
    expect((await status("00000000-0000-4000-8000-000000000000", stranger.accessToken)).json()).toEqual({
      detail: "Sessionen finns inte.",
      code: "unknown_session",
    });
  });
});

describe("a door controller reached by webhook", () => {
  it("gets a signed door.open, and a failing controller leaves the door shut and the token unused", async () => {
    const received: { body: string; signature: string }[] = [];
    let answer = 200;
    const controller = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c) => {
        body += c;
      });
      req.on("end", () => {
        received.push({ body, signature: String(req.headers["x-glide-signature"]) });
        res.writeHead(answer).end();
      });
    });
    await new Promise<void>((r) => controller.listen(0, "127.0.0.1", r));
    const port = (controller.address() as { port: number }).port;
    const secret = "door-webhook-secret-123";
    const hooked = await createTestContext({
      DEV_TOOLS: "true",
      DOOR_WEBHOOK_URL: `http://127.0.0.1:${port}/open`,
      DOOR_WEBHOOK_SECRET: secret,
    });
    try {
      const a = as(hooked.app, (await signIn(hooked.app)).cookie);
      const store = (await a.post("/api/v1/stores/", { name: "Webhook" })).json().id;
      const key = (await a.post(`/api/v1/stores/${store}/device-keys`, { kind: "door_scanner" })).json().key;
      const token = await shopper(hooked.app);
      const e = await entry(token, store, hooked.app);

      answer = 500;
      const failed = await scan(e, `Device ${key}`, {}, hooked.app);
      expect(failed.statusCode).toBe(502);
      expect(failed.json().code).toBe("door_unavailable");
      expect(failed.json().detail).toMatch(/^Kunde inte öppna dörren\. Försök igen\. \(.+\)$/);

      answer = 200;
      expect((await scan(e, `Device ${key}`, {}, hooked.app)).statusCode).toBe(200);
      expect(received).toHaveLength(2);
      const last = received[1]!;
      expect(JSON.parse(last.body)).toMatchObject({ event: "door.open", store_id: store, session_id: e.session_id });
      expect(last.signature).toBe(`sha256=${createHmac("sha256", secret).update(last.body).digest("hex")}`);
    } finally {
      await hooked.close();
      controller.close();
    }
  });
});

describe("device keys", () => {
  it("are shown once, listed without the key, and managed by platform admins only", async () => {
    const list = await admin.get(`/api/v1/stores/${storeA}/device-keys`);
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(keyA);
    expect(list.json()[0]).toMatchObject({ kind: "door_scanner", store_id: storeA });
    const storeAdmin = as(ctx.app, (await signIn(ctx.app, "store_admin", [storeA])).cookie);
    expect((await storeAdmin.post(`/api/v1/stores/${storeA}/device-keys`, { kind: "door_scanner" })).statusCode).toBe(
      403,
    );
    expect((await admin.post(`/api/v1/stores/${storeA}/device-keys`, { kind: "toaster" })).statusCode).toBe(422);
    expect((await as(ctx.app, null).get(`/api/v1/stores/${storeA}/device-keys`)).statusCode).toBe(401);
    const unknownStore = "00000000-0000-4000-8000-000000000000";
    expect((await admin.get(`/api/v1/stores/${unknownStore}/device-keys`)).statusCode).toBe(404);
    expect((await admin.post(`/api/v1/stores/${unknownStore}/device-keys`, { kind: "door_scanner" })).statusCode).toBe(
      404,
    );
    const gone = await admin.delete(`/api/v1/stores/${storeA}/device-keys/${unknownStore}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().detail).toContain(unknownStore);
  });
});

describe("the shopper app's view of the server", () => {
  it("says whether the development aids are on", async () => {
    expect((await ctx.app.inject({ method: "GET", url: "/api/v1/public/config" })).json()).toMatchObject({
      dev_tools: true,
    });
    const plain = await createTestContext();
    try {
      expect((await plain.app.inject({ method: "GET", url: "/api/v1/public/config" })).json()).toMatchObject({
        dev_tools: false,
      });
    } finally {
      await plain.close();
    }
  });
});

describe("the landing page's store", () => {
  it("shows a store's name and address and nothing else", async () => {
    const res = await ctx.app.inject({ method: "GET", url: `/api/v1/public/stores/${storeA}` });
    expect(res.json()).toEqual({
      id: storeA,
      name: "Butik A",
      address: "Storgatan 1",
      postal_code: null,
      city: "Lund",
      is_active: true,
    });
  });

  it("maps demo to the oldest active store, and answers 404 and 400 otherwise", async () => {
    expect((await ctx.app.inject({ method: "GET", url: "/api/v1/public/stores/demo" })).json().id).toBe(storeA);
    expect(
      (await ctx.app.inject({ method: "GET", url: "/api/v1/public/stores/00000000-0000-4000-8000-000000000000" }))
        .statusCode,
    ).toBe(404);
    expect((await ctx.app.inject({ method: "GET", url: "/api/v1/public/stores/anything" })).statusCode).toBe(400);
  });
});

describe("the visit's timeline on the way in", () => {
  const timeline = (sessionId: string) =>
    queryRows<{ kind: string; source: string; store_id: string; detail: unknown }>(
      ctx.app.db,
      sql`select kind, source, store_id, detail from session_events where session_id = ${sessionId} order by id`,
    );

  it("records each code made, replaced and cancelled, from the phone", async () => {
    const { accessToken: token } = await signInShopper(ctx.app);
    const first = await entry(token, storeA);
    const second = await entry(token, storeB);
    const cancel = () =>
      ctx.app.inject({
        method: "DELETE",
        url: `/api/v1/sessions/entry/${second.session_id}`,
        headers: { authorization: `Bearer ${token}` },
      });
    const cancelled = [
      { kind: "entry_issued", source: "phone", store_id: storeB, detail: null },
      { kind: "entry_revoked", source: "phone", store_id: storeB, detail: { reason: "cancelled" } },
    ];
    expect((await cancel()).statusCode).toBe(204);
    expect(await timeline(second.session_id)).toEqual(cancelled);
    // Cancelling again is no new event.
    expect((await cancel()).statusCode).toBe(204);
    expect(await timeline(second.session_id)).toEqual(cancelled);
    expect(await timeline(first.session_id)).toEqual([
      { kind: "entry_issued", source: "phone", store_id: storeA, detail: null },
      { kind: "entry_revoked", source: "phone", store_id: storeA, detail: { reason: "replaced" } },
    ]);
  });

  it("records the door opening with the kind of door and who asked: the scanner or the test button", async () => {
    const { accessToken: token } = await signInShopper(ctx.app);
    const byScanner = await entry(token, storeA);
    expect((await scan(byScanner, `Device ${keyA}`)).statusCode).toBe(200);
    // A second code while the visit is open is a way back into the same visit: its door opening says so.
    const byButton = await entry(token, storeA);
    expect(byButton.session_id).toBe(byScanner.session_id);
    expect((await scan(byButton, `Bearer ${token}`)).statusCode).toBe(200);
    const opened = async (id: string) => (await timeline(id)).filter((e) => e.kind === "door_opened");
    expect(await opened(byScanner.session_id)).toEqual([
      { kind: "door_opened", source: "door", store_id: storeA, detail: { via: "simulated", caller: "scanner" } },
      {
        kind: "door_opened",
        source: "door",
        store_id: storeA,
        detail: { via: "simulated", caller: "test_button", reentry: true },
      },
    ]);
  });
});
