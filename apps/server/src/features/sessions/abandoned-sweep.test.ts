import { gtinCheckDigit } from "@glide/contracts";
import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildApp } from "../../app.ts";
import { loadConfig } from "../../config.ts";
import { openDatabase, queryRows, sql } from "../../db/client.ts";
import { shopper as newShopper, walkIn } from "../../test/factories.ts";
import {
  as,
  createDeviceKey,
  createTestContext,
  listenToSessions,
  signIn,
  signInShopper,
  TEST_DATABASE_URL,
  type TestContext,
} from "../../test/harness.ts";
import { type PaymentHarness, startPaymentHarness } from "../../test/payments.ts";
import { ABANDON_LOCK, ABANDON_SWEEP_MS, sweepAbandoned } from "./abandoned-sweep.ts";

let ctx: TestContext;
let pay: PaymentHarness;
let admin: ReturnType<typeof as>;
let usual: string;
let quick: string;
let gateKey: string;
const juice = `731000000701${gtinCheckDigit("731000000701")}`;
const ABANDONED = "Besöket avslutades efter en stund utan aktivitet och debiteras inte.";
const LEFT_UNPAID = "Besöket avslutades utan betalning. Betala det i appen eller kontakta butiken.";

/** A shopper inside `storeId` with one juice in the cart, last active `idleMinutes` ago. */
async function quietVisit(storeId: string, idleMinutes: number) {
  const who = await newShopper(ctx.app, { name: "Idle Idun" });
  const { id: customerId, call } = who;
  const visit = await walkIn(ctx.app, who, storeId);
  const scanned = await call({
    method: "POST",
    url: "/api/v1/cart/scan",
    payload: { session_id: visit, barcode: juice },
  });
  expect(scanned.statusCode, scanned.body).toBe(200);
  await idle(visit, idleMinutes);
  return { customerId, call, visit, itemId: scanned.json().item.id as string };
}

const idle = (visit: string, minutes: number) =>
  ctx.app.db.execute(
    sql`update shopping_sessions set last_activity_at = now() - make_interval(mins => ${minutes}) where id = ${visit}`,
  );
const stateOf = async (visit: string) => {
  const [row] = await queryRows<{
    state: string;
    abandoned_at: Date | null;
    checked_out_at: Date | null;
    events: number;
  }>(
    ctx.app.db,
    sql`select state, abandoned_at, checked_out_at,
          (select count(*)::int from session_events e where e.session_id = s.id and e.kind = 'abandoned') as events
        from shopping_sessions s where id = ${visit}`,
  );
  return row!;
};

beforeAll(async () => {
  pay = await startPaymentHarness();
  ctx = await createTestContext({ STRIPE_SECRET_KEY: pay.simulator.secretKey, STRIPE_API_BASE: pay.apiBase });
  admin = as(ctx.app, (await signIn(ctx.app)).cookie);
  usual = (await admin.post("/api/v1/stores/", { name: "Vanliga butiken" })).json().id;
  quick = (await admin.post("/api/v1/stores/", { name: "Snabba butiken" })).json().id;
  const override = await admin.put(`/api/v1/settings/stores/${quick}`, {
    settings: { store: { abandon_after_minutes: 10 } },
  });
  expect(override.statusCode, override.body).toBe(200);
  gateKey = (await createDeviceKey(ctx.app, usual, "exit_gate")).key;
  const res = await admin.post("/api/v1/products/", {
    sku: "ab-juice",
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

describe("the abandoned-visit sweep", () => {
  it("closes a visit one minute past its store's limit, not one minute before, and leaves closed visits alone", async () => {
    const before = await quietVisit(usual, 29);
    const after = await quietVisit(usual, 31);
    const quickBefore = await quietVisit(quick, 9);
    const quickAfter = await quietVisit(quick, 11);
    const paid = await quietVisit(usual, 10);
    const pay1 = await paid.call({ method: "POST", url: "/api/v1/checkout", payload: { user_id: paid.customerId } });
    expect(pay1.statusCode, pay1.body).toBe(200);
    await idle(paid.visit, 120);

    const swept = await sweepAbandoned(ctx.app);
    expect(swept).not.toBe("skipped");
    const ids = (swept as { session_id: string }[]).map((c) => c.session_id).sort();
    expect(ids).toEqual([after.visit, quickAfter.visit].sort());
    for (const v of [after, quickAfter]) expect(await stateOf(v.visit)).toMatchObject({ events: 1 });
    for (const v of [before, quickBefore])
      expect(await stateOf(v.visit)).toMatchObject({ abandoned_at: null, events: 0 });
    expect(await stateOf(paid.visit)).toMatchObject({ abandoned_at: null, events: 0 });

    const [event] = await queryRows<{ source: string; detail: { idle_minutes: number } }>(
      ctx.app.db,
      sql`select source, detail from session_events where session_id = ${quickAfter.visit} and kind = 'abandoned'`,
    );
    expect(event).toMatchObject({ source: "system", detail: { idle_minutes: 10 } });

    // An abandoned visit stays as it was: a second sweep neither moves abandoned_at nor records again.
    const first = (await stateOf(after.visit)).abandoned_at;
    await idle(after.visit, 500);
    expect(await sweepAbandoned(ctx.app)).toEqual([]);
    expect(await stateOf(after.visit)).toMatchObject({ abandoned_at: first, events: 1 });
  });

  it("leaves a quiet visit with goods unpaid: its cart is kept and frozen, and its shopper pays before entering again", async () => {
    const v = await quietVisit(usual, 45);
    await sweepAbandoned(ctx.app);
    expect((await stateOf(v.visit)).state).toBe("left_unpaid");
    const scan = await v.call({
      method: "POST",
      url: "/api/v1/cart/scan",
      payload: { session_id: v.visit, barcode: juice },
    });
    expect([scan.statusCode, scan.json()]).toEqual([409, { code: "visit_left_unpaid", detail: LEFT_UNPAID }]);
    const change = await v.call({ method: "PUT", url: `/api/v1/cart/item/${v.itemId}`, payload: { quantity: 2 } });
    expect(change.statusCode).toBe(409);
    expect((await v.call({ method: "DELETE", url: `/api/v1/cart/item/${v.itemId}` })).statusCode).toBe(409);
    // Nothing is charged by the sweep: the cart is kept for the record, and for the payment.
    expect(await queryRows(ctx.app.db, sql`select id from orders where session_id = ${v.visit}`)).toEqual([]);

    // The next entry, in any store, waits for the payment, and says how much and where.
    for (const storeId of [usual, quick]) {
      const entry = await v.call({ method: "POST", url: "/api/v1/sessions/entry", payload: { store_id: storeId } });
      expect([entry.statusCode, entry.json()]).toEqual([
        409,
        {
          code: "unpaid_visit",
          detail:
            "Du har ett obetalt besök i Vanliga butiken (24,90 kr). Betala det i appen innan du går in igen, eller kontakta butiken.",
        },
      ]);
    }
    const owed = await v.call({ method: "GET", url: "/api/v1/visits/unpaid" });
    expect(owed.json()).toEqual([
      { session_id: v.visit, store_name: "Vanliga butiken", total: 24.9, left_at: expect.any(String) },
    ]);
    const paid = await v.call({ method: "POST", url: "/api/v1/checkout", payload: { user_id: v.customerId } });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ status: "paid", receipt: { total: 24.9 } });
    expect((await stateOf(v.visit)).state).toBe("paid");
    expect((await v.call({ method: "GET", url: "/api/v1/visits/unpaid" })).json()).toEqual([]);
    const entry = await v.call({ method: "POST", url: "/api/v1/sessions/entry", payload: { store_id: usual } });
    expect(entry.statusCode, entry.body).toBe(200);
    expect(entry.json().session_id).not.toBe(v.visit);
  });

  it("ends a quiet visit with an empty cart: nothing to pay, the cart refuses it in Swedish, the gate still opens", async () => {
    const v = await quietVisit(usual, 45);
    expect((await v.call({ method: "DELETE", url: `/api/v1/cart/item/${v.itemId}` })).statusCode).toBe(200);
    await idle(v.visit, 45);
    const token = (await v.call({ method: "GET", url: "/api/v1/exit/token" })).json().token as string;
    await sweepAbandoned(ctx.app);
    expect((await stateOf(v.visit)).state).toBe("ended_empty");
    const scan = await v.call({
      method: "POST",
      url: "/api/v1/cart/scan",
      payload: { session_id: v.visit, barcode: juice },
    });
    expect([scan.statusCode, scan.json().detail]).toEqual([409, ABANDONED]);
    const gate = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/exit/scan",
      headers: { authorization: `Device ${gateKey}` },
      payload: { token },
    });
    expect(gate.json()).toMatchObject({ gate_opened: true, status: "empty", receipt_number: null });
    expect((await v.call({ method: "GET", url: "/api/v1/exit/status" })).json().state).toBe("empty");
    expect(await queryRows(ctx.app.db, sql`select id from orders where session_id = ${v.visit}`)).toEqual([]);
  });

  it("leaves a visit whose charge is in flight alone, however quiet", async () => {
    const v = await quietVisit(usual, 10);
    await ctx.app.db.execute(
      sql`insert into orders (session_id, customer_id, store_id, state, total_ore, vat_ore, currency, store_name)
          values (${v.visit}, ${v.customerId}, ${usual}, 'unsettled', 2490, 498, 'SEK', 'Vanliga butiken')`,
    );
    await ctx.app.db.execute(sql`update shopping_sessions set state = 'charging' where id = ${v.visit}`);
    await idle(v.visit, 300);
    await sweepAbandoned(ctx.app);
    expect(await stateOf(v.visit)).toMatchObject({ abandoned_at: null, events: 0 });
  });

  it("tells the Sessions screens of each visit it closes", async () => {
    const bus = await listenToSessions(ctx.app);
    try {
      const v = await quietVisit(usual, 40);
      await sweepAbandoned(ctx.app);
      await bus.settle();
      expect(bus.of(v.visit, "abandoned")).toEqual([{ store_id: usual, session_id: v.visit, kind: "abandoned" }]);
    } finally {
      bus.stop();
    }
  });

  it("runs by itself on a running service, once a minute", async () => {
    // Only the service's periodic jobs run on the test's clock; everything else keeps real time.
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const own = await createTestContext({ STRIPE_SECRET_KEY: pay.simulator.secretKey, STRIPE_API_BASE: pay.apiBase });
    try {
      const store = (await as(own.app, (await signIn(own.app)).cookie).post("/api/v1/stores/", { name: "Egen" })).json()
        .id as string;
      const { accessToken } = await signInShopper(own.app, "Tyst Tora");
      const headers = { authorization: `Bearer ${accessToken}` };
      const card = { payment_method: "pm_card_visa" };
      await own.app.inject({ method: "PUT", url: "/api/v1/payment-method", headers, payload: card });
      const entry = await own.app.inject({
        method: "POST",
        url: "/api/v1/sessions/entry",
        headers,
        payload: { store_id: store },
      });
      expect(entry.statusCode, entry.body).toBe(200);
      const visit = entry.json().session_id as string;
      await own.app.db.execute(
        sql`update shopping_sessions set door_opened_at = now(), entry_used_at = now(), state = 'in_store', last_activity_at = now() - interval '1 hour'
            where id = ${visit}`,
      );
      const abandonedAt = async () =>
        (
          await queryRows<{ at: Date | null }>(
            own.app.db,
            sql`select abandoned_at as at from shopping_sessions where id = ${visit}`,
          )
        )[0]?.at ?? null;

      await vi.advanceTimersByTimeAsync(ABANDON_SWEEP_MS - 1_000);
      expect(await abandonedAt()).toBeNull();
      await vi.advanceTimersByTimeAsync(1_000);
      await expect.poll(abandonedAt, { timeout: 10_000 }).not.toBeNull();
    } finally {
      vi.useRealTimers();
      await own.close();
    }
  });

  describe.skipIf(!TEST_DATABASE_URL)("two instances on one PostgreSQL", () => {
    it("skips a sweep while another instance holds the sweep's lock, and closes the visits once it is free", async () => {
      const v = await quietVisit(usual, 40);
      const other = new pg.Client({ connectionString: ctx.databaseUrl });
      await other.connect();
      try {
        await other.query("select pg_advisory_lock($1)", [ABANDON_LOCK]);
        expect(await sweepAbandoned(ctx.app)).toBe("skipped");
        expect(await stateOf(v.visit)).toMatchObject({ abandoned_at: null, events: 0 });
        await other.query("select pg_advisory_unlock($1)", [ABANDON_LOCK]);
        const swept = await sweepAbandoned(ctx.app);
        expect(swept !== "skipped" && swept.map((c) => c.session_id)).toContain(v.visit);
      } finally {
        await other.end();
      }
    });

    it("passes over a visit whose cart is changing at that moment, and closes it at a round after", async () => {
      const v = await quietVisit(usual, 40);
      const scanning = new pg.Client({ connectionString: ctx.databaseUrl });
      await scanning.connect();
      try {
        // What a scan holds while its statement runs: the visit FOR KEY SHARE.
        await scanning.query("begin");
        await scanning.query("select id from shopping_sessions where id = $1 for key share", [v.visit]);
        const swept = await sweepAbandoned(ctx.app);
        expect(swept !== "skipped" && swept.map((c) => c.session_id)).not.toContain(v.visit);
        expect((await stateOf(v.visit)).state).toBe("in_store");
        await scanning.query("commit");
        const later = await sweepAbandoned(ctx.app);
        expect(later !== "skipped" && later.map((c) => c.session_id)).toContain(v.visit);
        expect((await stateOf(v.visit)).state).toBe("left_unpaid");
      } finally {
        await scanning.end();
      }
    });

    it("close each quiet visit once", async () => {
      const database = await openDatabase({
        databaseUrl: ctx.databaseUrl,
        logger: pino({ level: "silent" }),
        poolSize: 3,
      });
      const second = await buildApp(
        loadConfig({
          NODE_ENV: "test",
          LOG_LEVEL: "silent",
          DATA_DIR: ctx.dataDir,
          WEB_DIST: ctx.dataDir,
          SECRET_KEY: "x".repeat(64),
        }),
        { database },
      );
      try {
        const quiet = await Promise.all([1, 2, 3].map(() => quietVisit(usual, 40)));
        const results = await Promise.all([sweepAbandoned(ctx.app), sweepAbandoned(second), sweepAbandoned(ctx.app)]);
        const closed = results.flatMap((r) => (r === "skipped" ? [] : r.map((c) => c.session_id)));
        expect(closed.sort()).toEqual(quiet.map((q) => q.visit).sort());
        for (const q of quiet) expect((await stateOf(q.visit)).events).toBe(1);
      } finally {
        await second.close();
        await database.close();
      }
    });
  });
});
