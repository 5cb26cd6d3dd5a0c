import { randomUUID } from "node:crypto";
import { analyticsSummarySchema, receiptSchema, type SessionDetail, spotCheckSchema } from "@glide/contracts";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { queryRows, sql } from "../../db/client.ts";
import { paidVisit, product, SOLD_WHEN_FOOD_WAS_12, shop, shopper, type TestShopper } from "../../test/factories.ts";
import { as, createTestContext, putVisitIn, signIn, type TestContext } from "../../test/harness.ts";
import { type PaymentHarness, startPaymentHarness } from "../../test/payments.ts";
import { useSpotCheckRandom } from "./exit-draw.ts";

/**
 * The staff check's SQL at its edges: which earlier visit makes this one
 * "not the first" (the draw's `earlier`: the same shopper, this store, one
 * that checked out), the VAT an added item brings to the order, and when a
 * claim no request finished may be taken over.
 */
let ctx: TestContext;
let pay: PaymentHarness;
let cookie: string;
let admin: ReturnType<typeof as>;
let store: string;
let otherStore: string;
let soap: Awaited<ReturnType<typeof product>>;
let restoreRandom: (() => void) | null = null;

beforeAll(async () => {
  pay = await startPaymentHarness();
  ctx = await createTestContext(
    { STRIPE_SECRET_KEY: pay.simulator.secretKey, STRIPE_API_BASE: pay.apiBase },
    { saleClock: () => SOLD_WHEN_FOOD_WAS_12 },
  );
  cookie = (await signIn(ctx.app)).cookie;
  admin = as(ctx.app, cookie);
  store = await newStore("Kontrollbutiken");
  // Another store of the same chain, whose share stays at its default of 0.
  otherStore = (await admin.post("/api/v1/stores/", { name: "Grannbutiken" })).json().id;
  soap = await product(ctx.app, cookie, 24.5);
});
afterEach(() => {
  restoreRandom?.();
  restoreRandom = null;
});
afterAll(async () => {
  await ctx?.close();
  await pay?.close();
});

/** Every draw picks, so only the first-visit rule can keep a visit from being picked. */
const alwaysPick = () => {
  restoreRandom = useSpotCheckRandom(() => 0);
};

/** A store drawing 20 % of exits. */
async function newStore(name: string) {
  const id = (await admin.post("/api/v1/stores/", { name })).json().id as string;
  const set = await admin.put(`/api/v1/settings/stores/${id}`, { settings: { store: { spot_check_share: 0.2 } } });
  expect(set.statusCode, set.body).toBe(200);
  return id;
}

/** Pays the shopper's visit from the phone, which draws it as the gate would. */
async function payFromPhone(who: TestShopper) {
  const res = await who.call({ method: "POST", url: "/api/v1/checkout", payload: { user_id: who.id } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { status: string; receipt: { id: string } | null };
}
/** A visit with goods in `storeId`, paid from the phone: whether it was picked for a check. */
async function paidAndDrawn(who: TestShopper, storeId = store) {
  const visit = await shop(ctx.app, who, storeId, [[soap.barcode, 1]]);
  expect((await payFromPhone(who)).status).toBe("paid");
  return { visit, picked: (await checksOf(visit)) === 1 };
}
const checksOf = async (visit: string) =>
  (
    await queryRows<{ n: number }>(
      ctx.app.db,
      sql`select count(*)::int as n from spot_checks where session_id = ${visit}`,
    )
  )[0]!.n;

describe("a first visit to the store is never drawn", () => {
  it("a paid visit in another store does not count: the first visit here is not drawn, the second is", async () => {
    alwaysPick();
    const who = await shopper(ctx.app);
    await paidVisit(ctx.app, who, otherStore, [[soap.barcode, 2]]);
    expect((await paidAndDrawn(who)).picked).toBe(false);
    expect((await paidAndDrawn(who)).picked).toBe(true);
  });

  it("an earlier visit here that checked out empty counts: the next paid visit is drawn", async () => {
    alwaysPick();
    const who = await shopper(ctx.app);
    await shop(ctx.app, who, store, []);
    expect((await payFromPhone(who)).status).toBe("empty");
    expect((await paidAndDrawn(who)).picked).toBe(true);
  });

  it("an earlier visit here that never checked out does not count: left unpaid and written off", async () => {
    alwaysPick();
    const who = await shopper(ctx.app);
    const left = await shop(ctx.app, who, store, [[soap.barcode, 1]]);
    await putVisitIn(ctx.app.db, left, "left_unpaid");
    const off = await admin.post(`/api/v1/admin/sessions/${left}/write-off`, { reason: "Tvålen lämnades kvar" });
    expect(off.statusCode, off.body).toBe(200);
    expect((await paidAndDrawn(who)).picked).toBe(false);
    expect((await paidAndDrawn(who)).picked).toBe(true);
  });

  it("an entry code here cancelled before the door does not count", async () => {
    alwaysPick();
    const who = await shopper(ctx.app);
    const entry = await who.call({ method: "POST", url: "/api/v1/sessions/entry", payload: { store_id: store } });
    expect(entry.statusCode, entry.body).toBe(200);
    const cancelled = await who.call({ method: "DELETE", url: `/api/v1/sessions/entry/${entry.json().session_id}` });
    expect(cancelled.statusCode, cancelled.body).toBe(204);
    expect((await paidAndDrawn(who)).picked).toBe(false);
  });
});

describe("items added at a spot check", () => {
  it("leave the order's VAT what the receipt says: 34.50 + 34.50 kr at 12 % is 7.39 kr, once for the rate", async () => {
    alwaysPick();
    const own = await newStore("Tillagt");
    const coffee = await product(ctx.app, cookie, 34.5, 12);
    const tea = await product(ctx.app, cookie, 34.5, 12);
    const who = await shopper(ctx.app);
    // The first visit (24.50 kr of soap, 4.90 kr VAT) makes the second one drawable.
    expect((await paidAndDrawn(who, own)).picked).toBe(false);
    const visit = await shop(ctx.app, who, own, [[coffee.barcode, 1]]);
    const orderId = (await payFromPhone(who)).receipt!.id;
    const [check] = (await admin.get(`/api/v1/admin/spot-checks?store_id=${own}&state=pending`)).json();
    expect(spotCheckSchema.parse(check).session_id).toBe(visit);
    const added = await admin.put(`/api/v1/admin/spot-checks/${check.id}/outcome`, {
      idempotency_key: randomUUID(),
      outcome: "items_added",
      items_added: [{ product_id: tea.id, quantity: 1 }],
    });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().charge).toEqual({ amount: 34.5, state: "paid", failure_code: null });

    const receipt = receiptSchema.parse((await who.call({ method: "GET", url: `/api/v1/receipts/${orderId}` })).json());
    expect(receipt.total).toBe(69);
    expect(receipt.vat).toEqual([{ rate: 0.12, amount: 7.39, net: 61.61, gross: 69 }]);
    // Every other reader of the order says the same as the receipt.
    const [order] = await queryRows<{ total_ore: number; vat_ore: number }>(
      ctx.app.db,
      sql`select total_ore::int as total_ore, vat_ore::int as vat_ore from orders where id = ${orderId}`,
    );
    expect.soft(order, "orders.vat_ore").toEqual({ total_ore: 6900, vat_ore: 739 });
    const detail = (await admin.get(`/api/v1/admin/sessions/${visit}`)).json() as SessionDetail;
    expect.soft(detail.order, "the console's order").toMatchObject({ total: 69, vat: 7.39 });
    // The store-local days its two orders were paid on (one day unless the test straddles midnight).
    const [days] = await queryRows<{ first: string; last: string }>(
      ctx.app.db,
      sql`select to_char(min((o.paid_at at time zone s.timezone)::date), 'YYYY-MM-DD') as first,
            to_char(max((o.paid_at at time zone s.timezone)::date), 'YYYY-MM-DD') as last
          from orders o join stores s on s.id = o.store_id where o.store_id = ${own} and o.state = 'paid'`,
    );
    const range = `from=${days!.first}&to=${days!.last}&store_id=${own}`;
    const summary = analyticsSummarySchema.parse((await admin.get(`/api/v1/admin/analytics/summary?${range}`)).json());
    expect.soft(summary, "the analytics rollups").toMatchObject({ revenue: 93.5, vat: 12.29, orders: 2 });
  });
});

describe("a claim no request finished", () => {
  /** A flagged visit of a returning shopper, and its pending check. */
  async function pendingCheck() {
    alwaysPick();
    const who = await shopper(ctx.app);
    await paidAndDrawn(who);
    const { visit, picked } = await paidAndDrawn(who);
    expect(picked).toBe(true);
    const list = (await admin.get(`/api/v1/admin/spot-checks?store_id=${store}&state=pending&limit=200`)).json();
    return spotCheckSchema.parse(list.find((c: { session_id: string }) => c.session_id === visit));
  }
  /** Another request's claim, made `seconds` ago under `key`. */
  const claimedBefore = (checkId: string, seconds: number, key: string = randomUUID()) =>
    ctx.app.db.execute(
      sql`update spot_checks set adjustments = ${JSON.stringify({
        idempotency_key: key,
        request: { idempotency_key: key, outcome: "ok" },
        claimed_at: new Date(Date.now() - seconds * 1000).toISOString(),
      })}::jsonb where id = ${checkId}`,
    );
  const decideOk = (checkId: string) =>
    admin.put(`/api/v1/admin/spot-checks/${checkId}/outcome`, { idempotency_key: randomUUID(), outcome: "ok" });
  const busy = {
    code: "spot_check_decided",
    detail: "Someone else is recording this spot check just now; reload to see their decision",
  };

  it("is another request's for just under two minutes, and free just over", async () => {
    const check = await pendingCheck();
    await claimedBefore(check.id, 119);
    const held = await decideOk(check.id);
    expect(held.statusCode).toBe(409);
    expect(held.json()).toEqual(busy);
    await claimedBefore(check.id, 121);
    const taken = await decideOk(check.id);
    expect(taken.statusCode, taken.body).toBe(200);
    expect(taken.json().outcome).toBe("ok");
  });

  it("is never taken over once it moved money: a refund under its key, or under the key's spot-check twin, or recorded on the check", async () => {
    const check = await pendingCheck();
    const key = randomUUID();
    const refund = await admin.post(`/api/v1/admin/orders/${check.order_id}/refunds`, {
      idempotency_key: key,
      reason: "Tvålen var trasig",
      lines: [{ line_id: check.lines[0]!.id, quantity: 1 }],
    });
    expect(refund.statusCode, refund.body).toBe(201);
    await claimedBefore(check.id, 600, key);
    expect((await decideOk(check.id)).json()).toEqual(busy);

    const twin = await pendingCheck();
    const twinKey = randomUUID();
    await ctx.app.db.execute(
      sql`insert into refunds (order_id, store_id, amount_ore, reason, source, state, idempotency_key)
          values (${twin.order_id}, ${store}, 100, 'Tillagt vid kontroll', 'spot_check', 'succeeded', ${`${twinKey}:spot_check`})`,
    );
    await claimedBefore(twin.id, 600, twinKey);
    expect((await decideOk(twin.id)).json()).toEqual(busy);

    const recorded = await pendingCheck();
    await claimedBefore(recorded.id, 600);
    await ctx.app.db.execute(sql`update spot_checks set refund_id = ${refund.json().id} where id = ${recorded.id}`);
    expect((await decideOk(recorded.id)).json()).toEqual(busy);

    // The same age without money moved is free (the other side of each case above).
    const free = await pendingCheck();
    await claimedBefore(free.id, 600);
    expect((await decideOk(free.id)).statusCode).toBe(200);
  });
});
