import { randomUUID } from "node:crypto";
import type { SessionDetail, SessionRow } from "@glide/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "../../db/client.ts";
import { paidVisit, product, shop, shopper } from "../../test/factories.ts";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";
import { type PaymentHarness, startPaymentHarness } from "../../test/payments.ts";

/**
 * The Sessions list's CASEs and filters at their edges: refunded against
 * partly refunded to the öre, the two ways a visit ends empty, a cart once
 * touched, the cart's figures after a declined charge, and entry-time
 * filters at the exact instant and at a store-local midnight far from UTC.
 */
let ctx: TestContext;
let pay: PaymentHarness;
let cookie: string;
let admin: ReturnType<typeof as>;
let soap: Awaited<ReturnType<typeof product>>;

beforeAll(async () => {
  pay = await startPaymentHarness();
  ctx = await createTestContext({ STRIPE_SECRET_KEY: pay.simulator.secretKey, STRIPE_API_BASE: pay.apiBase });
  cookie = (await signIn(ctx.app)).cookie;
  admin = as(ctx.app, cookie);
  soap = await product(ctx.app, cookie, 24.5);
});
afterAll(async () => {
  await ctx?.close();
  await pay?.close();
});

async function newStore(name: string, timezone?: string) {
  const res = await admin.post("/api/v1/stores/", { name, ...(timezone ? { timezone } : {}) });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().id as string;
  // Most visits here are never paid, so their shoppers have no card: these stores let them in without one.
  const open = await admin.put(`/api/v1/settings/stores/${id}`, {
    settings: { store: { require_card_at_door: false } },
  });
  expect(open.statusCode, open.body).toBe(200);
  return id;
}
const detailOf = async (visit: string) => {
  const res = await admin.get(`/api/v1/admin/sessions/${visit}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as SessionDetail;
};
const ids = async (query: string) => {
  const res = await admin.get(`/api/v1/admin/sessions?limit=100&${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as SessionRow[]).map((r) => r.id);
};
const enteredAt = (visit: string, at: string) =>
  ctx.app.db.execute(sql`update shopping_sessions set door_opened_at = ${at}::timestamptz where id = ${visit}`);

describe("a paid visit's payment state", () => {
  it("is partly refunded one öre short of the total, and refunded at exactly the total", async () => {
    const store = await newStore("Återbetalt");
    const cent = await product(ctx.app, cookie, 0.01);
    const who = await shopper(ctx.app);
    const { visit, orderId } = await paidVisit(ctx.app, who, store, [
      [soap.barcode, 1],
      [cent.barcode, 1],
    ]);
    expect(await detailOf(visit)).toMatchObject({ payment_state: "paid", total: 24.51, refunded: 0 });
    const lines = (await detailOf(visit)).order!.lines;
    const refund = async (line: string) => {
      const res = await admin.post(`/api/v1/admin/orders/${orderId}/refunds`, {
        idempotency_key: randomUUID(),
        reason: "Returnerad",
        lines: [{ line_id: line, quantity: 1 }],
      });
      expect(res.statusCode, res.body).toBe(201);
    };
    await refund(lines.find((l) => l.total === 24.5)!.id);
    expect(await detailOf(visit)).toMatchObject({ payment_state: "partly_refunded", refunded: 24.5 });
    await refund(lines.find((l) => l.total === 0.01)!.id);
    expect(await detailOf(visit)).toMatchObject({ payment_state: "refunded", refunded: 24.51 });
    const [row] = (await admin.get(`/api/v1/admin/sessions?store_id=${store}`)).json() as SessionRow[];
    expect(row).toMatchObject({ id: visit, payment_state: "refunded", refunded: 24.51, status: "checked_out" });
  });

  it("after a declined charge shows the cart as it is now, not the declined order", async () => {
    const store = await newStore("Nekat");
    const who = await shopper(ctx.app, { card: "pm_card_chargeDeclined" });
    const visit = await shop(ctx.app, who, store, [[soap.barcode, 2]]);
    const declined = await who.call({ method: "POST", url: "/api/v1/checkout", payload: { user_id: who.id } });
    expect(declined.statusCode, declined.body).toBe(402);
    const scanned = await who.call({
      method: "POST",
      url: "/api/v1/cart/scan",
      payload: { session_id: visit, barcode: soap.barcode },
    });
    expect(scanned.statusCode, scanned.body).toBe(200);
    expect(await detailOf(visit)).toMatchObject({
      payment_state: "declined",
      status: "shopping",
      lines: 1,
      items: 3,
      total: 73.5,
    });
    expect((await detailOf(visit)).order).toMatchObject({ state: "declined", total: 49 });
  });
});

describe("a visit's status, in the column and in the filter alike", () => {
  it("ended empty at the exit is checked out; ended empty by the sweep is abandoned", async () => {
    const store = await newStore("Tomma besök");
    const who = await shopper(ctx.app);
    const atExit = await shop(ctx.app, who, store, []);
    const empty = await who.call({ method: "POST", url: "/api/v1/checkout", payload: { user_id: who.id } });
    expect(empty.json().status).toBe("empty");
    const quiet = await shop(ctx.app, await shopper(ctx.app), store, []);
    // As the sweep leaves a quiet empty visit (abandoned-sweep.ts).
    await ctx.app.db.execute(
      sql`update shopping_sessions set state = 'ended_empty', abandoned_at = now() where id = ${quiet}`,
    );
    expect((await detailOf(atExit)).status).toBe("checked_out");
    expect((await detailOf(quiet)).status).toBe("abandoned");
    expect(await ids(`store_id=${store}&status=checked_out`)).toEqual([atExit]);
    expect(await ids(`store_id=${store}&status=abandoned`)).toEqual([quiet]);
  });

  it("a cart once touched is shopping even when emptied again; one never touched is entered", async () => {
    const store = await newStore("Rörda korgar");
    const who = await shopper(ctx.app, { card: null });
    const emptied = await shop(ctx.app, who, store, [[soap.barcode, 1]]);
    const [line] = (await detailOf(emptied)).cart;
    expect((await who.call({ method: "DELETE", url: `/api/v1/cart/item/${line!.id}` })).statusCode).toBe(200);
    const untouched = await shop(ctx.app, await shopper(ctx.app, { card: null }), store, []);
    expect(await detailOf(emptied)).toMatchObject({ status: "shopping", lines: 0, items: 0, total: 0 });
    expect((await detailOf(untouched)).status).toBe("entered");
    expect(await ids(`store_id=${store}&status=shopping`)).toEqual([emptied]);
    expect(await ids(`store_id=${store}&status=entered`)).toEqual([untouched]);
  });
});

describe("entry-time filters", () => {
  it("count a visit entered at exactly `from` or exactly `to`, and not a millisecond outside", async () => {
    const store = await newStore("Exakt");
    const visit = await shop(ctx.app, await shopper(ctx.app, { card: null }), store, []);
    await enteredAt(visit, "2025-03-10T12:00:00.000Z");
    const on = (q: string) => ids(`store_id=${store}&${q}`);
    expect(await on("from=2025-03-10T12:00:00.000Z")).toEqual([visit]);
    expect(await on("to=2025-03-10T12:00:00.000Z")).toEqual([visit]);
    expect(await on("from=2025-03-10T12:00:00.000Z&to=2025-03-10T12:00:00.000Z")).toEqual([visit]);
    expect(await on("from=2025-03-10T12:00:00.001Z")).toEqual([]);
    expect(await on("to=2025-03-10T11:59:59.999Z")).toEqual([]);
  });

  it("put the store's own midnight between two days: 00:00 Stockholm is the new day, a millisecond before is not", async () => {
    const store = await newStore("Midnatt");
    const visit = await shop(ctx.app, await shopper(ctx.app, { card: null }), store, []);
    const on = (q: string) => ids(`store_id=${store}&${q}`);
    // Stockholm is UTC+1 in March: 23:00Z is midnight.
    await enteredAt(visit, "2025-03-10T23:00:00.000Z");
    expect(await on("from=2025-03-11&to=2025-03-11")).toEqual([visit]);
    expect(await on("to=2025-03-10")).toEqual([]);
    await enteredAt(visit, "2025-03-10T22:59:59.999Z");
    expect(await on("from=2025-03-10&to=2025-03-10")).toEqual([visit]);
    expect(await on("from=2025-03-11")).toEqual([]);
  });

  it("find a Tokyo visit early in its day and a Los Angeles visit late in its day, both on another UTC day", async () => {
    const tokyo = await newStore("Tokyo", "Asia/Tokyo");
    const early = await shop(ctx.app, await shopper(ctx.app, { card: null }), tokyo, []);
    // 00:30 on 10 June in Tokyo (UTC+9) is 15:30 on 9 June in UTC.
    await enteredAt(early, "2025-06-09T15:30:00Z");
    expect(await ids(`store_id=${tokyo}&from=2025-06-10&to=2025-06-10`)).toEqual([early]);
    expect(await ids(`store_id=${tokyo}&to=2025-06-09`)).toEqual([]);

    const la = await newStore("Los Angeles", "America/Los_Angeles");
    const late = await shop(ctx.app, await shopper(ctx.app, { card: null }), la, []);
    // 23:30 on 10 June in Los Angeles (UTC−7 in summer) is 06:30 on 11 June in UTC.
    await enteredAt(late, "2025-06-11T06:30:00Z");
    expect(await ids(`store_id=${la}&from=2025-06-10&to=2025-06-10`)).toEqual([late]);
    expect(await ids(`store_id=${la}&from=2025-06-11`)).toEqual([]);
    // Both stores at once: each by its own calendar.
    expect((await ids("from=2025-06-10&to=2025-06-10")).sort()).toEqual([early, late].sort());
  });
});
