import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { bankidOrders, customers } from "../../db/schema/index.ts";
import { RFA } from "../../platform/bankid/messages.ts";
import { startBankIdSimulator } from "../../test/bankid-harness.ts";
import { createTestContext } from "../../test/harness.ts";
import { browser, ctx, sim, started, useBankIdApp } from "./shopper-auth.fixtures.ts";

/** What the server asks BankID and how it is configured, answers from what is stored, and the names BankID gives. */
useBankIdApp();

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
