import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { queryRows, sql } from "../../db/client.ts";
import { as, createDeviceKey, signIn, signInShopper } from "../../test/harness.ts";
import { sweepAbandoned } from "./abandoned-sweep.ts";
import {
  bread,
  ctx,
  detailOf,
  doorKeys,
  juice,
  list,
  platform,
  shopper,
  storeA,
  storeAdmin,
  storeB,
  useSessionsConsole,
} from "./admin-sessions.fixtures.ts";
import { idPrefixRange } from "./session-list.ts";

/**
 * A visit's detail, then the console's list of visits (which counts the
 * visits made before it in this file): filters, status, pages, and searching
 * by the start of an id.
 */
useSessionsConsole();

describe("a visit's detail", () => {
  it("shows the cart's lines, the order with its card and lines, refunds, disputes and the spot check as recorded", async () => {
    // A store of its own, so its disputed and checked visit is in no other test's lists.
    const storeC = (await platform.post("/api/v1/stores/", { name: "Detaljbutiken" })).json().id as string;
    doorKeys[storeC] = (await createDeviceKey(ctx.app, storeC, "door_scanner")).key;
    const gus = await shopper("Gus Granskad");
    const visit = await gus.enter(storeC);
    await gus.scan(visit, juice);
    await gus.scan(visit, juice);
    await gus.scan(visit, bread);
    const inCart = await detailOf(visit);
    expect(inCart.cart.map((l) => [l.name, l.quantity, l.unit_price, l.total])).toEqual([
      ["Apelsinjuice", 2, 24.9, 49.8],
      ["Surdegsbröd", 1, 39.5, 39.5],
    ]);
    expect([inCart.order, inCart.refunds, inCart.disputes, inCart.spot_check_detail]).toEqual([null, [], [], null]);

    const paid = await gus.call({ method: "POST", url: "/api/v1/checkout", payload: { user_id: gus.customerId } });
    expect(paid.statusCode, paid.body).toBe(200);
    const receipt = paid.json().receipt as { id: string; number: number };
    const [juiceLine] = (await detailOf(visit)).order!.lines;
    const refund = await platform.post(`/api/v1/admin/orders/${receipt.id}/refunds`, {
      idempotency_key: randomUUID(),
      reason: "Trasig förpackning",
      lines: [{ line_id: juiceLine!.id, quantity: 1 }],
    });
    expect(refund.statusCode, refund.body).toBe(201);
    const dispute = await gus.call({
      method: "POST",
      url: `/api/v1/receipts/${receipt.id}/dispute`,
      payload: { message: "Brödet fanns inte" },
    });
    expect(dispute.statusCode, dispute.body).toBe(201);
    const [check] = await queryRows<{ id: string }>(
      ctx.app.db,
      sql`insert into spot_checks (session_id, order_id, store_id, customer_id)
          values (${visit}, ${receipt.id}, ${storeC}, ${gus.customerId}) returning id`,
    );

    const detail = await detailOf(visit);
    expect(detail.order).toMatchObject({
      id: receipt.id,
      state: "paid",
      receipt_number: receipt.number,
      total: 89.3,
      refunded: 24.9,
      card: { brand: "visa", last4: "4242" },
      failure_code: null,
    });
    expect(Date.parse(detail.order!.paid_at!)).not.toBeNaN();
    expect(detail.order!.lines.map((l) => [l.name, l.quantity, l.total, l.refunded_quantity, l.refunded])).toEqual([
      ["Apelsinjuice", 2, 49.8, 1, 24.9],
      ["Surdegsbröd", 1, 39.5, 0, 0],
    ]);
    expect(detail.refunds).toEqual([
      {
        id: refund.json().refunds[0].id,
        amount: 24.9,
        reason: "Trasig förpackning",
        state: "succeeded",
        source: expect.any(String),
        staff_email: expect.stringContaining("@"),
        created_at: expect.any(String),
      },
    ]);
    expect(detail.disputes).toEqual([
      {
        id: dispute.json().id,
        state: "open",
        message: "Brödet fanns inte",
        resolution: null,
        created_at: expect.any(String),
        resolved_at: null,
      },
    ]);
    expect(detail.spot_check_detail).toEqual({
      id: check!.id,
      outcome: null,
      note: null,
      flagged_at: expect.any(String),
      decided_at: null,
      staff_email: null,
    });
    for (const at of [
      detail.refunds[0]!.created_at,
      detail.disputes[0]!.created_at,
      detail.spot_check_detail!.flagged_at,
    ])
      expect(Date.parse(at)).not.toBeNaN();

    const decided = await platform.put(`/api/v1/admin/spot-checks/${check!.id}/outcome`, {
      idempotency_key: randomUUID(),
      outcome: "ok",
      note: "Allt stämde",
    });
    expect(decided.statusCode, decided.body).toBe(200);
    expect((await detailOf(visit)).spot_check_detail).toMatchObject({
      outcome: "ok",
      note: "Allt stämde",
      staff_email: expect.stringContaining("@"),
    });
  });
});

describe("GET /api/v1/admin/sessions", () => {
  let inB: string;
  let inA: string;
  beforeAll(async () => {
    const cid = await shopper("Cecilia 100%_Rabatt");
    inA = await cid.enter(storeA);
    await cid.scan(inA, juice);
    const dan = await shopper("Dan Granne");
    inB = await dan.enter(storeB);
  });

  it("lists visits newest first with X-Total-Count, filters by store and status, and pages", async () => {
    const all = await list("limit=100");
    expect(all.total).toBeGreaterThanOrEqual(3);
    const times = all.rows.map((r) => r.entered_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(all.rows.every((r) => !("personal_number" in r))).toBe(true);

    const b = await list(`store_id=${storeB}`);
    expect(b.rows.map((r) => r.id)).toEqual([inB]);
    expect(b.rows[0]).toMatchObject({ status: "entered", store: { id: storeB, name: "Grannbutiken" } });

    const shopping = await list(`status=shopping&store_id=${storeA}`);
    expect(shopping.rows.map((r) => r.id)).toContain(inA);
    expect(shopping.rows.every((r) => r.status === "shopping")).toBe(true);
    expect((await list(`status=entered&store_id=${storeA}`)).rows.map((r) => r.id)).not.toContain(inA);

    const page1 = await list("limit=1&offset=0");
    const page2 = await list("limit=1&offset=1");
    expect(page1.rows).toHaveLength(1);
    expect(page2.rows[0]!.id).not.toBe(page1.rows[0]!.id);
    expect(page1.total).toBe(all.total);
  });

  it("lists abandoned, left unpaid and disputed visits under their own status, and a settled dispute as checked out", async () => {
    const eve = await shopper("Eva Lämnade");
    const left = await eve.enter(storeA);
    await eve.scan(left, bread);
    const ebba = await shopper("Ebba Tomhänt");
    const quiet = await ebba.enter(storeA);
    await ctx.app.db.execute(
      sql`update shopping_sessions set last_activity_at = now() - interval '2 hours' where id in (${left}, ${quiet})`,
    );
    await sweepAbandoned(ctx.app);
    const abandoned = await list(`status=abandoned&store_id=${storeA}`);
    expect(abandoned.rows.map((r) => r.id)).toEqual([quiet]);
    expect(abandoned.rows[0]).toMatchObject({ status: "abandoned", payment_state: "none", items: 0, total: 0 });
    const unpaid = await list(`status=left_unpaid&store_id=${storeA}`);
    expect(unpaid.rows.map((r) => r.id)).toEqual([left]);
    expect(unpaid.rows[0]).toMatchObject({ status: "left_unpaid", payment_state: "none", items: 1 });
    expect(unpaid.rows[0]!.total).toBeGreaterThan(0);
    for (const status of ["shopping", "entered", "checked_out"])
      expect((await list(`status=${status}&store_id=${storeA}`)).rows.map((r) => r.id)).not.toContain(left);

    const fia = await shopper("Fia Invänder");
    const paidVisit = await fia.enter(storeA);
    await fia.scan(paidVisit, juice);
    const paid = await fia.call({ method: "POST", url: "/api/v1/checkout", payload: { user_id: fia.customerId } });
    expect(paid.statusCode, paid.body).toBe(200);
    const receiptId = paid.json().receipt.id as string;
    const opened = await fia.call({
      method: "POST",
      url: `/api/v1/receipts/${receiptId}/dispute`,
      payload: { message: "Juicen drogs två gånger" },
    });
    expect(opened.statusCode, opened.body).toBe(201);
    const disputed = await list(`status=disputed&store_id=${storeA}`);
    expect(disputed.rows.map((r) => r.id)).toEqual([paidVisit]);
    expect(disputed.rows[0]).toMatchObject({ dispute: "open", payment_state: "paid" });
    expect((await list(`status=checked_out&store_id=${storeA}`)).rows.map((r) => r.id)).not.toContain(paidVisit);

    const answered = await platform.put(`/api/v1/admin/disputes/${opened.json().id}`, {
      state: "rejected",
      resolution: "Kvittot stämmer",
    });
    expect(answered.statusCode, answered.body).toBe(200);
    expect((await list(`status=disputed&store_id=${storeA}`)).total).toBe(0);
    const after = (await list(`status=checked_out&store_id=${storeA}`)).rows.find((r) => r.id === paidVisit);
    expect(after).toMatchObject({ status: "checked_out", dispute: "rejected" });
  });

  it("counts up to 10,000 visits and then says there are more, and pages no further", async () => {
    const store = (await platform.post("/api/v1/stores/", { name: "Storbutiken" })).json().id as string;
    const { customerId } = await signInShopper(ctx.app, "Många Besök");
    const addVisits = (from: number, to: number) =>
      ctx.app.db.execute(
        sql`insert into shopping_sessions (store_id, customer_id, entry_token_hash, entry_expires_at, door_opened_at,
              checked_out_at)
            select ${store}, ${customerId}, 'many-' || v, now(), now() - v * interval '1 second', now()
            from generate_series(${from}::int, ${to}::int) v`,
      );
    await addVisits(1, 10_000);
    const exactly = await platform.get(`/api/v1/admin/sessions?store_id=${store}&limit=1`);
    expect(exactly.headers["x-total-count"]).toBe("10000");
    expect(exactly.headers["x-total-count-capped"]).toBeUndefined();
    await addVisits(10_001, 10_001);
    const more = await platform.get(`/api/v1/admin/sessions?store_id=${store}&limit=1`);
    expect(more.headers["x-total-count"]).toBe("10000");
    expect(more.headers["x-total-count-capped"]).toBe("true");
    // The last page still within the count, and not one beyond it.
    const last = await platform.get(`/api/v1/admin/sessions?store_id=${store}&limit=1&offset=10000`);
    expect(last.statusCode).toBe(200);
    expect(last.json()).toHaveLength(1);
    const beyond = await platform.get(`/api/v1/admin/sessions?store_id=${store}&limit=1&offset=10001`);
    expect(beyond.statusCode).toBe(400);
    expect(beyond.json().detail).toContain("narrow the filters");
    await ctx.app.db.execute(sql`delete from shopping_sessions where store_id = ${store}`);
  });

  it("searches shopper names literally (% and _), session ids and receipt numbers", async () => {
    expect((await list("search=100%25_rab")).rows.map((r) => r.id)).toEqual([inA]);
    // % and _ match only themselves: "100%" is not "anything after 1".
    expect((await list("search=1%25%25")).total).toBe(0);
    expect((await list("search=Cecilia_")).total).toBe(0);
    expect((await list(`search=${inB.slice(0, 8)}`)).rows.map((r) => r.id)).toEqual([inB]);
    const paid = (await list("status=checked_out")).rows.find((r) => r.receipt_number !== null)!;
    const byReceipt = await list(`search=${paid.receipt_number}&store_id=${paid.store.id}`);
    expect(byReceipt.rows.map((r) => r.id)).toContain(paid.id);
  });

  it("filters by entry day in the store's own time zone, both ends counted", async () => {
    await ctx.app.db.execute(
      sql`update shopping_sessions set door_opened_at = '2025-03-10 12:00:00+00' where id = ${inB}`,
    );
    const on = (q: string) => list(`store_id=${storeB}&${q}`).then((r) => r.rows.map((x) => x.id));
    expect(await on("from=2025-03-10&to=2025-03-10")).toEqual([inB]);
    expect(await on("from=2025-03-11")).toEqual([]);
    expect(await on("to=2025-03-09")).toEqual([]);
    expect(await on("from=2025-03-10T11:59:00Z&to=2025-03-10T12:01:00Z")).toEqual([inB]);
    expect(await on("from=2025-03-10T12:01:00Z")).toEqual([]);
    expect(await on("to=2025-03-10T11:59:00Z")).toEqual([]);
    // 23:30 in UTC is already the next day in Stockholm: a day is the store's, not UTC's.
    await ctx.app.db.execute(
      sql`update shopping_sessions set door_opened_at = '2025-03-10 23:30:00+00' where id = ${inB}`,
    );
    expect(await on("from=2025-03-11&to=2025-03-11")).toEqual([inB]);
    expect(await on("to=2025-03-10")).toEqual([]);
    await ctx.app.db.execute(
      sql`update shopping_sessions set door_opened_at = '2025-03-10 22:30:00+00' where id = ${inB}`,
    );
    expect(await on("to=2025-03-10")).toEqual([inB]);
    expect(await on("from=2025-03-11")).toEqual([]);
  });

  it("shows a store admin only their stores: another store's id or visit is 403", async () => {
    const mine = await list("limit=100", storeAdmin);
    expect(mine.rows.length).toBeGreaterThan(0);
    expect(mine.rows.every((r) => r.store.id === storeA)).toBe(true);
    expect((await storeAdmin.get(`/api/v1/admin/sessions?store_id=${storeB}`)).statusCode).toBe(403);
    expect((await storeAdmin.get(`/api/v1/admin/sessions/${inB}`)).statusCode).toBe(403);
    expect((await storeAdmin.get(`/api/v1/admin/sessions/${inA}`)).statusCode).toBe(200);
    const both = as(ctx.app, (await signIn(ctx.app, "store_admin", [storeA, storeB])).cookie);
    const seen = new Set((await list("limit=100", both)).rows.map((r) => r.store.id));
    expect(seen).toEqual(new Set([storeA, storeB]));
    expect((await platform.get(`/api/v1/admin/sessions/${inB}`)).statusCode).toBe(200);
    const unknown = await platform.get(`/api/v1/admin/sessions/${randomUUID()}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().detail).toBeTruthy();
    expect((await as(ctx.app, null).get("/api/v1/admin/sessions")).statusCode).toBe(401);
  });

  it("answers bad filters with a 4xx that names the field", async () => {
    for (const [query, field] of [
      ["status=sleeping", "status"],
      ["limit=0", "limit"],
      ["limit=101", "limit"],
      ["offset=-1", "offset"],
      ["from=2025-02-30", "from"],
      ["to=yesterday", "to"],
      ["store_id=abc", "store_id"],
    ]) {
      const res = await platform.get(`/api/v1/admin/sessions?${query}`);
      expect(res.statusCode, query).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, query).toBeLessThan(500);
      expect(res.json().detail, query).toContain(field);
    }
  });
});

describe("searching by the start of a session id", () => {
  it("turns a prefix into the range of ids that start with it, in either case", () => {
    expect(idPrefixRange("5E55")).toEqual({
      low: "5e550000-0000-0000-0000-000000000000",
      high: "5e55ffff-ffff-ffff-ffff-ffffffffffff",
    });
    expect(idPrefixRange("5e550000-")).toEqual({
      low: "5e550000-0000-0000-0000-000000000000",
      high: "5e550000-ffff-ffff-ffff-ffffffffffff",
    });
    const whole = "5e550000-0000-0000-0000-00000013128d";
    expect(idPrefixRange(whole)).toEqual({ low: whole, high: whole });
  });

  it("is no id range for text that no id starts with", () => {
    for (const text of ["", "Anna", "5e55-", "5e5500000", "12%", "5e550000_0000", `${"a".repeat(8)}-${"b".repeat(29)}`])
      expect(idPrefixRange(text), text).toBeNull();
  });
});
