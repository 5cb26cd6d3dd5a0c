import { randomUUID } from "node:crypto";
import { refundResultSchema, spotCheckSchema } from "@glide/contracts";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { queryRows, sql } from "../../db/client.ts";
import { deriveKey } from "../../platform/crypto.ts";
import { type PaymentHarness, startPaymentHarness } from "../../platform/payments/testing.ts";
import {
  as,
  createDeviceKey,
  createTestContext,
  listenToSessions,
  signIn,
  type TestContext,
} from "../../test/harness.ts";
import { signExitToken } from "../exit/exit-token.ts";
import { product, shop, shopper, type TestShopper } from "../refunds/testing.ts";
import { pickForSpotCheck, useSpotCheckRandom } from "./spot-checks.service.ts";

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("picking exits for a spot check", () => {
  it("picks the store's share of 10,000 exits, within four standard deviations", () => {
    const n = 10_000;
    for (const share of [0, 0.1, 0.2]) {
      const draw = seeded(42 + share * 100);
      let picked = 0;
      for (let i = 0; i < n; i++) if (pickForSpotCheck(share, false, draw())) picked++;
      const sigma = Math.sqrt(n * share * (1 - share));
      expect(Math.abs(picked - n * share), `share ${share}: ${picked}`).toBeLessThanOrEqual(4 * sigma);
      if (share === 0) expect(picked).toBe(0);
    }
  });

  it("never picks a shopper's first visit, whatever the draw", () => {
    const draw = seeded(7);
    for (let i = 0; i < 10_000; i++) expect(pickForSpotCheck(0.2, true, draw())).toBe(false);
    expect(pickForSpotCheck(0.2, false, 0.1999)).toBe(true);
    expect(pickForSpotCheck(0.2, false, 0.2)).toBe(false);
  });
});

let ctx: TestContext;
let pay: PaymentHarness;
let admin: ReturnType<typeof as>;
let cookie: string;
let adminId: string;
let store: string;
let otherStore: string;
let gateKey: string;
let soap: Awaited<ReturnType<typeof product>>;
let restoreRandom: (() => void) | null = null;
const SECRET = "b".repeat(64);

beforeAll(async () => {
  pay = await startPaymentHarness();
  ctx = await createTestContext({
    STRIPE_SECRET_KEY: pay.simulator.secretKey,
    STRIPE_API_BASE: pay.apiBase,
    SECRET_KEY: SECRET,
  });
  const me = await signIn(ctx.app);
  cookie = me.cookie;
  adminId = me.id;
  admin = as(ctx.app, cookie);
  store = (await admin.post("/api/v1/stores/", { name: "Kollbutiken" })).json().id;
  otherStore = (await admin.post("/api/v1/stores/", { name: "Annan butik" })).json().id;
  gateKey = (await createDeviceKey(ctx.app, store, "exit_gate")).key;
  soap = await product(ctx.app, cookie, 24.5);
});
afterEach(() => restoreRandom?.());
afterAll(async () => {
  await ctx?.close();
  await pay?.close();
});

const setShare = async (share: number) => {
  const res = await admin.put(`/api/v1/settings/stores/${store}`, { settings: { store: { spot_check_share: share } } });
  expect(res.statusCode, res.body).toBe(200);
};

/** Out through the gate with the exit code, as the gate would read it. */
async function exit(_who: TestShopper, visit: string) {
  const { token } = signExitToken(deriveKey(SECRET, "exit-token"), { sessionId: visit, storeId: store });
  const res = await ctx.app.inject({
    method: "POST",
    url: "/api/v1/exit/scan",
    headers: { authorization: `Device ${gateKey}` },
    payload: { token },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { res, token };
}

const flagged = async (visit: string) =>
  (
    await queryRows<{ n: number }>(
      ctx.app.db,
      sql`select count(*)::int as n from spot_checks where session_id = ${visit}`,
    )
  )[0]!.n;

async function returningShopper() {
  const who = await shopper(ctx.app);
  await exit(who, await shop(ctx.app, who, store, [[soap.barcode, 1]]));
  return who;
}

describe("spot checks at the exit gate", () => {
  it("draws each real exit against the store's share, never a first visit, and none at 0", async () => {
    // The rate itself is pickForSpotCheck's (tested above over 10,000 draws); here, that the gate draws each exit once.
    const random = seeded(2024);
    const draws: number[] = [];
    restoreRandom = useSpotCheckRandom(() => {
      const d = random();
      draws.push(d);
      return d;
    });
    await setShare(0.2);
    const exits: { visit: string; first: boolean; draw: number }[] = [];
    for (let i = 0; i < 6; i++) {
      const who = await shopper(ctx.app);
      for (let j = 0; j < 4; j++) {
        const visit = await shop(ctx.app, who, store, [[soap.barcode, 1]]);
        const before = draws.length;
        await exit(who, visit);
        expect(draws.length).toBe(before + 1);
        exits.push({ visit, first: j === 0, draw: draws.at(-1)! });
      }
    }
    const returning = exits.filter((e) => !e.first);
    // The seed gives both kinds of returning exit, so both sides of the share are seen.
    expect(returning.some((e) => e.draw < 0.2)).toBe(true);
    expect(returning.some((e) => e.draw >= 0.2)).toBe(true);
    for (const e of exits) expect(await flagged(e.visit), JSON.stringify(e)).toBe(!e.first && e.draw < 0.2 ? 1 : 0);

    await setShare(0);
    restoreRandom();
    restoreRandom = useSpotCheckRandom(() => 0);
    const who = await returningShopper();
    for (let i = 0; i < 3; i++) {
      const visit = await shop(ctx.app, who, store, [[soap.barcode, 1]]);
      await exit(who, visit);
      expect(await flagged(visit)).toBe(0);
    }
  });

  it("flags a visit once however often the gate reads it, with its event", async () => {
    restoreRandom = useSpotCheckRandom(() => 0);
    await setShare(0.2);
    const who = await returningShopper();
    const visit = await shop(ctx.app, who, store, [[soap.barcode, 1]]);
    await exit(who, visit);
    await exit(who, visit);
    expect(await flagged(visit)).toBe(1);
    const events = await queryRows<{ source: string }>(
      ctx.app.db,
      sql`select source from session_events where session_id = ${visit} and kind = 'spot_check_flagged'`,
    );
    expect(events).toEqual([{ source: "system" }]);
  });
});

describe("a spot check that cannot be recorded", () => {
  it("never keeps a paying shopper in: the gate opens and the phone's payment is answered", async () => {
    restoreRandom = useSpotCheckRandom(() => 0);
    await setShare(0.2);
    const who = await returningShopper();
    await ctx.app.db.execute(sql`create function refuse_spot_check() returns trigger language plpgsql as $$
      begin raise exception 'spot checks are down'; end $$`);
    await ctx.app.db.execute(
      sql`create trigger refuse_spot_check before insert on spot_checks for each row execute function refuse_spot_check()`,
    );
    try {
      const atGate = await shop(ctx.app, who, store, [[soap.barcode, 1]]);
      const { res } = await exit(who, atGate);
      expect(res.json()).toMatchObject({ gate_opened: true, status: "paid" });
      await shop(ctx.app, who, store, [[soap.barcode, 1]]);
      const paid = await who.call({ method: "POST", url: "/api/v1/checkout", payload: { user_id: who.id } });
      expect(paid.statusCode, paid.body).toBe(200);
      expect(paid.json().status).toBe("paid");
    } finally {
      await ctx.app.db.execute(sql`drop trigger refuse_spot_check on spot_checks`);
      await ctx.app.db.execute(sql`drop function refuse_spot_check()`);
    }
  });
});

describe("spot checks when the shopper pays from the phone", () => {
  const payFromPhone = async (who: TestShopper) => {
    const res = await who.call({ method: "POST", url: "/api/v1/checkout", payload: { user_id: who.id } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toBe("paid");
  };

  it("draws a visit paid after the face check or with 'Kunde inte scanna?', as at the gate", async () => {
    restoreRandom = useSpotCheckRandom(() => 0);
    await setShare(0.2);
    const who = await shopper(ctx.app);
    const first = await shop(ctx.app, who, store, [[soap.barcode, 1]]);
    await payFromPhone(who);
    // The first visit to the store is never picked, whatever the draw.
    expect(await flagged(first)).toBe(0);
    const second = await shop(ctx.app, who, store, [[soap.barcode, 1]]);
    await payFromPhone(who);
    expect(await flagged(second)).toBe(1);
    const status = (await who.call({ method: "GET", url: "/api/v1/exit/status" })).json();
    expect(status.notice).toBe("Personalen gör en snabb kontroll vid utgången.");
  });

  it("gives a visit one draw, whichever exit comes first and however often", async () => {
    await setShare(0.2);
    const who = await returningShopper();
    const visit = await shop(ctx.app, who, store, [[soap.barcode, 1]]);
    restoreRandom = useSpotCheckRandom(() => 0.5);
    await payFromPhone(who);
    expect(await flagged(visit)).toBe(0);
    // A draw that would pick, too late: paying again and the gate's read are the same exit.
    restoreRandom();
    restoreRandom = useSpotCheckRandom(() => 0);
    await payFromPhone(who);
    await exit(who, visit);
    expect(await flagged(visit)).toBe(0);

    // The other way round: the gate's read draws, paying from the phone afterwards does not draw again.
    const next = await shop(ctx.app, who, store, [[soap.barcode, 1]]);
    restoreRandom();
    restoreRandom = useSpotCheckRandom(() => 0.5);
    await exit(who, next);
    restoreRandom();
    restoreRandom = useSpotCheckRandom(() => 0);
    await payFromPhone(who);
    expect(await flagged(next)).toBe(0);
  });

  it("does not draw an empty visit or one at a share of 0", async () => {
    restoreRandom = useSpotCheckRandom(() => 0);
    await setShare(0.2);
    const who = await returningShopper();
    const empty = await shop(ctx.app, who, store, []);
    const res = await who.call({ method: "POST", url: "/api/v1/checkout", payload: { user_id: who.id } });
    expect(res.json().status).toBe("empty");
    expect(await flagged(empty)).toBe(0);
    await setShare(0);
    const paid = await shop(ctx.app, who, store, [[soap.barcode, 1]]);
    await payFromPhone(who);
    expect(await flagged(paid)).toBe(0);
  });
});

async function flaggedVisit(units = 2) {
  restoreRandom = useSpotCheckRandom(() => 0);
  await setShare(0.2);
  const who = await returningShopper();
  const visit = await shop(ctx.app, who, store, [[soap.barcode, units]]);
  await exit(who, visit);
  const list = (await admin.get(`/api/v1/admin/spot-checks?store_id=${store}&state=pending&limit=200`)).json();
  const check = spotCheckSchema.parse(list.find((c: { session_id: string }) => c.session_id === visit));
  return { who, visit, check };
}
const decide = (id: string, body: Record<string, unknown>, who = admin) =>
  who.put(`/api/v1/admin/spot-checks/${id}/outcome`, { idempotency_key: randomUUID(), ...body });

describe("the phone at a spot check", () => {
  const status = async (who: TestShopper) =>
    (await who.call({ method: "GET", url: "/api/v1/exit/status" })).json() as { state: string; notice?: string };

  it("says staff will check, only on a picked visit and only until staff have recorded the check", async () => {
    restoreRandom = useSpotCheckRandom(() => 0.5);
    await setShare(0.2);
    const passed = await returningShopper();
    const visit = await shop(ctx.app, passed, store, [[soap.barcode, 1]]);
    await exit(passed, visit);
    // A returning shopper drawn 0.5 at a share of 0.2: not picked, nothing said.
    expect(await flagged(visit)).toBe(0);
    expect(await status(passed)).toMatchObject({ state: "paid" });
    expect(await status(passed)).not.toHaveProperty("notice");
    restoreRandom();
    const { who, check } = await flaggedVisit(1);
    expect(await status(who)).toMatchObject({
      state: "paid",
      notice: "Personalen gör en snabb kontroll vid utgången.",
    });
    expect((await decide(check.id, { outcome: "ok" })).statusCode).toBe(200);
    expect(await status(who)).not.toHaveProperty("notice");
    expect((await status(who)).state).toBe("paid");
  });
});

describe("spot check outcomes in the console", () => {
  it("lists pending checks with the cart, records ok once, and refuses another decision", async () => {
    const { check } = await flaggedVisit();
    expect(check.lines).toEqual([expect.objectContaining({ name: soap.name, quantity: 2, origin: "cart" })]);
    const key = randomUUID();
    const ok = await decide(check.id, { idempotency_key: key, outcome: "ok", note: "Allt stämde" });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ outcome: "ok", note: "Allt stämde" });
    expect((await decide(check.id, { idempotency_key: key, outcome: "ok", note: "Allt stämde" })).json().outcome).toBe(
      "ok",
    );
    const other = await decide(check.id, {
      outcome: "items_removed",
      items_removed: [{ line_id: check.lines[0]!.id, quantity: 1 }],
    });
    expect(other.statusCode).toBe(409);
    const decided = (await admin.get(`/api/v1/admin/spot-checks?store_id=${store}&state=decided`)).json();
    expect(decided.some((c: { id: string }) => c.id === check.id)).toBe(true);
    const audit = await queryRows<{ n: number }>(
      ctx.app.db,
      sql`select count(*)::int as n from audit_log where action = 'spot_check.outcome' and entity_id = ${check.id}`,
    );
    expect(audit[0]!.n).toBe(1);
  });

  it("refunds items removed, once", async () => {
    const { check, who } = await flaggedVisit(3);
    const body = {
      idempotency_key: randomUUID(),
      outcome: "items_removed",
      items_removed: [{ line_id: check.lines[0]!.id, quantity: 1 }],
    };
    const first = await admin.put(`/api/v1/admin/spot-checks/${check.id}/outcome`, body);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().refund_id).toBeTruthy();
    expect((await admin.put(`/api/v1/admin/spot-checks/${check.id}/outcome`, body)).json().refund_id).toBe(
      first.json().refund_id,
    );
    const receipt = (await who.call({ method: "GET", url: `/api/v1/receipts/${check.order_id}` })).json();
    expect(receipt.refunded).toBe(24.5);
    const refunds = await queryRows<{ source: string }>(
      ctx.app.db,
      sql`select source from refunds where order_id = ${check.order_id}`,
    );
    expect(refunds).toEqual([{ source: "spot_check" }]);
  });

  it("charges items added apart and raises the order only when the charge went through", async () => {
    const { check, who } = await flaggedVisit(1);
    const gum = await product(ctx.app, cookie, 12, 12);
    const added = await decide(check.id, {
      outcome: "items_added",
      items_added: [{ product_id: gum.id, quantity: 2 }],
    });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().charge).toEqual({ amount: 24, state: "paid", failure_code: null });
    expect(added.json().lines.map((l: { origin: string }) => l.origin)).toEqual(["cart", "spot_check"]);
    const receipt = (await who.call({ method: "GET", url: `/api/v1/receipts/${check.order_id}` })).json();
    expect(receipt.total).toBe(48.5);
    expect(await pay.intentsFor(`spotcheck-${check.id}-authorize`)).toHaveLength(1);

    // A declined card: recorded and shown, the order stays as it was.
    const declined = await flaggedVisit(1);
    await ctx.app.db.execute(
      sql`update customers set payment_method_id = 'pm_card_chargeDeclined' where id = ${declined.who.id}`,
    );
    const refused = await decide(declined.check.id, {
      outcome: "items_added",
      items_added: [{ product_id: gum.id, quantity: 1 }],
    });
    expect(refused.statusCode, refused.body).toBe(200);
    expect(refused.json().charge).toMatchObject({ amount: 12, state: "declined" });
    expect(refused.json().lines).toHaveLength(1);
  });

  it("is for the admins of the check's store", async () => {
    const { check } = await flaggedVisit();
    const other = as(ctx.app, (await signIn(ctx.app, "store_admin", [otherStore])).cookie);
    expect((await decide(check.id, { outcome: "ok" }, other)).statusCode).toBe(403);
    expect((await other.get(`/api/v1/admin/spot-checks?store_id=${store}`)).statusCode).toBe(403);
    expect((await other.get("/api/v1/admin/spot-checks")).json()).toEqual([]);
    expect((await decide(randomUUID(), { outcome: "ok" })).statusCode).toBe(404);
    expect((await decide(check.id, { outcome: "items_added", items_added: [] })).statusCode).toBe(422);
  });
});

describe("two staff deciding one spot check at once", () => {
  const refundsOf = async (orderId: string) =>
    queryRows<{ amount_ore: number }>(ctx.app.db, sql`select amount_ore from refunds where order_id = ${orderId}`);

  it("lets one decision through and tells the others, with at most one refund", async () => {
    for (const round of [0, 1, 2]) {
      const { check } = await flaggedVisit(3);
      const line = check.lines[0]!.id;
      const bodies = Array.from({ length: 6 }, (_, i) =>
        i % 2 === round % 2
          ? { outcome: "items_removed", items_removed: [{ line_id: line, quantity: 1 }] }
          : { outcome: "ok" },
      );
      const answers = await Promise.all(bodies.map((body) => decide(check.id, body)));
      const codes = answers.map((a) => a.statusCode).sort();
      expect(codes, answers.map((a) => a.body).join("\n")).toEqual([200, 409, 409, 409, 409, 409]);
      const won = answers.find((a) => a.statusCode === 200)!.json();
      for (const lost of answers.filter((a) => a.statusCode === 409))
        expect(lost.json()).toMatchObject({ code: "spot_check_decided" });
      const refunds = await refundsOf(check.order_id!);
      expect(refunds).toHaveLength(won.outcome === "items_removed" ? 1 : 0);
      if (won.outcome === "items_removed") expect(refunds[0]!.amount_ore).toBe(2450);
      const stored = (await admin.get(`/api/v1/admin/spot-checks?store_id=${store}&state=decided&limit=200`))
        .json()
        .find((c: { id: string }) => c.id === check.id);
      expect(stored).toMatchObject({ outcome: won.outcome, refund_id: won.refund_id });
    }
  });

  it("frees the check for another decision when the first one was refused", async () => {
    const { check } = await flaggedVisit(1);
    const tooMany = await decide(check.id, {
      outcome: "items_removed",
      items_removed: [{ line_id: check.lines[0]!.id, quantity: 2 }],
    });
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json().code).toBe("refund_exceeds_captured");
    const ok = await decide(check.id, { outcome: "ok" });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().outcome).toBe("ok");
  });

  it("takes over a claim no request finished, once it is two minutes old and moved no money", async () => {
    const { check } = await flaggedVisit(1);
    const stale = (minutes: number) =>
      JSON.stringify({
        idempotency_key: randomUUID(),
        request: { idempotency_key: "x", outcome: "ok" },
        claimed_at: new Date(Date.now() - minutes * 60_000).toISOString(),
      });
    await ctx.app.db.execute(sql`update spot_checks set adjustments = ${stale(1.5)}::jsonb where id = ${check.id}`);
    const busy = await decide(check.id, { outcome: "ok" });
    expect(busy.statusCode).toBe(409);
    expect(busy.json().detail).toBe("Someone else is recording this spot check just now; reload to see their decision");
    await ctx.app.db.execute(sql`update spot_checks set adjustments = ${stale(2.5)}::jsonb where id = ${check.id}`);
    const taken = await decide(check.id, { outcome: "ok", note: "Tog över" });
    expect(taken.statusCode, taken.body).toBe(200);
    expect(taken.json()).toMatchObject({ outcome: "ok", note: "Tog över" });
  });
});

describe("refunds of an order with items added at a spot check", () => {
  /** Two soaps paid at checkout, two gums (12 kr) charged apart at the check. */
  async function twoPayments() {
    const { check, who } = await flaggedVisit(2);
    const gum = await product(ctx.app, cookie, 12, 12);
    const added = await decide(check.id, {
      outcome: "items_added",
      items_added: [{ product_id: gum.id, quantity: 2 }],
    });
    expect(added.json().charge.state).toBe("paid");
    const orderId = check.order_id!;
    const [intents] = await queryRows<{ checkout: string; spot_check: string }>(
      ctx.app.db,
      sql`select o.payment_intent_id as checkout, k.charge_intent_id as spot_check
          from orders o join spot_checks k on k.order_id = o.id where o.id = ${orderId}`,
    );
    const lines = (await admin.get(`/api/v1/admin/orders/${orderId}/refunds`)).json().lines as Array<{
      id: string;
      origin: string;
    }>;
    return {
      who,
      orderId,
      intents: intents!,
      soapLine: lines.find((l) => l.origin === "cart")!.id,
      gumLine: lines.find((l) => l.origin === "spot_check")!.id,
    };
  }
  const refund = (orderId: string, body: Record<string, unknown>) =>
    admin.post(`/api/v1/admin/orders/${orderId}/refunds`, { idempotency_key: randomUUID(), reason: "Fel", ...body });
  const givenBack = async (intent: string) =>
    (await pay.control<{ data: Array<{ amount: number }> }>(`/refunds?payment_intent=${intent}`)).data.map(
      (r) => r.amount,
    );
  const refundedOf = async (orderId: string) =>
    (await admin.get(`/api/v1/admin/orders/${orderId}/refunds`)).json() as { total: number; refunded: number };

  it("refunds the whole order as one refund per payment, each under its own key, in one request", async () => {
    const { orderId, intents, soapLine } = await twoPayments();
    const key = randomUUID();
    const body = { idempotency_key: key, reason: "Hela köpet", whole: true };
    const res = await admin.post(`/api/v1/admin/orders/${orderId}/refunds`, body);
    expect(res.statusCode, res.body).toBe(201);
    const answer = refundResultSchema.parse(res.json());
    expect(answer.refunds.map((r) => [r.state, r.amount])).toEqual([
      ["succeeded", 49],
      ["succeeded", 24],
    ]);
    // The answer is the checkout's refund, as a single refund was answered before, plus both.
    expect(answer).toMatchObject({ id: answer.refunds[0]!.id, amount: 49 });
    expect(await givenBack(intents.checkout)).toEqual([4900]);
    expect(await givenBack(intents.spot_check)).toEqual([2400]);
    for (const made of answer.refunds)
      expect(await pay.control(`/idempotency?key=refund-${made.id}`)).toMatchObject({ executions: 1 });
    expect(await refundedOf(orderId)).toEqual(expect.objectContaining({ total: 73, refunded: 73 }));

    const again = await admin.post(`/api/v1/admin/orders/${orderId}/refunds`, body);
    expect(again.statusCode).toBe(200);
    expect(again.json().refunds.map((r: { id: string }) => r.id)).toEqual(answer.refunds.map((r) => r.id));
    const { whole: _whole, ...asLines } = body;
    const otherBody = { ...asLines, lines: [{ line_id: soapLine, quantity: 1 }] };
    expect((await admin.post(`/api/v1/admin/orders/${orderId}/refunds`, otherBody)).statusCode).toBe(409);
    expect((await refund(orderId, { whole: true })).json().detail).toBe("Only 0.00 kr is left to refund on this order");
    const events = await queryRows<{ n: number }>(
      ctx.app.db,
      sql`select count(*)::int as n from audit_log where action = 'refund.create' and after->>'order_id' = ${orderId}`,
    );
    expect(events[0]!.n).toBe(2);
  });

  it("refunds lines of both payments together, exactly what is left and not a unit more", async () => {
    const { orderId, intents, soapLine, gumLine } = await twoPayments();
    const both = await refund(orderId, {
      lines: [
        { line_id: gumLine, quantity: 1 },
        { line_id: soapLine, quantity: 1 },
      ],
    });
    expect(both.statusCode, both.body).toBe(201);
    expect(both.json().refunds.map((r: { amount: number }) => r.amount)).toEqual([24.5, 12]);
    // One unit more than is left on the spot check's line: nothing is refunded, neither part.
    const over = await refund(orderId, {
      lines: [
        { line_id: soapLine, quantity: 1 },
        { line_id: gumLine, quantity: 2 },
      ],
    });
    expect(over.statusCode).toBe(409);
    expect(over.json().errors[0].path).toBe("lines.1.quantity");
    expect((await refundedOf(orderId)).refunded).toBe(36.5);
    const rest = await refund(orderId, {
      lines: [
        { line_id: soapLine, quantity: 1 },
        { line_id: gumLine, quantity: 1 },
      ],
    });
    expect(rest.statusCode).toBe(201);
    expect(await givenBack(intents.checkout)).toEqual([2450, 2450]);
    expect(await givenBack(intents.spot_check)).toEqual([1200, 1200]);
    expect((await refundedOf(orderId)).refunded).toBe(73);
  });

  it("leaves out a payment with nothing left, and makes one request of 20 at once", async () => {
    const { orderId, intents, soapLine } = await twoPayments();
    expect((await refund(orderId, { lines: [{ line_id: soapLine, quantity: 2 }] })).statusCode).toBe(201);
    const answers = await Promise.all(Array.from({ length: 20 }, () => refund(orderId, { whole: true })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, ...Array(19).fill(409)]);
    const won = answers.find((a) => a.statusCode === 201)!.json();
    expect(won.refunds.map((r: { amount: number }) => r.amount)).toEqual([24]);
    expect(await givenBack(intents.checkout)).toEqual([4900]);
    expect(await givenBack(intents.spot_check)).toEqual([2400]);
  });

  it("answers the same two refunds to the same key sent at once", async () => {
    const { orderId, intents } = await twoPayments();
    const body = { idempotency_key: randomUUID(), reason: "Dubbelklick", whole: true };
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => admin.post(`/api/v1/admin/orders/${orderId}/refunds`, body)),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    expect(
      new Set(
        answers.map((a) =>
          a
            .json()
            .refunds.map((r: { id: string }) => r.id)
            .join(),
        ),
      ),
    ).toHaveProperty("size", 1);
    expect(await givenBack(intents.checkout)).toEqual([4900]);
    expect(await givenBack(intents.spot_check)).toEqual([2400]);
  });

  it("records each payment's answer: a refusal on one frees only its own amount", async () => {
    const { orderId, intents } = await twoPayments();
    // The extra charge was given back outside Glide: the provider refuses that part.
    await ctx.app.payments!.refund({
      paymentIntentId: intents.spot_check,
      amountOre: 2400,
      idempotencyKey: randomUUID(),
    });
    const res = await refund(orderId, { whole: true });
    expect(res.statusCode).toBe(201);
    expect(res.json().refunds.map((r: { state: string; amount: number }) => [r.state, r.amount])).toEqual([
      ["succeeded", 49],
      ["failed", 24],
    ]);
    expect((await refundedOf(orderId)).refunded).toBe(49);
  });
});

/** A check as the console lists it (every store, newest first). */
async function checkOf(id: string) {
  const list = (await admin.get("/api/v1/admin/spot-checks?limit=200")).json() as Array<{ id: string }>;
  return spotCheckSchema.parse(list.find((c) => c.id === id));
}

const orderOf = async (orderId: string) =>
  (
    await queryRows<{ total_ore: number; vat_ore: number }>(
      ctx.app.db,
      sql`select total_ore, vat_ore from orders where id = ${orderId}`,
    )
  )[0]!;

describe("a flagged exit on the Sessions screen", () => {
  it("records the flag as the system's event, without counting it as the shopper's activity, and announces it", async () => {
    const bus = await listenToSessions(ctx.app);
    try {
      const { visit, check } = await flaggedVisit(1);
      await bus.settle();
      expect(bus.of(visit).filter((m) => m.kind === "spot_check_flagged")).toEqual([
        { store_id: store, session_id: visit, kind: "spot_check_flagged" },
      ]);
      const [event] = await queryRows<{ source: string; detail: unknown; created_at: Date | string }>(
        ctx.app.db,
        sql`select source, detail, created_at from session_events where session_id = ${visit} and kind = 'spot_check_flagged'`,
      );
      expect(event).toMatchObject({ source: "system", detail: { spot_check_id: check.id } });
      // The shopper's last activity is the exit itself, before the flag: the flag does not move it.
      const [session] = await queryRows<{ last_activity_at: Date | string }>(
        ctx.app.db,
        sql`select last_activity_at from shopping_sessions where id = ${visit}`,
      );
      expect(new Date(session!.last_activity_at).getTime()).toBeLessThan(new Date(event!.created_at).getTime());
      // Waiting for staff: nothing decided, no charge.
      expect(check).toMatchObject({ outcome: null, decided_at: null, charge: null, refund_id: null });
    } finally {
      bus.stop();
    }
  });
});

describe("the console's list of spot checks", () => {
  it("shows pending checks oldest first, decided ones newest decided first, and all of them without a state", async () => {
    const [a, b, c, d] = [
      (await flaggedVisit(1)).check,
      (await flaggedVisit(1)).check,
      (await flaggedVisit(1)).check,
      (await flaggedVisit(1)).check,
    ];
    expect((await decide(a!.id, { outcome: "ok" })).statusCode).toBe(200);
    expect((await decide(c!.id, { outcome: "ok" })).statusCode).toBe(200);
    const mine = new Set([a!.id, b!.id, c!.id, d!.id]);
    const listed = async (query: string) => {
      const res = await admin.get(`/api/v1/admin/spot-checks?store_id=${store}&limit=200${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as Array<{ id: string }>).map((x) => x.id).filter((id) => mine.has(id));
    };
    expect(await listed("&state=pending")).toEqual([b!.id, d!.id]);
    expect(await listed("&state=decided")).toEqual([c!.id, a!.id]);
    expect(await listed("")).toEqual([c!.id, a!.id, d!.id, b!.id]);
  });
});

describe("who may decide a spot check, and on what", () => {
  it("lets an admin of the check's own store decide it", async () => {
    const { check } = await flaggedVisit(1);
    const own = as(ctx.app, (await signIn(ctx.app, "store_admin", [store])).cookie);
    const res = await decide(check.id, { outcome: "ok" }, own);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().outcome).toBe("ok");
  });

  it("leaves a check without a store to platform admins", async () => {
    const { check } = await flaggedVisit(1);
    await ctx.app.db.execute(sql`update spot_checks set store_id = null where id = ${check.id}`);
    const storeAdmin = as(ctx.app, (await signIn(ctx.app, "store_admin", [store])).cookie);
    const refused = await decide(check.id, { outcome: "ok" }, storeAdmin);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toBe("You do not manage this store");
    expect((await checkOf(check.id)).outcome).toBeNull();
    const ok = await decide(check.id, { outcome: "ok" });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ outcome: "ok", store_id: null });
  });

  it("decides a check whose visit is gone", async () => {
    const { check } = await flaggedVisit(1);
    await ctx.app.db.execute(sql`update spot_checks set session_id = null where id = ${check.id}`);
    const ok = await decide(check.id, { outcome: "ok" });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ outcome: "ok", session_id: null });
  });

  it("refuses a check whose visit has no order: 409 no_order, still pending", async () => {
    const [row] = await queryRows<{ id: string }>(
      ctx.app.db,
      sql`insert into spot_checks (store_id) values (${store}) returning id`,
    );
    const res = await decide(row!.id, { outcome: "ok" });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: "no_order", detail: "This visit has no order to adjust" });
    expect((await checkOf(row!.id)).outcome).toBeNull();
  });

  it("says an unknown check is unknown", async () => {
    const res = await decide(randomUUID(), { outcome: "ok" });
    expect(res.statusCode).toBe(404);
    expect(res.json().detail).toBe("Unknown spot check");
  });

  it("tells staff what the check was already decided as", async () => {
    const { check } = await flaggedVisit(2);
    const removed = await decide(check.id, {
      outcome: "items_removed",
      items_removed: [{ line_id: check.lines[0]!.id, quantity: 1 }],
    });
    expect(removed.statusCode, removed.body).toBe(200);
    const again = await decide(check.id, { outcome: "ok" });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: "spot_check_decided",
      detail: "This spot check was already decided (items removed)",
    });
    const ok = (await flaggedVisit(1)).check;
    expect((await decide(ok.id, { outcome: "ok" })).statusCode).toBe(200);
    expect(
      (await decide(ok.id, { outcome: "items_added", items_added: [{ product_id: soap.id, quantity: 1 }] })).json(),
    ).toMatchObject({ code: "spot_check_decided", detail: "This spot check was already decided (ok)" });
  });
});

describe("what a decision records", () => {
  it("an ok: the note, no charge, a staff event that is not the shopper's activity, announced once", async () => {
    const bus = await listenToSessions(ctx.app);
    try {
      const { visit, check } = await flaggedVisit(1);
      await ctx.app.db.execute(
        sql`update shopping_sessions set last_activity_at = '2020-01-01T00:00:00Z' where id = ${visit}`,
      );
      const body = { idempotency_key: randomUUID(), outcome: "ok", note: "  Allt stämde  " };
      const ok = await admin.put(`/api/v1/admin/spot-checks/${check.id}/outcome`, body);
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json()).toMatchObject({ outcome: "ok", note: "Allt stämde", charge: null, refund_id: null });
      expect(ok.json().decided_at).toEqual(expect.any(String));
      const told = [{ store_id: store, session_id: visit, kind: "spot_check_outcome" }];
      await bus.settle();
      expect(bus.of(visit).filter((m) => m.kind === "spot_check_outcome")).toEqual(told);
      // The same request again (a double click) answers the same and tells the screens nothing new.
      const again = await admin.put(`/api/v1/admin/spot-checks/${check.id}/outcome`, body);
      expect(again.json()).toEqual(ok.json());
      await bus.settle();
      expect(bus.of(visit).filter((m) => m.kind === "spot_check_outcome")).toEqual(told);
      const events = await queryRows<{ source: string; admin_id: string | null; detail: unknown }>(
        ctx.app.db,
        sql`select source, admin_id, detail from session_events where session_id = ${visit} and kind = 'spot_check_outcome'`,
      );
      expect(events).toEqual([
        { source: "staff", admin_id: adminId, detail: { spot_check_id: check.id, outcome: "ok", charge: null } },
      ]);
      const [session] = await queryRows<{ last_activity_at: Date | string }>(
        ctx.app.db,
        sql`select last_activity_at from shopping_sessions where id = ${visit}`,
      );
      expect(new Date(session!.last_activity_at).toISOString()).toBe("2020-01-01T00:00:00.000Z");
    } finally {
      bus.stop();
    }
  });

  it("an empty note is no note", async () => {
    const { check } = await flaggedVisit(1);
    const ok = await decide(check.id, { outcome: "ok", note: "   " });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().note).toBeNull();
  });

  it("items added: the event carries the charge in kronor, the audit entry what was added", async () => {
    const { visit, check } = await flaggedVisit(1);
    const gum = await product(ctx.app, cookie, 12, 12);
    const added = await decide(check.id, {
      outcome: "items_added",
      note: "Tuggummi i fickan",
      items_added: [{ product_id: gum.id, quantity: 2 }],
    });
    expect(added.statusCode, added.body).toBe(200);
    const events = await queryRows<{ source: string; detail: unknown }>(
      ctx.app.db,
      sql`select source, detail from session_events where session_id = ${visit} and kind = 'spot_check_outcome'`,
    );
    expect(events).toEqual([
      { source: "staff", detail: { spot_check_id: check.id, outcome: "items_added", charge: 24 } },
    ]);
    const list = await admin.get(`/api/v1/admin/audit?action=spot_check.outcome&entity_id=${check.id}`);
    expect(list.statusCode, list.body).toBe(200);
    const [entry] = list.json() as Array<{ id: number }>;
    const audit = (await admin.get(`/api/v1/admin/audit/${entry!.id}`)).json();
    expect(check.receipt_number).toEqual(expect.any(Number));
    expect(audit).toMatchObject({
      action: "spot_check.outcome",
      entity_type: "spot_check",
      entity_id: check.id,
      store_id: store,
      actor_id: adminId,
      summary: `Spot check on receipt ${check.receipt_number}: items added`,
      before: { outcome: null },
      after: {
        outcome: "items_added",
        note: "Tuggummi i fickan",
        added: [{ product_id: gum.id, name: gum.name, quantity: 2, unit_price_ore: 1200, vat_rate_bp: 1200 }],
        removed: null,
      },
    });
  });

  it("items removed: refunded with the note as the reason, or as a spot check without one, and audited", async () => {
    const withNote = await flaggedVisit(2);
    const line = withNote.check.lines[0]!.id;
    const res = await decide(withNote.check.id, {
      outcome: "items_removed",
      note: "Tvål låg kvar i korgen",
      items_removed: [{ line_id: line, quantity: 1 }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const refundsOf = async (orderId: string) =>
      (await admin.get(`/api/v1/admin/orders/${orderId}/refunds`)).json().refunds as Array<{
        reason: string;
        source: string;
        amount: number;
      }>;
    expect(await refundsOf(withNote.check.order_id!)).toEqual([
      expect.objectContaining({ reason: "Tvål låg kvar i korgen", source: "spot_check", amount: 24.5 }),
    ]);
    const [entry] = (
      await admin.get(`/api/v1/admin/audit?action=spot_check.outcome&entity_id=${withNote.check.id}`)
    ).json() as Array<{ id: number }>;
    expect((await admin.get(`/api/v1/admin/audit/${entry!.id}`)).json()).toMatchObject({
      summary: `Spot check on receipt ${withNote.check.receipt_number}: items removed`,
      after: {
        outcome: "items_removed",
        note: "Tvål låg kvar i korgen",
        added: null,
        removed: [{ line_id: line, quantity: 1 }],
      },
    });

    for (const note of [undefined, "  "]) {
      const { check } = await flaggedVisit(1);
      const removed = await decide(check.id, {
        outcome: "items_removed",
        ...(note === undefined ? {} : { note }),
        items_removed: [{ line_id: check.lines[0]!.id, quantity: 1 }],
      });
      expect(removed.statusCode, removed.body).toBe(200);
      expect(removed.json().note).toBeNull();
      expect(await refundsOf(check.order_id!)).toEqual([
        expect.objectContaining({ reason: "Items removed at a spot check", source: "spot_check" }),
      ]);
    }
  });
});

describe("the extra charge for items added at a spot check", () => {
  const addBody = (productId: string, quantity = 1) => ({
    idempotency_key: randomUUID(),
    outcome: "items_added",
    items_added: [{ product_id: productId, quantity }],
  });
  const put = (id: string, body: unknown) => admin.put(`/api/v1/admin/spot-checks/${id}/outcome`, body);

  it("charges the saved card, described as the store's check, with the order and the check in its metadata", async () => {
    const { check } = await flaggedVisit(1);
    const gum = await product(ctx.app, cookie, 12, 12);
    const res = await decide(check.id, { outcome: "items_added", items_added: [{ product_id: gum.id, quantity: 2 }] });
    expect(res.statusCode, res.body).toBe(200);
    const intents = await pay.control<{ data: Array<{ id: string; amount: number; metadata: unknown }> }>(
      `/payment_intents?idempotency_key=${encodeURIComponent(`spotcheck-${check.id}-authorize`)}`,
    );
    expect(intents.data).toEqual([
      expect.objectContaining({ amount: 2400, metadata: { order_id: check.order_id, spot_check_id: check.id } }),
    ]);
    const intent = await fetch(`${pay.apiBase}/v1/payment_intents/${intents.data[0]!.id}`, {
      headers: { authorization: `Bearer ${pay.simulator.secretKey}` },
    });
    expect(await intent.json()).toMatchObject({
      currency: "sek",
      description: "Kollbutiken, kontroll vid utgången",
      amount_received: 2400,
    });
  });

  it("raises the order's VAT by exactly the added lines' VAT, per rate, and its total by the charge", async () => {
    // Two soaps (25 %, 24.50 kr each) at checkout: 49 kr, of which 9.80 kr VAT.
    const { check, who } = await flaggedVisit(2);
    expect(await orderOf(check.order_id!)).toEqual({ total_ore: 4900, vat_ore: 980 });
    const bread = await product(ctx.app, cookie, 11.2, 12); // 1.20 kr VAT
    const cheese = await product(ctx.app, cookie, 25, 25); // 5 kr VAT each
    const res = await decide(check.id, {
      outcome: "items_added",
      items_added: [
        { product_id: bread.id, quantity: 1 },
        { product_id: cheese.id, quantity: 2 },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().charge).toEqual({ amount: 61.2, state: "paid", failure_code: null });
    expect(await orderOf(check.order_id!)).toEqual({ total_ore: 4900 + 6120, vat_ore: 980 + 120 + 1000 });
    // The receipt's VAT per rate adds up to what the order keeps.
    const receipt = (await who.call({ method: "GET", url: `/api/v1/receipts/${check.order_id}` })).json();
    expect(receipt.total).toBe(110.2);
    expect(receipt.vat).toEqual([
      expect.objectContaining({ rate: 0.25, amount: 19.8 }),
      expect.objectContaining({ rate: 0.12, amount: 1.2 }),
    ]);
  });

  it("a free item: recorded as paid, nothing charged at the provider, and on the receipt", async () => {
    const { check, who } = await flaggedVisit(1);
    const bag = await product(ctx.app, cookie, 0);
    const body = {
      idempotency_key: randomUUID(),
      outcome: "items_added",
      items_added: [{ product_id: bag.id, quantity: 1 }],
    };
    const res = await decide(check.id, body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().charge).toEqual({ amount: 0, state: "paid", failure_code: null });
    expect(res.json().lines.map((l: { name: string; origin: string }) => [l.name, l.origin])).toEqual([
      [soap.name, "cart"],
      [bag.name, "spot_check"],
    ]);
    expect(await pay.intentsFor(`spotcheck-${check.id}-authorize`)).toEqual([]);
    expect(await orderOf(check.order_id!)).toMatchObject({ total_ore: 2450 });
    const receipt = (await who.call({ method: "GET", url: `/api/v1/receipts/${check.order_id}` })).json();
    expect(receipt.items.map((i: { name: string }) => i.name)).toEqual([soap.name, bag.name]);
    // The same request again adds nothing more.
    const again = await decide(check.id, body);
    expect(again.statusCode).toBe(200);
    expect(again.json().lines).toHaveLength(2);
  });

  it("a shopper who removed their card: declined as no_payment_method, the order as it was", async () => {
    const { check, who } = await flaggedVisit(1);
    const gum = await product(ctx.app, cookie, 12, 12);
    const removed = await who.call({ method: "DELETE", url: "/api/v1/payment-method" });
    expect(removed.statusCode, removed.body).toBeLessThan(300);
    const res = await decide(check.id, { outcome: "items_added", items_added: [{ product_id: gum.id, quantity: 1 }] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      outcome: "items_added",
      charge: { amount: 12, state: "declined", failure_code: "no_payment_method" },
    });
    expect(res.json().lines).toHaveLength(1);
    expect(await orderOf(check.order_id!)).toEqual({ total_ore: 2450, vat_ore: 490 });
    expect(await pay.intentsFor(`spotcheck-${check.id}-authorize`)).toEqual([]);
  });

  it("an order whose shopper is gone: declined as no_payment_method", async () => {
    const { check } = await flaggedVisit(1);
    const gum = await product(ctx.app, cookie, 12, 12);
    await ctx.app.db.execute(sql`update orders set customer_id = null where id = ${check.order_id}`);
    const res = await decide(check.id, { outcome: "items_added", items_added: [{ product_id: gum.id, quantity: 1 }] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().charge).toEqual({ amount: 12, state: "declined", failure_code: "no_payment_method" });
  });

  it("an unknown product: 404 unknown_product, nothing decided, and the check can still be decided", async () => {
    const { check } = await flaggedVisit(1);
    const gum = await product(ctx.app, cookie, 12, 12);
    const missing = randomUUID();
    const res = await decide(check.id, {
      outcome: "items_added",
      items_added: [
        { product_id: gum.id, quantity: 1 },
        { product_id: missing, quantity: 1 },
      ],
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: "unknown_product", detail: `Unknown product ${missing}` });
    expect(await checkOf(check.id)).toMatchObject({ outcome: null, charge: null });
    expect(await pay.intentsFor(`spotcheck-${check.id}-authorize`)).toEqual([]);
    const ok = await decide(check.id, { outcome: "items_added", items_added: [{ product_id: gum.id, quantity: 1 }] });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().charge).toMatchObject({ amount: 12, state: "paid" });
  });

  it("a provider that does not answer: the charge stays pending, and the same request again finishes it once", async () => {
    const { check, who } = await flaggedVisit(1);
    const gum = await product(ctx.app, cookie, 12, 12);
    const body = addBody(gum.id, 2);
    await pay.control("/faults", { mode: "drop", path: "/v1/payment_intents" });
    let first: Awaited<ReturnType<typeof put>>;
    try {
      first = await put(check.id, body);
    } finally {
      await pay.control("/faults", {});
    }
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({
      outcome: "items_added",
      charge: { amount: 24, state: "pending", failure_code: null },
    });
    expect(first.json().lines).toHaveLength(1);
    expect(await orderOf(check.order_id!)).toEqual({ total_ore: 2450, vat_ore: 490 });

    const again = await put(check.id, body);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().charge).toEqual({ amount: 24, state: "paid", failure_code: null });
    expect(again.json().lines.map((l: { origin: string }) => l.origin)).toEqual(["cart", "spot_check"]);
    expect(await orderOf(check.order_id!)).toEqual({ total_ore: 2450 + 2400, vat_ore: 490 + 257 });
    // Once paid, a third identical request is answered from the record: the provider is not asked again.
    expect((await put(check.id, body)).json()).toEqual(again.json());
    expect(await pay.control(`/idempotency?key=spotcheck-${check.id}-authorize`)).toMatchObject({
      executions: 1,
      replays: 0,
    });
    const receipt = (await who.call({ method: "GET", url: `/api/v1/receipts/${check.order_id}` })).json();
    expect(receipt.total).toBe(48.5);
  });

  it("a pending charge finished by two identical requests at once adds the items once", async () => {
    const { check } = await flaggedVisit(1);
    const gum = await product(ctx.app, cookie, 12, 12);
    const body = addBody(gum.id, 1);
    await pay.control("/faults", { mode: "drop", path: "/v1/payment_intents" });
    try {
      expect((await put(check.id, body)).json().charge.state).toBe("pending");
    } finally {
      await pay.control("/faults", {});
    }
    const answers = await Promise.all([put(check.id, body), put(check.id, body), put(check.id, body)]);
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    const after = await checkOf(check.id);
    expect(after.charge).toMatchObject({ state: "paid" });
    expect(after.lines.map((l) => l.origin)).toEqual(["cart", "spot_check"]);
    expect((await orderOf(check.order_id!)).total_ore).toBe(2450 + 1200);
  });
});

describe("spot checks on a server without a payment provider", () => {
  let bare: TestContext;
  let bareAdmin: ReturnType<typeof as>;
  let bareStore: string;
  let item: Awaited<ReturnType<typeof product>>;

  beforeAll(async () => {
    bare = await createTestContext();
    const bareCookie = (await signIn(bare.app)).cookie;
    bareAdmin = as(bare.app, bareCookie);
    bareStore = (await bareAdmin.post("/api/v1/stores/", { name: "Utan kort" })).json().id;
    item = await product(bare.app, bareCookie, 10);
  });
  afterAll(async () => {
    await bare?.close();
  });

  /** A paid order (made directly: nothing can be charged here) and its pending check. */
  async function pendingCheck() {
    const [order] = await queryRows<{ id: string }>(
      bare.app.db,
      sql`insert into orders (store_id, state, total_ore, vat_ore, store_name, receipt_number, paid_at, payment_intent_id)
          values (${bareStore}, 'paid', 1000, 200, 'Utan kort', (select coalesce(max(receipt_number), 0) + 1 from orders),
                  now(), ${`pi_${randomUUID()}`}) returning id`,
    );
    const [check] = await queryRows<{ id: string }>(
      bare.app.db,
      sql`insert into spot_checks (order_id, store_id) values (${order!.id}, ${bareStore}) returning id`,
    );
    return check!.id;
  }
  const decideHere = (id: string, body: Record<string, unknown>) =>
    bareAdmin.put(`/api/v1/admin/spot-checks/${id}/outcome`, { idempotency_key: randomUUID(), ...body });
  const outcomeOf = async (id: string) =>
    (
      await queryRows<{ outcome: string | null }>(bare.app.db, sql`select outcome from spot_checks where id = ${id}`)
    )[0]!.outcome;

  it("records an ok, which moves no money", async () => {
    const id = await pendingCheck();
    const ok = await decideHere(id, { outcome: "ok" });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ outcome: "ok", charge: null });
  });

  it("refuses items added or removed with 503, leaving the check pending", async () => {
    const id = await pendingCheck();
    const added = await decideHere(id, { outcome: "items_added", items_added: [{ product_id: item.id, quantity: 1 }] });
    expect(added.statusCode, added.body).toBe(503);
    expect(added.json().code).toBe("payments_not_configured");
    const removed = await decideHere(id, {
      outcome: "items_removed",
      items_removed: [{ line_id: randomUUID(), quantity: 1 }],
    });
    expect(removed.statusCode, removed.body).toBe(503);
    expect(await outcomeOf(id)).toBeNull();
    // Still free for a decision that needs no provider.
    expect((await decideHere(id, { outcome: "ok" })).statusCode).toBe(200);
  });

  it("says a decided check was decided, whatever the new decision would need", async () => {
    const id = await pendingCheck();
    expect((await decideHere(id, { outcome: "ok" })).statusCode).toBe(200);
    const later = await decideHere(id, { outcome: "items_added", items_added: [{ product_id: item.id, quantity: 1 }] });
    expect(later.statusCode).toBe(409);
    expect(later.json()).toMatchObject({
      code: "spot_check_decided",
      detail: "This spot check was already decided (ok)",
    });
  });
});
