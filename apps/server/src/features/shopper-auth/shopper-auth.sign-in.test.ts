import { tokensSchema } from "@glide/contracts";
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { describe, expect, it } from "vitest";
import { bankidOrders, customers } from "../../db/schema/index.ts";
import { RFA } from "../../platform/bankid/messages.ts";
import { sha256 } from "../../platform/crypto.ts";
import { as, createTestContext, signIn } from "../../test/harness.ts";
import { browser, ctx, sim, started, useBankIdApp } from "./shopper-auth.fixtures.ts";
import { INIT_LIMIT } from "./shopper-auth.service.ts";

/** Signing in with BankID: the whole way, the tokens it gives, the shopper's address, and cancelling. */
useBankIdApp();

describe("signing in with BankID, through the real client and the simulator over mutual TLS", () => {
  it("completes on a computer: the QR code is scanned, the user approves, the tokens come once", async () => {
    const { b, orderRef } = await started();
    expect(await b.collect(orderRef)).toMatchObject({
      status: "pending",
      hint_code: "outstandingTransaction",
      message: RFA.RFA1,
    });

    const qr = await b.qr(orderRef);
    expect(qr.json().qr_code_data).toMatch(/^bankid\.[0-9a-f-]{36}\.\d+\.[0-9a-f]{64}$/);
    const [stored] = await ctx.app.db.select().from(bankidOrders).where(eq(bankidOrders.orderRef, orderRef));
    expect(Object.keys(qr.json())).toEqual(["qr_code_data"]);
    expect(qr.body).not.toContain(stored!.qrStartSecret);
    expect((await sim.scan(orderRef, qr.json().qr_code_data)).status).toBe(200);
    expect(await b.collect(orderRef)).toMatchObject({ status: "pending", hint_code: "userSign", message: RFA.RFA9 });

    await sim.approve(orderRef, "198112189876");
    const done = await b.collect(orderRef);
    expect(done).toMatchObject({ status: "complete", user: { name: "Anna Andersson" } });
    expect(done.access_token).toBeTruthy();
    expect(done.refresh_token).toBeTruthy();

    const again = await b.collectRaw(orderRef);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ detail: "Inloggningen är redan slutförd.", code: "order_finished" });
    const lateQr = await b.qr(orderRef);
    expect(lateQr.statusCode).toBe(409);
    expect(lateQr.json()).toEqual({ detail: "Inloggningen är redan avslutad.", code: "order_finished" });
  });

  it("keeps the personal number sealed, derives the birth date, and reuses the customer", async () => {
    const first = await started();
    await sim.approve(first.orderRef, "200811211234");
    const a = await first.b.collect(first.orderRef);
    const second = await started();
    await sim.approve(second.orderRef, "200811211234");
    const b = await second.b.collect(second.orderRef);
    expect(b.user?.id).toBe(a.user?.id);

    const rows = await ctx.app.db.select().from(customers);
    const maja = rows.find((r) => r.id === a.user?.id)!;
    expect(maja.birthDate).toBe("2008-11-21");
    expect(JSON.stringify(rows)).not.toContain("200811211234");
    expect(JSON.stringify(rows)).not.toContain("0811211234");
    const admin = as(ctx.app, (await signIn(ctx.app)).cookie);
    expect((await admin.get("/api/v1/admin/dashboard")).json().total_users).toBe(rows.length);
  });

  it("asks BankID at most once per 2 seconds however often the browser polls", async () => {
    const { b, orderRef } = await started();
    await b.collect(orderRef);
    for (let i = 0; i < 4; i++) {
      const res = await b.collectRaw(orderRef);
      expect(res.json()).toMatchObject({ status: "pending", message: RFA.RFA1 });
    }
    expect((await sim.order(orderRef))?.collectCalls).toBe(1);
  });

  it("sends the return address and device data on a phone, and says the app is starting", async () => {
    const { b, orderRef } = await started(browser(), { autostart: true, return_path: "/customer/login?store_id=demo" });
    const order = await sim.order(orderRef);
    expect(order).toMatchObject({ returnUrl: "http://localhost:3000/customer/login?store_id=demo" });
    expect(await b.collect(orderRef)).toMatchObject({ status: "pending", message: RFA.RFA13 });
  });

  it("reports a user who cancels in the app", async () => {
    const { b, orderRef } = await started();
    await sim.control(`/api/orders/${orderRef}/cancel`, {});
    expect(await b.collect(orderRef)).toMatchObject({ status: "failed", hint_code: "userCancel", message: RFA.RFA6 });
  });

  it("reports startFailed when no app picks the order up in time, and expiredTransaction when the user never finishes", async () => {
    await sim.control("/api/config", { startTimeoutMs: 0, orderTimeoutMs: 0 });
    try {
      const idle = await started();
      expect(await idle.b.collect(idle.orderRef)).toMatchObject({
        status: "failed",
        hint_code: "startFailed",
        message: RFA.RFA17B,
      });

      const slow = await started();
      const qr = (await slow.b.qr(slow.orderRef)).json().qr_code_data;
      await sim.control("/api/config", { startTimeoutMs: 30_000 });
      await sim.scan(slow.orderRef, qr);
      expect(await slow.b.collect(slow.orderRef)).toMatchObject({
        status: "failed",
        hint_code: "expiredTransaction",
        message: RFA.RFA8,
      });
    } finally {
      await sim.control("/api/config", { startTimeoutMs: 30_000, orderTimeoutMs: 180_000 });
    }
  });

  it("says a sign-in is already in progress", async () => {
    await sim.control("/api/next-error", { status: 400, errorCode: "alreadyInProgress", details: "busy" });
    const res = await browser().init();
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ detail: RFA.RFA4, code: "bankid_already_in_progress" });
  });

  it("keeps polling through maintenance, and fails on an internal error", async () => {
    const { b, orderRef } = await started();
    await sim.control("/api/next-error", { status: 503, errorCode: "maintenance", details: "later" });
    expect(await b.collect(orderRef)).toMatchObject({ status: "pending", message: RFA.RFA5 });
    await sim.control("/api/next-error", { status: 500, errorCode: "internalError", details: "oops" });
    expect(await b.collect(orderRef)).toMatchObject({ status: "failed", message: RFA.RFA5 });
  });

  it("answers 404 for an unknown order or another browser's, and 422 for a malformed one", async () => {
    const { orderRef } = await started();
    const stranger = browser();
    await stranger.init();
    expect((await stranger.collectRaw(orderRef)).statusCode).toBe(404);
    expect((await stranger.qr(orderRef)).statusCode).toBe(404);
    expect((await stranger.collectRaw("00000000-0000-4000-8000-000000000000")).json()).toMatchObject({
      code: "unknown_order",
    });
    const bad = await stranger.collectRaw("not-an-order");
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail).toContain("order_ref");
  });

  it("cancels an order on request", async () => {
    const { b, orderRef } = await started();
    expect((await b.cancel(orderRef)).statusCode).toBe(204);
    expect(await b.collect(orderRef)).toMatchObject({ status: "failed", message: RFA.RFA3 });
    expect(await sim.order(orderRef)).toBeUndefined();
  });

  it("limits how often one address starts sign-ins", async () => {
    const b = browser();
    for (let i = 0; i < INIT_LIMIT.perAddress; i++) expect((await b.init()).statusCode).toBe(200);
    const res = await b.init();
    expect(res.statusCode).toBe(429);
    expect(res.json().detail).toBe("För många inloggningsförsök. Vänta en minut och försök igen.");
  });

  it("rejects a return path outside the shopper app", async () => {
    const res = await browser().init({ autostart: true, return_path: "https://evil.example/" });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toContain("return_path");
  });
});

describe("tokens", () => {
  async function tokens() {
    const { b, orderRef } = await started();
    await sim.approve(orderRef, "197503154564");
    return b.collect(orderRef);
  }
  const post = (url: string, payload: object) => ctx.app.inject({ method: "POST", url, payload });

  it("rotates the refresh token, and a reused one ends the whole sign-in", async () => {
    const first = await tokens();
    const r1 = await post("/api/v1/auth/refresh", { refresh_token: first.refresh_token });
    expect(r1.statusCode).toBe(200);
    const second = tokensSchema.parse(r1.json());
    expect(second.refresh_token).not.toBe(first.refresh_token);

    // Past the grace window a second tab gets (shopper-tokens.test.ts), as a thief would come later.
    await ctx.app.db.execute(
      sql`update shopper_refresh_tokens set used_at = now() - interval '1 minute' where token_hash = ${sha256(first.refresh_token!)}`,
    );
    const reuse = await post("/api/v1/auth/refresh", { refresh_token: first.refresh_token });
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json().code).toBe("refresh_token_reused");
    expect((await post("/api/v1/auth/refresh", { refresh_token: second.refresh_token })).statusCode).toBe(401);
  });

  it("stops a refresh token working after sign-out", async () => {
    const t = await tokens();
    expect((await post("/api/v1/auth/logout", { refresh_token: t.refresh_token })).statusCode).toBe(204);
    expect((await post("/api/v1/auth/refresh", { refresh_token: t.refresh_token })).statusCode).toBe(401);
  });

  it("offers the dev login only with DEV_TOOLS", async () => {
    expect((await ctx.app.inject({ method: "POST", url: "/api/v1/auth/dev-login" })).statusCode).toBe(404);
    const dev = await createTestContext({ DEV_TOOLS: "true" });
    try {
      const res = await dev.app.inject({ method: "POST", url: "/api/v1/auth/dev-login" });
      expect(res.statusCode).toBe(200);
      expect(tokensSchema.parse(res.json()).user.name).toBe("Dev Testsson");
    } finally {
      await dev.close();
    }
  });
});

describe("the shopper's address", () => {
  it("is sent to BankID as endUserIp, taken from X-Forwarded-For only behind a configured proxy", async () => {
    const init = (app: FastifyInstance) =>
      app.inject({
        method: "POST",
        url: "/api/v1/auth/init",
        payload: {},
        remoteAddress: "10.20.30.40",
        headers: { "x-forwarded-for": "203.0.113.7" },
      });
    const direct = (await init(ctx.app)).json().order_ref;
    expect((await sim.order(direct)) as unknown).toMatchObject({ endUserIp: "10.20.30.40" });
    const proxied = await createTestContext({ ...sim.env, TRUST_PROXY: "true" });
    try {
      const viaProxy = (await init(proxied.app)).json().order_ref;
      expect((await sim.order(viaProxy)) as unknown).toMatchObject({ endUserIp: "203.0.113.7" });
    } finally {
      await proxied.close();
    }
  });
});

describe("cancelling", () => {
  it("ends the order here even when BankID cannot be told", async () => {
    const { b, orderRef } = await started();
    await sim.control("/api/next-error", { status: 500, errorCode: "internalError", details: "oops" });
    expect((await b.cancel(orderRef)).statusCode).toBe(204);
    const [stored] = await ctx.app.db.select().from(bankidOrders).where(eq(bankidOrders.orderRef, orderRef));
    expect(stored).toMatchObject({ status: "failed", hintCode: "cancelled" });
  });

  it("leaves a finished sign-in as it is, and another browser's order alone", async () => {
    const { b, orderRef } = await started();
    await sim.approve(orderRef);
    await b.collect(orderRef);
    expect((await b.cancel(orderRef)).statusCode).toBe(204);
    const [done] = await ctx.app.db.select().from(bankidOrders).where(eq(bankidOrders.orderRef, orderRef));
    expect(done).toMatchObject({ status: "complete" });

    const open = await started();
    const stranger = browser();
    await stranger.init();
    const refused = await stranger.cancel(open.orderRef);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({ detail: "Okänd inloggning. Starta BankID igen.", code: "unknown_order" });
    const [still] = await ctx.app.db.select().from(bankidOrders).where(eq(bankidOrders.orderRef, open.orderRef));
    expect(still).toMatchObject({ status: "pending" });
  });
});
