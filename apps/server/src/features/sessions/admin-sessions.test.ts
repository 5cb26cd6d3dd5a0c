import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { gtinCheckDigit, type SessionDetail, type SessionRow } from "@glide/contracts";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows, sql } from "../../db/client.ts";
import { type PaymentHarness, startPaymentHarness } from "../../platform/payments/testing.ts";
import { as, createDeviceKey, createTestContext, signIn, signInShopper, type TestContext } from "../../test/harness.ts";
import { ADMIN_COOKIE } from "../admin-auth/admin-auth.hooks.ts";
import { resolveSession } from "../admin-auth/admin-auth.service.ts";
import { sweepAbandoned } from "./abandoned-sweep.ts";
import { idPrefixRange } from "./admin-sessions.service.ts";

let ctx: TestContext;
let pay: PaymentHarness;
let platform: ReturnType<typeof as>;
let storeAdmin: ReturnType<typeof as>;
let storeAdminCookie: string;
let platformCookie: string;
let storeA: string;
let storeB: string;
const doorKeys: Record<string, string> = {};
let gateKeyA: string;
const juice = `731000000601${gtinCheckDigit("731000000601")}`;
const bread = `731000000602${gtinCheckDigit("731000000602")}`;

type Reply = Awaited<ReturnType<TestContext["app"]["inject"]>>;

/** A shopper with a card on file who walks into `storeId` through its door scanner. */
async function shopper(name: string) {
  const { customerId, accessToken } = await signInShopper(ctx.app, name);
  const call = (opts: Omit<InjectOptions, "headers">): Promise<Reply> =>
    ctx.app.inject({ ...opts, headers: { authorization: `Bearer ${accessToken}` } } as InjectOptions);
  const card = await call({
    method: "PUT",
    url: "/api/v1/payment-method",
    payload: { payment_method: "pm_card_visa" },
  });
  expect(card.statusCode, card.body).toBe(200);
  const issue = async (storeId: string) => {
    const entry = await call({ method: "POST", url: "/api/v1/sessions/entry", payload: { store_id: storeId } });
    expect(entry.statusCode, entry.body).toBe(200);
    return entry.json() as { session_id: string; session_token: string };
  };
  const enter = async (storeId: string) => {
    const { session_id, session_token } = await issue(storeId);
    const door = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/sessions/door/scan",
      headers: { authorization: `Device ${doorKeys[storeId]}` },
      payload: { session_id, session_token, store_id: storeId },
    });
    expect(door.statusCode, door.body).toBe(200);
    return session_id;
  };
  const scan = async (sessionId: string, barcode: string, scanId = randomUUID()) => {
    const res = await call({
      method: "POST",
      url: "/api/v1/cart/scan",
      payload: { session_id: sessionId, barcode, scan_id: scanId },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { item: { id: string; quantity: number } };
  };
  return { customerId, call, issue, enter, scan };
}

const detailOf = async (id: string, who = platform) => {
  const res = await who.get(`/api/v1/admin/sessions/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as SessionDetail;
};
const list = async (query: string, who = platform) => {
  const res = await who.get(`/api/v1/admin/sessions?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return { rows: res.json() as SessionRow[], total: Number(res.headers["x-total-count"]) };
};

beforeAll(async () => {
  pay = await startPaymentHarness();
  ctx = await createTestContext({ STRIPE_SECRET_KEY: pay.simulator.secretKey, STRIPE_API_BASE: pay.apiBase });
  platformCookie = (await signIn(ctx.app)).cookie;
  platform = as(ctx.app, platformCookie);
  storeA = (await platform.post("/api/v1/stores/", { name: "Sessionsbutiken" })).json().id;
  storeB = (await platform.post("/api/v1/stores/", { name: "Grannbutiken" })).json().id;
  storeAdminCookie = (await signIn(ctx.app, "store_admin", [storeA])).cookie;
  storeAdmin = as(ctx.app, storeAdminCookie);
  doorKeys[storeA] = (await createDeviceKey(ctx.app, storeA, "door_scanner")).key;
  doorKeys[storeB] = (await createDeviceKey(ctx.app, storeB, "door_scanner")).key;
  gateKeyA = (await createDeviceKey(ctx.app, storeA, "exit_gate")).key;
  for (const [sku, name, price, barcode] of [
    ["ses-juice", "Apelsinjuice", 24.9, juice],
    ["ses-bread", "Surdegsbröd", 39.5, bread],
  ] as const) {
    const res = await platform.post("/api/v1/products/", { sku, name, price, barcode });
    expect(res.statusCode, res.body).toBe(201);
  }
});
afterAll(async () => {
  await ctx?.close();
  await pay?.close();
});

describe("a visit's timeline", () => {
  it("records entry, door, each scan once, changes and the exit with their sources, up to the receipt", async () => {
    const ada = await shopper("Ada Timeline");
    const visit = await ada.enter(storeA);
    let row = (await detailOf(visit)) as SessionRow;
    expect(row).toMatchObject({ status: "entered", shopper_name: "Ada Timeline", items: 0, payment_state: "none" });

    const scanId = randomUUID();
    const first = await ada.scan(visit, juice, scanId);
    // The same scan sent again counts once and records nothing.
    await ada.scan(visit, juice, scanId);
    await ada.scan(visit, juice);
    const loaf = await ada.scan(visit, bread);
    const changed = await ada.call({
      method: "PUT",
      url: `/api/v1/cart/item/${first.item.id}`,
      payload: { quantity: 3 },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const removed = await ada.call({ method: "DELETE", url: `/api/v1/cart/item/${loaf.item.id}` });
    expect(removed.statusCode, removed.body).toBe(200);

    row = await detailOf(visit);
    expect(row).toMatchObject({ status: "shopping", lines: 1, items: 3, total: 74.7, payment_state: "none" });

    const token = await ada.call({ method: "GET", url: "/api/v1/exit/token" });
    const gate = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/exit/scan",
      headers: { authorization: `Device ${gateKeyA}` },
      payload: { token: token.json().token },
    });
    expect(gate.statusCode, gate.body).toBe(200);
    const receiptNumber = gate.json().receipt_number as number;

    const detail = await detailOf(visit);
    expect(detail).toMatchObject({
      status: "checked_out",
      payment_state: "paid",
      total: 74.7,
      receipt_number: receiptNumber,
      refunded: 0,
      spot_check: null,
      dispute: null,
    });
    expect(detail.exited_at).not.toBeNull();
    expect(detail.timeline.map((e) => [e.kind, e.source])).toEqual([
      ["entry_issued", "phone"],
      ["door_opened", "door"],
      ["item_added", "phone"],
      ["item_added", "phone"],
      ["item_added", "phone"],
      ["quantity_changed", "phone"],
      ["item_removed", "phone"],
      ["exit_qr", "exit_gate"],
      ["checkout", "system"],
      ["charged", "system"],
    ]);
    const [entry, door, added, , addedBread, quantity, gone, , , charged] = detail.timeline;
    expect(entry!.staff_email).toBeNull();
    expect(door!.detail).toMatchObject({ via: "simulated", caller: "scanner" });
    expect(added!.detail).toMatchObject({ product: "Apelsinjuice", quantity: 1, line_quantity: 1, barcode: juice });
    expect(addedBread!.detail).toMatchObject({ product: "Surdegsbröd", barcode: bread });
    expect(quantity!.detail).toMatchObject({ product: "Apelsinjuice", from: 2, to: 3 });
    expect(gone!.detail).toMatchObject({ product: "Surdegsbröd", quantity: 1 });
    expect(charged!.detail).toMatchObject({ amount: 74.7, receipt_number: receiptNumber, settled_later: false });
    expect(detail.order?.lines).toEqual([
      expect.objectContaining({ name: "Apelsinjuice", quantity: 3, total: 74.7, refunded_quantity: 0, refunded: 0 }),
    ]);
    expect(detail.cart).toHaveLength(1);
  });

  it("records the recognition worker's changes as Camera and the face check as Phone", async () => {
    const res = await platform.post(`/api/v1/stores/${storeA}/modules/ai_product_recognition`, { enabled: true });
    expect(res.statusCode, res.body).toBe(200);
    const worker = (await createDeviceKey(ctx.app, storeA, "camera_worker")).key;
    const products = (await platform.get(`/api/v1/products/?search=${juice}`)).json() as { id: string }[];
    const gus = await shopper("Gus Kamera");
    const visit = await gus.enter(storeA);
    const sighting = (action: "add" | "remove") =>
      ctx.app.inject({
        method: "POST",
        url: "/api/v1/cart/worker",
        headers: { authorization: `Device ${worker}` },
        payload: { session_id: visit, product_id: products[0]!.id, action, event_id: randomUUID() },
      });
    for (const action of ["add", "add", "remove"] as const) expect((await sighting(action)).statusCode).toBe(200);
    const face = await gus.call({ method: "POST", url: "/api/v1/face/verify", payload: { user_id: gus.customerId } });
    expect(face.json()).toMatchObject({ status: "not_verified", reason: "module_off" });

    const detail = await detailOf(visit);
    expect(detail.timeline.slice(2).map((e) => [e.kind, e.source, e.detail])).toEqual([
      ["item_added", "camera_worker", expect.objectContaining({ product: "Apelsinjuice", quantity: 1 })],
      ["item_added", "camera_worker", expect.objectContaining({ product: "Apelsinjuice" })],
      ["quantity_changed", "camera_worker", expect.objectContaining({ from: 2, to: 1 })],
      ["face_check", "phone", { status: "not_verified", reason: "module_off" }],
    ]);
  });

  it("records a cancelled or replaced entry code, and a QR-only visit is not listed", async () => {
    const bo = await shopper("Bo Kod");
    const first = await bo.issue(storeA);
    const second = await bo.issue(storeA);
    const cancel = await bo.call({ method: "DELETE", url: `/api/v1/sessions/entry/${second.session_id}` });
    expect(cancel.statusCode).toBe(204);
    // Cancelling again is fine and is not a second event.
    await bo.call({ method: "DELETE", url: `/api/v1/sessions/entry/${second.session_id}` });
    const events = (id: string) =>
      queryRows<{ kind: string; detail: { reason?: string } | null }>(
        ctx.app.db,
        sql`select kind, source, detail from session_events where session_id = ${id} order by id`,
      );
    expect((await events(first.session_id)).map((e) => [e.kind, e.detail?.reason ?? null])).toEqual([
      ["entry_issued", null],
      ["entry_revoked", "replaced"],
    ]);
    expect((await events(second.session_id)).map((e) => [e.kind, e.detail?.reason ?? null])).toEqual([
      ["entry_issued", null],
      ["entry_revoked", "cancelled"],
    ]);
    expect((await platform.get(`/api/v1/admin/sessions/${first.session_id}`)).statusCode).toBe(404);
    expect((await list(`search=${second.session_id}`)).total).toBe(0);
  });
});

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

describe("GET /api/v1/admin/sessions/live", () => {
  /** Reads server-sent events from a real HTTP connection until `until` holds or the time is up. */
  async function watch(base: string, cookie: string | null) {
    const abort = new AbortController();
    const res = await fetch(`${base}/api/v1/admin/sessions/live`, {
      headers: { accept: "text/event-stream", ...(cookie ? { cookie: `${ADMIN_COOKIE}=${cookie}` } : {}) },
      signal: abort.signal,
    });
    const events: { store_id: string; session_id: string; kind: string }[] = [];
    let text = "";
    const reading = (async () => {
      if (!res.ok || !res.body) return;
      const decoder = new TextDecoder();
      try {
        for await (const chunk of res.body) {
          text += decoder.decode(chunk as Uint8Array, { stream: true });
          let end = text.indexOf("\n\n");
          while (end >= 0) {
            const block = text.slice(0, end);
            text = text.slice(end + 2);
            if (block.startsWith("data: ")) events.push(JSON.parse(block.slice(6)));
            end = text.indexOf("\n\n");
          }
        }
      } catch {
        // Aborted by the test.
      }
    })();
    const until = async (done: () => boolean) => {
      const deadline = Date.now() + 5_000;
      while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
      return done();
    };
    return {
      res,
      events,
      until,
      close: async () => {
        abort.abort();
        await reading;
      },
    };
  }

  it("streams changes of the stores the admin may see, and only those", async () => {
    await ctx.app.listen({ port: 0, host: "127.0.0.1" });
    await ctx.app.bus.ready();
    const base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;

    const anonymous = await fetch(`${base}/api/v1/admin/sessions/live`, { headers: { accept: "text/event-stream" } });
    expect(anonymous.status).toBe(401);
    const notAStreamClient = await platform.get("/api/v1/admin/sessions/live");
    expect(notAStreamClient.statusCode).toBe(406);

    const everyone = await watch(base, platformCookie);
    const onlyA = await watch(base, storeAdminCookie);
    expect(everyone.res.status).toBe(200);
    expect(everyone.res.headers.get("content-type")).toContain("text/event-stream");

    const eve = await shopper("Eve Live");
    const visitB = await eve.enter(storeB);
    const fay = await shopper("Fay Live");
    const visitA = await fay.enter(storeA);
    await fay.scan(visitA, juice);

    expect(
      await everyone.until(
        () =>
          everyone.events.some((e) => e.session_id === visitB && e.kind === "door_opened") &&
          everyone.events.some((e) => e.session_id === visitA && e.kind === "item_added"),
      ),
    ).toBe(true);
    expect(await onlyA.until(() => onlyA.events.some((e) => e.session_id === visitA && e.kind === "item_added"))).toBe(
      true,
    );
    expect(onlyA.events.find((e) => e.session_id === visitB)).toBeUndefined();
    expect(onlyA.events.every((e) => e.store_id === storeA)).toBe(true);
    expect(everyone.events.find((e) => e.session_id === visitA && e.kind === "door_opened")).toMatchObject({
      store_id: storeA,
    });

    await everyone.close();
    await onlyA.close();
  });
});

describe("the live feed's heartbeat", () => {
  it("checks the sign-in without counting as activity, so an open screen still signs out when idle", async () => {
    const admin = await signIn(ctx.app);
    const backdate = () =>
      ctx.app.db.execute(sql`update admin_sessions set last_seen_at = now() - interval '5 minutes'
        where admin_user_id = ${admin.id}`);
    const lastSeen = async () =>
      (
        await queryRows<{ age: number }>(
          ctx.app.db,
          sql`select extract(epoch from now() - last_seen_at)::int as age from admin_sessions
            where admin_user_id = ${admin.id}`,
        )
      )[0]?.age;
    await backdate();
    expect(await resolveSession(ctx.app.db, admin.cookie, { touch: false })).toMatchObject({ id: admin.id });
    expect(await lastSeen()).toBeGreaterThanOrEqual(299);
    // An ordinary request is activity.
    expect(await resolveSession(ctx.app.db, admin.cookie)).toMatchObject({ id: admin.id });
    expect(await lastSeen()).toBeLessThan(5);
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
