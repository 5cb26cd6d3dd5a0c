import { createHmac } from "node:crypto";
import http from "node:http";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { queryRows } from "../../db/client.ts";
import { customers, shoppingSessions } from "../../db/schema/index.ts";
import { as, createTestContext, signIn, signInShopper } from "../../test/harness.ts";
import { issueTokens } from "../shopper-auth/shopper-tokens.ts";
import {
  admin,
  ctx,
  entry,
  inject,
  keyA,
  keyB,
  scan,
  shopper,
  status,
  storeA,
  storeB,
  useDoorApp,
} from "./sessions.fixtures.ts";

/**
 * The door scanner: what it accepts and refuses, what it tells, a door
 * controller reached by webhook, and its device keys.
 */
useDoorApp();

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
