import { type CollectResponse, collectResponseSchema, tokensSchema } from "@glide/contracts";
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bankidOrders, customers } from "../../db/schema/index.ts";
import { RFA } from "../../platform/bankid/messages.ts";
import { sha256 } from "../../platform/crypto.ts";
import { allowCollectNow, startBankIdSimulator } from "../../test/bankid-harness.ts";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";
import { INIT_LIMIT } from "./shopper-auth.service.ts";

let sim: Awaited<ReturnType<typeof startBankIdSimulator>>;
let ctx: TestContext;
let ipCounter = 0;

beforeAll(async () => {
  sim = await startBankIdSimulator();
  ctx = await createTestContext(sim.env);
});
afterAll(async () => {
  await ctx.close();
  await sim.close();
});

/** A browser: its own device cookie and address. */
function browser(app: FastifyInstance = ctx.app) {
  const ip = `10.9.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
  let device: string | undefined;
  const call = async (method: "GET" | "POST", url: string, payload?: unknown) => {
    const res = await app.inject({
      method,
      url,
      remoteAddress: ip,
      ...(payload !== undefined ? { payload: payload as object } : {}),
      ...(device ? { cookies: { glide_device: device } } : {}),
    });
    device ??= res.cookies.find((c) => c.name === "glide_device")?.value;
    return res;
  };
  return {
    ip,
    init: (body: object = {}) => call("POST", "/api/v1/auth/init", body),
    qr: (orderRef: string) => call("GET", `/api/v1/auth/qr/${orderRef}`),
    collectRaw: (orderRef: string) => call("POST", "/api/v1/auth/collect", { order_ref: orderRef }),
    async collect(orderRef: string): Promise<CollectResponse> {
      await allowCollectNow(app, orderRef);
      const res = await call("POST", "/api/v1/auth/collect", { order_ref: orderRef });
      expect(res.statusCode, res.body).toBe(200);
      return collectResponseSchema.parse(res.json());
    },
    cancel: (orderRef: string) => call("POST", "/api/v1/auth/cancel", { order_ref: orderRef }),
  };
}

async function started(b = browser(), body: object = {}) {
  const res = await b.init(body);
  expect(res.statusCode, res.body).toBe(200);
  return { b, orderRef: res.json().order_ref as string, autoStartToken: res.json().auto_start_token as string };
}

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

describe("BankID configuration", () => {
  it("answers 503 when BankID is not configured", async () => {
    const bare = await createTestContext();
    try {
      const res = await bare.app.inject({ method: "POST", url: "/api/v1/auth/init", payload: {} });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        detail: "BankID är inte tillgängligt just nu. Försök igen senare.",
        code: "bankid_unavailable",
      });
    } finally {
      await bare.close();
    }
  });

  it("trusts only the pinned CA: a server with another CA is refused", async () => {
    const other = await startBankIdSimulator();
    // Same simulator, but this service pins a CA that did not sign its certificate.
    const { loadOrCreateCerts } = await import("../../../../../tools/bankid-simulator/certs.ts");
    const { mkdtempSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const foreign = loadOrCreateCerts(mkdtempSync(`${tmpdir()}/glide-foreign-ca-`));
    const pinned = await createTestContext({ ...other.env, BANKID_CA: foreign.files.ca });
    try {
      const res = await pinned.app.inject({ method: "POST", url: "/api/v1/auth/init", payload: {} });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ detail: RFA.RFA5, code: "bankid_unreachable" });
    } finally {
      await pinned.close();
      await other.close();
    }
  });
});

describe("what BankID is asked", () => {
  const init = (payload: object, headers: Record<string, string> = {}) =>
    ctx.app.inject({ method: "POST", url: "/api/v1/auth/init", payload, remoteAddress: "10.30.0.1", headers });
  const orderOf = async (res: Awaited<ReturnType<typeof init>>) => {
    expect(res.statusCode, res.body).toBe(200);
    return sim.order(res.json().order_ref);
  };

  it("shows 'Logga in i Glide' unless the page gives its own text, trimmed, in BankID's one text format", async () => {
    expect(await orderOf(await init({}))).toMatchObject({
      userVisibleData: "Logga in i Glide",
      userVisibleDataFormat: "simpleMarkdownV1",
    });
    expect(await orderOf(await init({ user_visible_data: "  Välkommen till *Glide Visby*  " }))).toMatchObject({
      userVisibleData: "Välkommen till *Glide Visby*",
      userVisibleDataFormat: "simpleMarkdownV1",
    });
    expect(await orderOf(await init({ user_visible_data: "   " }))).toMatchObject({
      userVisibleData: "Logga in i Glide",
    });
  });

  it("sends the site, the browser and the device, the browser cut to 256 characters", async () => {
    const agent = `Mozilla/5.0 ${"x".repeat(400)}`;
    const res = await init({}, { "user-agent": agent });
    const order = await orderOf(res);
    const [stored] = await ctx.app.db
      .select()
      .from(bankidOrders)
      .where(eq(bankidOrders.orderRef, res.json().order_ref));
    expect(order?.web).toEqual({
      referringDomain: "localhost",
      userAgent: agent.slice(0, 256),
      deviceIdentifier: stored!.deviceHash,
    });
    expect(stored).toMatchObject({ endUserIp: "10.30.0.1", autostart: false, mobile: false, status: "pending" });
    const bare = await orderOf(await init({}, { "user-agent": "" }));
    expect(bare?.web).not.toHaveProperty("userAgent");
  });

  it("sends a return address only for the app on this phone with a path to return to", async () => {
    const path = "/customer/login?store_id=demo";
    expect((await orderOf(await init({ autostart: true })))?.returnUrl).toBeNull();
    expect((await orderOf(await init({ return_path: path })))?.returnUrl).toBeNull();
    expect((await orderOf(await init({ autostart: true, return_path: path })))?.returnUrl).toBe(
      `http://localhost:3000${path}`,
    );
  });

  it.each([
    [503, "maintenance", 503],
    [500, "internalError", 502],
    [400, "invalidParameters", 502],
  ])(
    "answers BankID's %i %s at the start with %i, its code and the RFA text, and keeps no order",
    async (status, errorCode, answered) => {
      const before = await ctx.app.db.select({ ref: bankidOrders.orderRef }).from(bankidOrders);
      await sim.control("/api/next-error", { status, errorCode, details: "test" });
      const res = await browser().init();
      expect(res.statusCode).toBe(answered);
      expect(res.json()).toEqual({ detail: RFA.RFA5, code: `bankid_${errorCode}` });
      expect(await ctx.app.db.select({ ref: bankidOrders.orderRef }).from(bankidOrders)).toHaveLength(before.length);
    },
  );
});

describe("answers from what is stored", () => {
  it("answers a poll within two seconds with the last hint BankID gave", async () => {
    const { b, orderRef } = await started();
    const qr = (await b.qr(orderRef)).json().qr_code_data;
    await sim.scan(orderRef, qr);
    expect(await b.collect(orderRef)).toMatchObject({ status: "pending", hint_code: "userSign", message: RFA.RFA9 });
    const soon = await b.collectRaw(orderRef);
    expect(soon.json()).toEqual({ status: "pending", hint_code: "userSign", message: RFA.RFA9 });
    expect((await sim.order(orderRef))?.collectCalls).toBe(1);
  });

  it("keeps a failed sign-in failed without asking BankID again, with its hint or its error", async () => {
    const cancelled = await started();
    await sim.control(`/api/orders/${cancelled.orderRef}/cancel`, {});
    await cancelled.b.collect(cancelled.orderRef);
    expect(await cancelled.b.collect(cancelled.orderRef)).toEqual({
      status: "failed",
      hint_code: "userCancel",
      message: RFA.RFA6,
    });
    expect((await sim.order(cancelled.orderRef))?.collectCalls).toBe(1);

    const broken = await started();
    await sim.control("/api/next-error", { status: 500, errorCode: "internalError", details: "oops" });
    expect(await broken.b.collect(broken.orderRef)).toEqual({ status: "failed", hint_code: null, message: RFA.RFA5 });
    expect(await broken.b.collect(broken.orderRef)).toEqual({ status: "failed", hint_code: null, message: RFA.RFA5 });
    const [stored] = await ctx.app.db.select().from(bankidOrders).where(eq(bankidOrders.orderRef, broken.orderRef));
    expect(stored).toMatchObject({ status: "failed", errorCode: "internalError" });
  });

  it("keeps the order open through BankID's maintenance, and completes it afterwards", async () => {
    const { b, orderRef } = await started();
    await sim.control("/api/next-error", { status: 503, errorCode: "maintenance", details: "later" });
    expect(await b.collect(orderRef)).toEqual({ status: "pending", hint_code: null, message: RFA.RFA5 });
    const [stored] = await ctx.app.db.select().from(bankidOrders).where(eq(bankidOrders.orderRef, orderRef));
    expect(stored).toMatchObject({ status: "pending", errorCode: null });
    await sim.approve(orderRef);
    expect(await b.collect(orderRef)).toMatchObject({ status: "complete", user: { name: "Anna Andersson" } });
  });
});

describe("the customer BankID names", () => {
  const customerOf = async (id: string | undefined) =>
    (await ctx.app.db.select().from(customers).where(eq(customers.id, id!)))[0]!;

  it("stores the given name and surname, and takes new ones at the next sign-in", async () => {
    const first = await started();
    await sim.control(`/api/orders/${first.orderRef}/approve`, {
      personalNumber: "196504123271",
      name: "Karin Berg",
      givenName: "Karin",
      surname: "Berg",
    });
    const a = await first.b.collect(first.orderRef);
    const before = await customerOf(a.user?.id);
    expect(before).toMatchObject({ name: "Karin Berg", givenName: "Karin", surname: "Berg", birthDate: "1965-04-12" });

    const second = await started();
    await sim.control(`/api/orders/${second.orderRef}/approve`, {
      personalNumber: "196504123271",
      name: "Karin Lindqvist",
      givenName: "Karin",
      surname: "Lindqvist",
    });
    const b = await second.b.collect(second.orderRef);
    expect(b.user).toEqual({ id: a.user?.id, name: "Karin Lindqvist" });
    const after = await customerOf(b.user?.id);
    expect(after).toMatchObject({ name: "Karin Lindqvist", givenName: "Karin", surname: "Lindqvist" });
    expect(after.lastSignInAt!.getTime()).toBeGreaterThan(before.lastSignInAt!.getTime());
  });

  it("records the customer on the order it completed", async () => {
    const { b, orderRef } = await started();
    await sim.approve(orderRef, "199001012385");
    const done = await b.collect(orderRef);
    const [stored] = await ctx.app.db.select().from(bankidOrders).where(eq(bankidOrders.orderRef, orderRef));
    expect(stored).toMatchObject({ status: "complete", hintCode: null, customerId: done.user?.id });
    expect(stored!.tokensIssuedAt).toBeInstanceOf(Date);
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
