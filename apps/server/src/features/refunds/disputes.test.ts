import { randomUUID } from "node:crypto";
import { disputeSchema, receiptSchema } from "@glide/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows, sql } from "../../db/client.ts";
import { type PaymentHarness, startPaymentHarness } from "../../platform/payments/testing.ts";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";
import { paidVisit, product, shopper, type TestShopper } from "./testing.ts";

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
