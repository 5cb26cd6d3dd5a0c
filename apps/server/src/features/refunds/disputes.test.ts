import { randomUUID } from "node:crypto";
import { disputeSchema, receiptSchema } from "@glide/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows, sql } from "../../db/client.ts";
import { paidVisit, product, shopper, type TestShopper } from "../../test/factories.ts";
import { as, createTestContext, listenToSessions, signIn, type TestContext } from "../../test/harness.ts";
import { type PaymentHarness, startPaymentHarness } from "../../test/payments.ts";

let ctx: TestContext;
let pay: PaymentHarness;
let admin: ReturnType<typeof as>;
let store: string;
let otherStore: string;
let tea: Awaited<ReturnType<typeof product>>;

beforeAll(async () => {
  pay = await startPaymentHarness();
  ctx = await createTestContext({ STRIPE_SECRET_KEY: pay.simulator.secretKey, STRIPE_API_BASE: pay.apiBase });
  const cookie = (await signIn(ctx.app)).cookie;
  admin = as(ctx.app, cookie);
  store = (await admin.post("/api/v1/stores/", { name: "Tvistbutiken" })).json().id;
  otherStore = (await admin.post("/api/v1/stores/", { name: "Andra butiken" })).json().id;
  tea = await product(ctx.app, cookie, 29.9);
});
afterAll(async () => {
  await ctx?.close();
  await pay?.close();
});

const dispute = (who: TestShopper, orderId: string, message: unknown = "Jag tog bara ett paket te.") =>
  who.call({ method: "POST", url: `/api/v1/receipts/${orderId}/dispute`, payload: { message } });

describe("a shopper's dispute", () => {
  it("is opened on their own receipt, once at a time, and shows on the receipt with staff's answer", async () => {
    const who = await shopper(ctx.app);
    const { orderId, visit } = await paidVisit(ctx.app, who, store, [[tea.barcode, 2]]);
    const opened = await dispute(who, orderId);
    expect(opened.statusCode, opened.body).toBe(201);
    expect(opened.json()).toMatchObject({ state: "open", message: "Jag tog bara ett paket te.", resolution: null });
    const again = await dispute(who, orderId, "Igen");
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toMatch(/^Du har redan ett öppet ärende/);

    const listed = await admin.get(`/api/v1/admin/disputes?store_id=${store}&state=open`);
    expect(listed.headers["x-total-count"]).toBe("1");
    const [row] = listed.json().map((d: unknown) => disputeSchema.parse(d));
    expect(row).toMatchObject({
      order_id: orderId,
      session_id: visit,
      store_name: "Tvistbutiken",
      customer_name: "Rut Kund",
    });

    const resolved = await admin.put(`/api/v1/admin/disputes/${row.id}`, {
      state: "resolved",
      resolution: "Vi betalar tillbaka ett te.",
    });
    expect(resolved.statusCode, resolved.body).toBe(200);
    expect(resolved.json()).toMatchObject({ state: "resolved", resolution: "Vi betalar tillbaka ett te." });
    const twice = await admin.put(`/api/v1/admin/disputes/${row.id}`, { state: "rejected", resolution: "Nej" });
    expect(twice.statusCode).toBe(409);

    const receipt = receiptSchema.parse((await who.call({ method: "GET", url: `/api/v1/receipts/${orderId}` })).json());
    expect(receipt.dispute).toMatchObject({ state: "resolved", resolution: "Vi betalar tillbaka ett te." });
    expect((await who.call({ method: "GET", url: "/api/v1/receipts" })).json()[0].dispute).toEqual({
      state: "resolved",
      resolution: "Vi betalar tillbaka ett te.",
    });
    // Closed: a new dispute may be opened.
    expect((await dispute(who, orderId, "Nu är det fel igen")).statusCode).toBe(201);

    const events = await queryRows<{ kind: string; source: string }>(
      ctx.app.db,
      sql`select kind, source from session_events where session_id = ${visit} and kind like 'dispute%' order by id`,
    );
    expect(events).toEqual([
      { kind: "dispute", source: "phone" },
      { kind: "dispute_resolved", source: "staff" },
      { kind: "dispute", source: "phone" },
    ]);
    const audit = await queryRows<{ after: { state: string } }>(
      ctx.app.db,
      sql`select after from audit_log where action = 'dispute.resolve' and entity_id = ${row.id}`,
    );
    expect(audit.map((a) => a.after.state)).toEqual(["resolved"]);
  });

  it("is refused on another shopper's receipt and on one that does not exist", async () => {
    const owner = await shopper(ctx.app);
    const stranger = await shopper(ctx.app, { card: null });
    const { orderId } = await paidVisit(ctx.app, owner, store, [[tea.barcode, 1]]);
    expect((await dispute(stranger, orderId)).statusCode).toBe(403);
    expect((await dispute(stranger, randomUUID())).statusCode).toBe(404);
    for (const message of ["", "   ", "x".repeat(1001), 5]) {
      const res = await dispute(owner, orderId, message);
      expect(res.statusCode, String(message)).toBe(422);
      expect(res.json().detail).toBeTruthy();
    }
    expect((await dispute(owner, orderId, "x".repeat(1000))).statusCode).toBe(201);
  });
});

describe("disputes in the console", () => {
  it("are listed per store, by state, with paging, and only for the admin's stores", async () => {
    const who = await shopper(ctx.app);
    const there = await paidVisit(ctx.app, who, otherStore, [[tea.barcode, 1]]);
    expect((await dispute(who, there.orderId)).statusCode).toBe(201);
    const storeAdmin = as(ctx.app, (await signIn(ctx.app, "store_admin", [store])).cookie);
    const mine = await storeAdmin.get("/api/v1/admin/disputes");
    expect(mine.statusCode).toBe(200);
    expect(mine.json().every((d: { store_id: string }) => d.store_id === store)).toBe(true);
    expect(mine.json().some((d: { order_id: string }) => d.order_id === there.orderId)).toBe(false);
    expect((await storeAdmin.get(`/api/v1/admin/disputes?store_id=${otherStore}`)).statusCode).toBe(403);
    const [theirs] = (await admin.get(`/api/v1/admin/disputes?store_id=${otherStore}`)).json();
    expect(
      (await storeAdmin.put(`/api/v1/admin/disputes/${theirs.id}`, { state: "rejected", resolution: "Nej" }))
        .statusCode,
    ).toBe(403);
    expect(
      (await admin.put(`/api/v1/admin/disputes/${randomUUID()}`, { state: "rejected", resolution: "Nej" })).statusCode,
    ).toBe(404);
    expect(
      (await admin.put(`/api/v1/admin/disputes/${theirs.id}`, { state: "open", resolution: "Nej" })).statusCode,
    ).toBe(422);

    const all = await admin.get("/api/v1/admin/disputes?limit=1&offset=1");
    expect(all.json()).toHaveLength(1);
    expect(Number(all.headers["x-total-count"])).toBeGreaterThanOrEqual(3);
    const resolved = (await admin.get("/api/v1/admin/disputes?state=resolved")).json();
    expect(resolved.every((d: { state: string }) => d.state === "resolved")).toBe(true);
    expect((await admin.get("/api/v1/admin/disputes?state=maybe")).statusCode).toBe(400);
  });
});

const eventsOf = (visit: string) =>
  queryRows<{ kind: string; source: string; admin_id: string | null; detail: unknown }>(
    ctx.app.db,
    sql`select kind, source, admin_id, detail from session_events where session_id = ${visit} and kind like 'dispute%' order by id`,
  );
const lastActivityOf = async (visit: string) =>
  new Date(
    (
      await queryRows<{ last_activity_at: Date | string }>(
        ctx.app.db,
        sql`select last_activity_at from shopping_sessions where id = ${visit}`,
      )
    )[0]!.last_activity_at,
  ).toISOString();
const auditOf = (disputeId: string) =>
  queryRows<{ entity_type: string; store_id: string | null; summary: string; before: unknown; after: unknown }>(
    ctx.app.db,
    sql`select entity_type, store_id, summary, before, after from audit_log
        where action = 'dispute.resolve' and entity_id = ${disputeId}`,
  );
const answer = (id: string, body: { state: string; resolution: string }, who = admin) =>
  who.put(`/api/v1/admin/disputes/${id}`, body);

describe("a dispute on the visit's timeline", () => {
  it("is the shopper's event, not their activity, announced once; a second one is refused in Swedish", async () => {
    const bus = await listenToSessions(ctx.app);
    try {
      const who = await shopper(ctx.app);
      const { orderId, visit } = await paidVisit(ctx.app, who, store, [[tea.barcode, 1]]);
      await ctx.app.db.execute(
        sql`update shopping_sessions set last_activity_at = '2020-01-01T00:00:00Z' where id = ${visit}`,
      );
      const opened = await dispute(who, orderId, "  Teet var slut.  ");
      expect(opened.statusCode, opened.body).toBe(201);
      const { id, created_at } = opened.json();
      expect(opened.json()).toEqual({
        id,
        state: "open",
        message: "Teet var slut.",
        resolution: null,
        created_at,
        resolved_at: null,
      });
      expect(new Date(created_at).toISOString()).toBe(created_at);

      const again = await dispute(who, orderId, "Igen");
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({
        code: "dispute_open",
        detail: "Du har redan ett öppet ärende om det här kvittot. Vi hör av oss när vi har tittat på det.",
      });

      expect(await eventsOf(visit)).toEqual([
        { kind: "dispute", source: "phone", admin_id: null, detail: { dispute_id: id } },
      ]);
      expect(await lastActivityOf(visit)).toBe("2020-01-01T00:00:00.000Z");
      await bus.settle();
      expect(bus.of(visit, "dispute")).toEqual([{ store_id: store, session_id: visit, kind: "dispute" }]);
    } finally {
      bus.stop();
    }
  });

  it("names a receipt that does not exist or is someone else's in Swedish", async () => {
    const owner = await shopper(ctx.app);
    const stranger = await shopper(ctx.app, { card: null });
    const { orderId } = await paidVisit(ctx.app, owner, store, [[tea.barcode, 1]]);
    const missing = await dispute(stranger, randomUUID());
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: "unknown_receipt", detail: "Kvittot finns inte." });
    const theirs = await dispute(stranger, orderId);
    expect(theirs.statusCode).toBe(403);
    expect(theirs.json()).toMatchObject({ code: "forbidden", detail: "Det här är inte ditt kvitto." });
  });

  it("a failure to save it is not taken for an open dispute", async () => {
    const who = await shopper(ctx.app);
    const { orderId } = await paidVisit(ctx.app, who, store, [[tea.barcode, 1]]);
    await ctx.app.db.execute(
      sql.raw(
        "create function refuse_dispute() returns trigger language plpgsql as $$ begin raise exception 'no disputes today'; end $$",
      ),
    );
    await ctx.app.db.execute(
      sql`create trigger refuse_dispute before insert on disputes for each row execute function refuse_dispute()`,
    );
    try {
      const res = await dispute(who, orderId);
      expect(res.statusCode).toBe(500);
      expect(res.json().code).not.toBe("dispute_open");
    } finally {
      await ctx.app.db.execute(sql`drop trigger refuse_dispute on disputes`);
      await ctx.app.db.execute(sql`drop function refuse_dispute()`);
    }
    expect((await dispute(who, orderId)).statusCode).toBe(201);
  });
});

describe("staff's answer to a dispute", () => {
  it("by the store's own admin is an event on the visit, an audit entry and one announcement, and is given once", async () => {
    const bus = await listenToSessions(ctx.app);
    try {
      const who = await shopper(ctx.app);
      const { orderId, visit } = await paidVisit(ctx.app, who, store, [[tea.barcode, 1]]);
      const opened = (await dispute(who, orderId)).json();
      await ctx.app.db.execute(
        sql`update shopping_sessions set last_activity_at = '2020-01-01T00:00:00Z' where id = ${visit}`,
      );
      const own = await signIn(ctx.app, "store_admin", [store]);
      const res = await answer(
        opened.id,
        { state: "resolved", resolution: "  Vi betalar tillbaka teet.  " },
        as(ctx.app, own.cookie),
      );
      expect(res.statusCode, res.body).toBe(200);
      const resolved = disputeSchema.parse(res.json());
      expect(resolved).toMatchObject({ state: "resolved", resolution: "Vi betalar tillbaka teet.", session_id: visit });
      expect(new Date(resolved.resolved_at!).getTime()).toBeGreaterThanOrEqual(new Date(resolved.created_at).getTime());

      expect((await eventsOf(visit)).at(-1)).toEqual({
        kind: "dispute_resolved",
        source: "staff",
        admin_id: own.id,
        detail: { dispute_id: opened.id, state: "resolved", resolution: "Vi betalar tillbaka teet." },
      });
      expect(await lastActivityOf(visit)).toBe("2020-01-01T00:00:00.000Z");
      expect(await auditOf(opened.id)).toEqual([
        {
          entity_type: "dispute",
          store_id: store,
          summary: `Dispute on receipt ${resolved.receipt_number} resolved`,
          before: { state: "open", resolution: null },
          after: { state: "resolved", resolution: "Vi betalar tillbaka teet." },
        },
      ]);

      const twice = await answer(opened.id, { state: "rejected", resolution: "Nej" });
      expect(twice.statusCode).toBe(409);
      expect(twice.json()).toMatchObject({
        code: "dispute_closed",
        detail: "This dispute was already resolved; it cannot be answered again",
      });
      await bus.settle();
      expect(bus.of(visit, "dispute_resolved")).toEqual([
        { store_id: store, session_id: visit, kind: "dispute_resolved" },
      ]);
      expect(await auditOf(opened.id)).toHaveLength(1);
    } finally {
      bus.stop();
    }
  });
});

describe("a dispute on an order of a deleted store, without a visit or a receipt number", () => {
  it("is opened and answered without events or announcements, by platform admins alone", async () => {
    const bus = await listenToSessions(ctx.app);
    try {
      const who = await shopper(ctx.app);
      const { orderId, visit } = await paidVisit(ctx.app, who, store, [[tea.barcode, 1]]);
      await ctx.app.db.execute(
        sql`update orders set store_id = null, session_id = null, receipt_number = null where id = ${orderId}`,
      );
      const opened = await dispute(who, orderId);
      expect(opened.statusCode, opened.body).toBe(201);
      const { id } = opened.json();

      const own = as(ctx.app, (await signIn(ctx.app, "store_admin", [store])).cookie);
      const refused = await answer(id, { state: "rejected", resolution: "Nej" }, own);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ code: "forbidden", detail: "You do not manage this store" });
      expect((await own.get("/api/v1/admin/disputes")).json().some((d: { id: string }) => d.id === id)).toBe(false);

      const res = await answer(id, { state: "rejected", resolution: "Butiken finns inte längre." });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        id,
        store_id: null,
        session_id: null,
        receipt_number: null,
        state: "rejected",
      });
      expect(await auditOf(id)).toEqual([
        expect.objectContaining({ store_id: null, summary: `Dispute on receipt ${orderId} rejected` }),
      ]);
      expect(await eventsOf(visit)).toEqual([]);
      await bus.settle();
      expect(bus.of(null, "dispute")).toEqual([]);
      expect(bus.of(null, "dispute_resolved")).toEqual([]);
    } finally {
      bus.stop();
    }
  });

  it("a store admin of no store sees no disputes", async () => {
    const who = await shopper(ctx.app);
    const { orderId } = await paidVisit(ctx.app, who, store, [[tea.barcode, 1]]);
    expect((await dispute(who, orderId)).statusCode).toBe(201);
    const nobody = as(ctx.app, (await signIn(ctx.app, "store_admin", [])).cookie);
    const res = await nobody.get("/api/v1/admin/disputes");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    expect(res.headers["x-total-count"]).toBe("0");
  });
});
