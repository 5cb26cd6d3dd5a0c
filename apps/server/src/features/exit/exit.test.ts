import { randomBytes, randomUUID } from "node:crypto";
import { errorSchema, gtinCheckDigit } from "@glide/contracts";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { queryRows } from "../../db/client.ts";
import { deriveKey } from "../../platform/crypto.ts";
import { shopper as newShopper, shop, type TestShopper } from "../../test/factories.ts";
import {
  as,
  createDeviceKey,
  createTestContext,
  listenToSessions,
  putVisitIn,
  signIn,
  type TestContext,
} from "../../test/harness.ts";
import { type PaymentHarness, startPaymentHarness } from "../../test/payments.ts";
import { useSpotCheckRandom } from "../spot-checks/exit-draw.ts";
import { signExitToken } from "./exit-token.ts";

const SECRET = randomBytes(32).toString("hex");
let ctx: TestContext;
let pay: PaymentHarness;
let store: string;
let otherStore: string;
let gateKey: string;
let otherGateKey: string;
let doorKey: string;
let admin: ReturnType<typeof as>;
const juice = `731000000501${gtinCheckDigit("731000000501")}`;

type Reply = Awaited<ReturnType<TestContext["app"]["inject"]>>;
/** A shopper with `card` on file, through the door of `storeId` with a juice in the cart. */
async function shopperInStore(card = "pm_card_visa", storeId = store): Promise<TestShopper & { visit: string }> {
  const who = await newShopper(ctx.app, { card, name: "Ada", birthDate: "1980-01-01" });
  return { ...who, visit: await shop(ctx.app, who, storeId, [[juice, 1]]) };
}

const gate = (token: string, key = gateKey) =>
  ctx.app.inject({
    method: "POST",
    url: "/api/v1/exit/scan",
    headers: { authorization: `Device ${key}` },
    payload: { token },
  });
const exitCode = async (who: TestShopper) => {
  const res = await who.call({ method: "GET", url: "/api/v1/exit/token" });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { token: string; session_id: string; expires_at: string };
};

beforeAll(async () => {
  pay = await startPaymentHarness();
  ctx = await createTestContext({
    SECRET_KEY: SECRET,
    STRIPE_SECRET_KEY: pay.simulator.secretKey,
    STRIPE_API_BASE: pay.apiBase,
  });
  admin = as(ctx.app, (await signIn(ctx.app)).cookie);
  store = (await admin.post("/api/v1/stores/", { name: "Utgångsbutiken" })).json().id;
  otherStore = (await admin.post("/api/v1/stores/", { name: "Grannbutiken" })).json().id;
  gateKey = (await createDeviceKey(ctx.app, store, "exit_gate")).key;
  otherGateKey = (await createDeviceKey(ctx.app, otherStore, "exit_gate")).key;
  doorKey = (await createDeviceKey(ctx.app, store, "door_scanner")).key;
  const res = await admin.post("/api/v1/products/", {
    sku: "ex-juice",
    name: "Apelsinjuice",
    price: 24.9,
    barcode: juice,
  });
  expect(res.statusCode, res.body).toBe(201);
});
afterAll(async () => {
  await ctx?.close();
  await pay?.close();
});

describe("the exit", () => {
  it("the gate reads the phone's code: the visit is paid once, the gate opens, the phone sees the receipt", async () => {
    const ada = await shopperInStore();
    expect((await ada.call({ method: "GET", url: "/api/v1/exit/status" })).json()).toEqual({
      state: "shopping",
      receipt: null,
    });
    const code = await exitCode(ada);
    expect(code.session_id).toBe(ada.visit);
    expect(code.token).not.toContain(ada.visit);
    expect(code.token).not.toContain(ada.id);
    const opened = await gate(code.token);
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json()).toMatchObject({ gate_opened: true, status: "paid" });
    const status = (await ada.call({ method: "GET", url: "/api/v1/exit/status" })).json();
    expect(status.state).toBe("paid");
    expect(status.receipt.total).toBe(24.9);
    expect(status.receipt.number).toBe(opened.json().receipt_number);

    // The same code again is spent; the visit is over, so no new code either.
    const again = await gate(code.token);
    expect([again.statusCode, errorSchema.parse(again.json()).code]).toEqual([409, "exit_code_used"]);
    expect((await ada.call({ method: "GET", url: "/api/v1/exit/token" })).statusCode).toBe(404);
  });

  it("refuses an expired code (410), another store's gate (403), a forged code, and keys that are not a gate's", async () => {
    const ada = await shopperInStore();
    const key = deriveKey(SECRET, "exit-token");
    const old = signExitToken(key, { sessionId: ada.visit, storeId: store }, new Date(Date.now() - 121_000)).token;
    expect((await gate(old)).statusCode).toBe(410);
    const forged = signExitToken(randomBytes(32), { sessionId: ada.visit, storeId: store }).token;
    expect((await gate(forged)).statusCode).toBe(400);
    const code = await exitCode(ada);
    const elsewhere = await gate(code.token, otherGateKey);
    expect([elsewhere.statusCode, errorSchema.parse(elsewhere.json()).code]).toEqual([403, "wrong_store"]);
    expect((await gate(code.token, doorKey)).statusCode).toBe(401);
    expect((await gate(code.token, "gd_not_a_key")).statusCode).toBe(401);
    // None of that spent the code or charged anything: it still opens this store's gate.
    expect((await gate(code.token)).json()).toMatchObject({ gate_opened: true, status: "paid" });
  });

  it("a declined card keeps the gate shut and the visit open; a new code after a new card opens it", async () => {
    const ada = await shopperInStore("pm_card_chargeDeclined");
    const refused = await gate((await exitCode(ada)).token);
    expect(refused.statusCode).toBe(402);
    expect((await ada.call({ method: "GET", url: "/api/v1/exit/status" })).json().state).toBe("declined");
    await ada.call({ method: "PUT", url: "/api/v1/payment-method", payload: { payment_method: "pm_card_visa" } });
    expect((await gate((await exitCode(ada)).token)).json()).toMatchObject({ gate_opened: true, status: "paid" });
  });

  it("a code of an earlier visit opens nothing once the shopper has entered again", async () => {
    const ada = await shopperInStore();
    const first = await exitCode(ada);
    await putVisitIn(ctx.app.db, ada.visit, "paid");
    const entry = await ada.call({ method: "POST", url: "/api/v1/sessions/entry", payload: { store_id: store } });
    await putVisitIn(ctx.app.db, entry.json().session_id, "in_store");
    const stale = await gate(first.token);
    expect([stale.statusCode, errorSchema.parse(stale.json()).code]).toEqual([409, "stale_exit_code"]);
  });
});

describe("what the gate says, records and opens", () => {
  const refusal = (res: Reply) => [res.statusCode, res.json().code, res.json().detail];
  const key = () => deriveKey(SECRET, "exit-token");

  it("answers each refusal in its own words", async () => {
    const nobody = await shopperInStore();
    await ctx.app.db.execute(sql`delete from shopping_sessions where customer_id = ${nobody.id}`);
    for (const url of ["/api/v1/exit/token", "/api/v1/exit/status"])
      expect(refusal(await nobody.call({ method: "GET", url }))).toEqual([
        404,
        "no_visit",
        "Du har inget pågående besök.",
      ]);

    const ada = await shopperInStore();
    const old = signExitToken(key(), { sessionId: ada.visit, storeId: store }, new Date(Date.now() - 121_000)).token;
    expect(refusal(await gate(old))).toEqual([410, "exit_code_expired", "The exit code has expired"]);
    const forged = signExitToken(randomBytes(32), { sessionId: ada.visit, storeId: store }).token;
    expect(refusal(await gate(forged))).toEqual([400, "invalid_exit_code", "Not an exit code of this system"]);
    const code = (await exitCode(ada)).token;
    expect(refusal(await gate(code, otherGateKey))).toEqual([403, "wrong_store", "The exit code is for another store"]);
    const gone = signExitToken(key(), { sessionId: randomUUID(), storeId: store }).token;
    expect(refusal(await gate(gone))).toEqual([404, "unknown_session", "The visit no longer exists"]);
    // Another store's gate learns only that the code is not for it, not whether the visit exists.
    expect(refusal(await gate(gone, otherGateKey))).toEqual([403, "wrong_store", "The exit code is for another store"]);
    expect((await gate(code)).statusCode).toBe(200);
    expect(refusal(await gate(code))).toEqual([409, "exit_code_used", "The exit code has already been used"]);
    // Each refusal of a real visit's code is on its timeline with its code, for staff to see why the gate stayed shut.
    const refusals = await queryRows<{ code: string; source: string }>(
      ctx.app.db,
      sql`select detail->>'code' as code, source from session_events
          where session_id = ${ada.visit} and kind = 'exit_refused' order by id`,
    );
    expect(refusals).toEqual([
      { code: "wrong_store", source: "exit_gate" },
      { code: "exit_code_used", source: "exit_gate" },
    ]);

    const bo = await shopperInStore();
    const earlier = (await exitCode(bo)).token;
    await putVisitIn(ctx.app.db, bo.visit, "paid");
    const entry = await bo.call({ method: "POST", url: "/api/v1/sessions/entry", payload: { store_id: store } });
    await putVisitIn(ctx.app.db, entry.json().session_id, "in_store");
    expect(refusal(await gate(earlier))).toEqual([409, "stale_exit_code", "The exit code is for an earlier visit"]);
  });

  it("gives a code that lasts two minutes from when it was asked for", async () => {
    const ada = await shopperInStore();
    const before = Date.now();
    const { expires_at } = await exitCode(ada);
    const lasts = Date.parse(expires_at) - before;
    expect(lasts).toBeGreaterThan(118_000);
    expect(lasts).toBeLessThanOrEqual(121_000);
  });

  it("records the exit, tells the Sessions screens and opens this store's gate for this visit", async () => {
    const opened = vi.spyOn(ctx.app.door, "open");
    const bus = await listenToSessions(ctx.app);
    try {
      const ada = await shopperInStore();
      expect((await gate((await exitCode(ada)).token)).json()).toMatchObject({ gate_opened: true, status: "paid" });
      expect(opened.mock.calls).toEqual([[{ storeId: store, sessionId: ada.visit }]]);
      const exits = await queryRows<{ source: string; store_id: string }>(
        ctx.app.db,
        sql`select source, store_id from session_events where session_id = ${ada.visit} and kind = 'exit_qr'`,
      );
      expect(exits).toEqual([{ source: "exit_gate", store_id: store }]);
      await bus.settle();
      expect(bus.of(ada.visit, "exit_qr")).toEqual([{ store_id: store, session_id: ada.visit, kind: "exit_qr" }]);

      // A declined card keeps the gate shut: nothing is opened for it.
      opened.mockClear();
      const declined = await shopperInStore("pm_card_chargeDeclined");
      expect((await gate((await exitCode(declined)).token)).statusCode).toBe(402);
      expect(opened).not.toHaveBeenCalled();
    } finally {
      opened.mockRestore();
      bus.stop();
    }
  });

  it("opens for an empty cart with nothing charged and no receipt, and never draws it for a staff check", async () => {
    const restore = useSpotCheckRandom(() => 0);
    const share = await admin.put(`/api/v1/settings/stores/${store}`, {
      settings: { store: { spot_check_share: 0.2 } },
    });
    expect(share.statusCode, share.body).toBe(200);
    try {
      const ada = await shopperInStore();
      // The first visit is paid, so the next ones are a returning shopper's: those can be drawn.
      expect((await gate((await exitCode(ada)).token)).json().status).toBe("paid");
      const entry = await ada.call({ method: "POST", url: "/api/v1/sessions/entry", payload: { store_id: store } });
      const empty = entry.json().session_id as string;
      await ctx.app.db.execute(
        sql`update shopping_sessions set door_opened_at = now(), entry_used_at = now(), state = 'in_store' where id = ${empty}`,
      );
      const opened = await gate((await exitCode(ada)).token);
      expect(opened.json()).toEqual({ gate_opened: true, status: "empty", receipt_number: null });
      expect((await ada.call({ method: "GET", url: "/api/v1/exit/status" })).json()).toEqual({
        state: "empty",
        receipt: null,
      });
      const drawn = (id: string) =>
        queryRows<{ id: string }>(ctx.app.db, sql`select id from spot_checks where session_id = ${id}`);
      expect(await drawn(empty)).toEqual([]);
      // The same draw on a visit with something in it picks it: the empty one was passed over for being empty.
      const bo = await shopperInStore();
      await gate((await exitCode(bo)).token);
      const second = await bo.call({ method: "POST", url: "/api/v1/sessions/entry", payload: { store_id: store } });
      const full = second.json().session_id as string;
      await ctx.app.db.execute(
        sql`update shopping_sessions set door_opened_at = now(), entry_used_at = now(), state = 'in_store' where id = ${full}`,
      );
      await bo.call({ method: "POST", url: "/api/v1/cart/scan", payload: { session_id: full, barcode: juice } });
      expect((await gate((await exitCode(bo)).token)).json().status).toBe("paid");
      expect(await drawn(full)).toHaveLength(1);
    } finally {
      restore();
      await admin.put(`/api/v1/settings/stores/${store}`, { settings: {} });
    }
  });

  it("charges a visit the sweep left unpaid when its shopper comes to the gate; one it ended empty opens for free", async () => {
    const ada = await shopperInStore();
    const code = (await exitCode(ada)).token;
    await putVisitIn(ctx.app.db, ada.visit, "left_unpaid");
    // Still inside after the sweep: the shopper can ask for a code, and the gate takes the payment.
    expect((await exitCode(ada)).session_id).toBe(ada.visit);
    expect((await gate(code)).json()).toMatchObject({ gate_opened: true, status: "paid" });
    expect((await ada.call({ method: "GET", url: "/api/v1/exit/status" })).json().state).toBe("paid");

    const bo = await shopperInStore();
    const empty = (await bo.call({ method: "GET", url: `/api/v1/cart/${bo.visit}` })).json().items[0].id as string;
    await bo.call({ method: "DELETE", url: `/api/v1/cart/item/${empty}` });
    const quiet = (await exitCode(bo)).token;
    await ctx.app.db.execute(
      sql`update shopping_sessions set state = 'ended_empty', abandoned_at = now() where id = ${bo.visit}`,
    );
    expect((await gate(quiet)).json()).toEqual({ gate_opened: true, status: "empty", receipt_number: null });
    expect((await bo.call({ method: "GET", url: "/api/v1/exit/status" })).json()).toEqual({
      state: "empty",
      receipt: null,
    });
  });

  it("shows the phone the charge pending while the gate is still charging", async () => {
    const ada = await shopperInStore();
    await pay.control("/faults", { delay_ms: 1500, times: 1, path: "/v1/payment_intents" });
    try {
      const charging = gate((await exitCode(ada)).token);
      await vi.waitFor(
        async () =>
          expect((await ada.call({ method: "GET", url: "/api/v1/exit/status" })).json()).toEqual({
            state: "pending",
            receipt: null,
          }),
        { timeout: 5000, interval: 50 },
      );
      expect((await charging).json()).toMatchObject({ gate_opened: true, status: "paid" });
    } finally {
      await pay.control("/faults", {});
    }
    expect((await ada.call({ method: "GET", url: "/api/v1/exit/status" })).json().state).toBe("paid");
  });

  it("treats a code for a visit that never passed the door as no code for the shopper's visit", async () => {
    const ada = await shopperInStore();
    await putVisitIn(ctx.app.db, ada.visit, "paid");
    const entry = await ada.call({ method: "POST", url: "/api/v1/sessions/entry", payload: { store_id: store } });
    await ctx.app.db.execute(sql`delete from shopping_sessions where id = ${ada.visit}`);
    const outside = signExitToken(key(), { sessionId: entry.json().session_id, storeId: store }).token;
    expect(refusal(await gate(outside))).toEqual([409, "stale_exit_code", "The exit code is for an earlier visit"]);
  });

  it("opens when the payment provider does not answer, and the phone sees the charge pending", async () => {
    const ada = await shopperInStore();
    const opened = vi.spyOn(ctx.app.door, "open");
    await pay.control("/faults", { mode: "error", path: "/v1/payment_intents" });
    try {
      const res = await gate((await exitCode(ada)).token);
      expect(res.json()).toEqual({ gate_opened: true, status: "pending", receipt_number: null });
      expect(opened).toHaveBeenCalledTimes(1);
    } finally {
      opened.mockRestore();
      await pay.control("/faults", {});
    }
    expect((await ada.call({ method: "GET", url: "/api/v1/exit/status" })).json()).toEqual({
      state: "pending",
      receipt: null,
    });
  });
});
