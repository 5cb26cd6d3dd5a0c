import { decodeEntryQr, encodeEntryQr } from "@glide/contracts";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "../../db/client.ts";
import { createTestContext, signInShopper } from "../../test/harness.ts";
import { admin, ctx, entry, inject, keyA, scan, shopper, storeA, storeB, useDoorApp } from "./sessions.fixtures.ts";

/**
 * The way in from the phone: entry codes, what the shopper app and the landing
 * page are told, and the visit's first timeline.
 */
useDoorApp();

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
