import { randomUUID } from "node:crypto";
import { refundResultSchema, spotCheckSchema } from "@glide/contracts";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { queryRows, sql } from "../../db/client.ts";
import { deriveKey } from "../../platform/crypto.ts";
import { type PaymentHarness, startPaymentHarness } from "../../platform/payments/testing.ts";
import { as, createDeviceKey, createTestContext, signIn, type TestContext } from "../../test/harness.ts";
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
  cookie = (await signIn(ctx.app)).cookie;
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
  it("flags about the share of real exits, never a first visit, and none at 0", async () => {
    restoreRandom = useSpotCheckRandom(seeded(2024));
    await setShare(0.2);
    const firsts: string[] = [];
    const returns: string[] = [];
    for (let i = 0; i < 40; i++) {
      const who = await shopper(ctx.app);
      const first = await shop(ctx.app, who, store, [[soap.barcode, 1]]);
      await exit(who, first);
      firsts.push(first);
      for (let j = 0; j < 4; j++) {
        const visit = await shop(ctx.app, who, store, [[soap.barcode, 1]]);
        await exit(who, visit);
        returns.push(visit);
      }
    }
    let onFirst = 0;
    for (const visit of firsts) onFirst += await flagged(visit);
    let onReturn = 0;
    for (const visit of returns) onReturn += await flagged(visit);
    expect(onFirst).toBe(0);
    // 160 returning exits at 0.2: 32 expected, σ ≈ 5.1.
    expect(Math.abs(onReturn - 32)).toBeLessThanOrEqual(4 * Math.sqrt(160 * 0.2 * 0.8));

    await setShare(0);
    const who = await returningShopper();
    let none = 0;
    for (let i = 0; i < 10; i++) {
      const visit = await shop(ctx.app, who, store, [[soap.barcode, 1]]);
      await exit(who, visit);
      none += await flagged(visit);
    }
    expect(none).toBe(0);
  }, 120_000);

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
