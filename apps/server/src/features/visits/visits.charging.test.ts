import { sql } from "drizzle-orm";
import type { FastifyInstance, InjectOptions } from "fastify";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildApp } from "../../app.ts";
import { type Database, openDatabase, queryRows } from "../../db/client.ts";
import { shopper, type TestShopper } from "../../test/factories.ts";
import { TEST_DATABASE_URL } from "../../test/harness.ts";
import { settleUnsettled } from "../checkout/checkout.service.ts";
import { chargeWith } from "../payments/charge.ts";
import {
  body,
  charged,
  checkout,
  ctx,
  doorA,
  enter,
  entryCode,
  exitAt,
  gateA,
  oats,
  pay,
  scan,
  scanned,
  stateOf,
  storeA,
  storeB,
  tea,
  useVisitsApp,
  visitsOf,
  workerA,
} from "./visits.fixtures.ts";

/**
 * Issue 21's findings on paying: the cart frozen while it is charged, on the
 * fast path, the slow one and the "settled later" one, and one charge when
 * two instances are asked at once.
 */
useVisitsApp();

describe("the cart frozen while it is charged", () => {
  it("refuses scans, changes, removals and the recognition worker while a slow charge is under way; captures the receipt's cart", async () => {
    const ed = await shopper(ctx.app);
    const visit = await enter(ed);
    await scanned(ed, visit, 2);
    const line = (await ed.call({ method: "GET", url: `/api/v1/cart/${visit}` })).json().items[0].id as string;
    await pay.control("/faults", { delay_ms: 1500, times: 1, path: "/v1/payment_intents" });
    const paying = checkout(ed);
    await vi.waitFor(async () => expect(await stateOf(visit)).toBe("charging"), { interval: 20, timeout: 5000 });
    const frozen = [
      409,
      "payment_in_progress",
      "Betalningen pågår. Vänta tills den är klar innan du ändrar kundvagnen.",
    ];
    expect(body(await scan(ed, visit))).toEqual(frozen);
    expect(body(await ed.call({ method: "PUT", url: `/api/v1/cart/item/${line}`, payload: { quantity: 9 } }))).toEqual(
      frozen,
    );
    expect(body(await ed.call({ method: "DELETE", url: `/api/v1/cart/item/${line}` }))).toEqual(frozen);
    const worker = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/cart/worker",
      headers: { authorization: `Device ${workerA}` },
      payload: { session_id: visit, product_id: oats.id, action: "add" },
    });
    expect(body(worker)).toEqual(frozen);
    const receipt = (await paying).json().receipt as { total: number; items: { quantity: number }[] };
    expect(receipt).toMatchObject({ total: 55.8, items: [{ quantity: 2 }] });
    expect(await charged(visit)).toEqual([[5_580, 5_580]]);
    const cart = (await ed.call({ method: "GET", url: `/api/v1/cart/${visit}` })).json();
    expect(cart.total).toBe(55.8);
  });

  it("keeps the cart frozen while a charge waits to be settled later, and captures exactly the receipt's amount", async () => {
    const fa = await shopper(ctx.app);
    const visit = await enter(fa);
    await scanned(fa, visit, 2);
    await pay.control("/faults", { mode: "error", path: "/v1/payment_intents" });
    const gate = await exitAt(fa, gateA);
    expect(gate.json()).toEqual({ gate_opened: true, status: "pending", receipt_number: null });
    expect(body(await scan(fa, visit))[1]).toBe("payment_in_progress");
    expect((await checkout(fa)).statusCode).toBe(503);
    expect(body(await scan(fa, visit))[1]).toBe("payment_in_progress");
    await pay.control("/faults", {});
    await ctx.app.db.execute(
      sql`update orders set charge_started_at = now() - interval '1 hour' where session_id = ${visit}`,
    );
    const settled = await settleUnsettled({ db: ctx.app.db, payments: chargeWith(ctx.app.payments!) });
    expect(settled).toBeGreaterThanOrEqual(1);
    expect(await stateOf(visit)).toBe("paid");
    expect(await charged(visit)).toEqual([[5_580, 5_580]]);
    const [order] = await queryRows<{ total_ore: number }>(
      ctx.app.db,
      sql`select total_ore from orders where session_id = ${visit}`,
    );
    expect(order!.total_ore).toBe(5_580);
  });

  it("unfreezes the cart after a declined card, and the next try charges the cart as it then is", async () => {
    const gi = await shopper(ctx.app, { card: "pm_card_chargeDeclined" });
    const visit = await enter(gi);
    await scanned(gi, visit, 1);
    expect((await checkout(gi)).statusCode).toBe(402);
    expect(await stateOf(visit)).toBe("in_store");
    expect((await scan(gi, visit, oats.barcode)).statusCode).toBe(200);
    await gi.call({ method: "PUT", url: "/api/v1/payment-method", payload: { payment_method: "pm_card_visa" } });
    expect((await checkout(gi)).json().receipt.total).toBe(52.8);
    expect(await charged(visit, 2)).toEqual([[5_280, 5_280]]);
  });

  it("leaves a visit unpaid when its charge, still unanswered as the shopper went through the gate, is then declined", async () => {
    const hu = await shopper(ctx.app);
    const visit = await enter(hu);
    await scanned(hu, visit, 1);
    await pay.control("/faults", { mode: "error", path: "/v1/payment_intents" });
    expect((await exitAt(hu, gateA)).json().status).toBe("pending");
    await pay.control("/faults", {});
    // The card is gone by the time the charge is asked again: the provider says no, and the shopper is not there.
    await ctx.app.db.execute(
      sql`update customers set payment_method_id = 'pm_card_chargeDeclined' where id = ${hu.id}`,
    );
    await ctx.app.db.execute(
      sql`update orders set charge_started_at = now() - interval '1 hour' where session_id = ${visit}`,
    );
    await settleUnsettled({ db: ctx.app.db, payments: chargeWith(ctx.app.payments!) });
    expect(await stateOf(visit)).toBe("left_unpaid");
    const entry = await hu.call({ method: "POST", url: "/api/v1/sessions/entry", payload: { store_id: storeB } });
    expect(body(entry)[1]).toBe("unpaid_visit");
  });
});

describe.skipIf(!TEST_DATABASE_URL)("two instances on one PostgreSQL", () => {
  let other: FastifyInstance;
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ databaseUrl: ctx.databaseUrl, logger: pino({ level: "silent" }), poolSize: 5 });
    other = await buildApp(ctx.app.config, { database });
    await other.ready();
  });
  afterAll(async () => {
    await other?.close();
    await database?.close();
  });
  /** The same shopper's request on the second instance. */
  const onOther = (who: TestShopper, opts: Omit<InjectOptions, "headers">) =>
    other.inject({ ...opts, headers: { authorization: `Bearer ${who.token}` } } as InjectOptions);

  it("charges once for checkouts of one visit sent to both instances at once", async () => {
    const ida = await shopper(ctx.app);
    const visit = await enter(ida);
    await scanned(ida, visit, 2);
    const pay = { method: "POST" as const, url: "/api/v1/checkout", payload: { user_id: ida.id } };
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => (i % 2 ? checkout(ida) : onOther(ida, pay))),
    );
    expect(answers.map((a) => a.statusCode).filter((s) => s !== 200)).toEqual([]);
    expect(new Set(answers.map((a) => a.json().receipt.id)).size).toBe(1);
    expect(await charged(visit)).toEqual([[5_580, 5_580]]);
  });

  it("opens the door to one of two codes scanned on two instances at once", async () => {
    const jo = await shopper(ctx.app);
    const first = await entryCode(jo, storeA);
    const second = await entryCode(jo, storeA);
    await ctx.app.db.execute(
      sql`update shopping_sessions set state = 'entering', entry_revoked_at = null where id = ${first.session_id}`,
    );
    const scanOn = (app: FastifyInstance, code: typeof first) =>
      app.inject({
        method: "POST",
        url: "/api/v1/sessions/door/scan",
        headers: { authorization: `Device ${doorA}` },
        payload: code,
      });
    const doors = await Promise.all([scanOn(ctx.app, first), scanOn(other, second)]);
    expect(doors.map((d) => d.statusCode).sort()).toEqual([200, 409]);
    expect((await visitsOf(jo)).map((v) => v.state)).toEqual(["in_store"]);
  });

  it("refuses a scan on one instance while the other charges the visit", async () => {
    const ka = await shopper(ctx.app);
    const visit = await enter(ka);
    await scanned(ka, visit, 1);
    await pay.control("/faults", { delay_ms: 1000, times: 1, path: "/v1/payment_intents" });
    const paying = checkout(ka);
    await vi.waitFor(async () => expect(await stateOf(visit)).toBe("charging"), { interval: 20, timeout: 5000 });
    const scan = await onOther(ka, {
      method: "POST",
      url: "/api/v1/cart/scan",
      payload: { session_id: visit, barcode: tea.barcode },
    });
    expect(body(scan)[1]).toBe("payment_in_progress");
    expect((await paying).json().receipt.total).toBe(27.9);
  });
});
