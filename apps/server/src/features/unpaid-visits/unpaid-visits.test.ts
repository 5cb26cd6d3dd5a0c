import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app.ts";
import { openDatabase, queryRows } from "../../db/client.ts";
import { product, shop, shopper, type TestShopper } from "../../test/factories.ts";
import {
  as,
  createTestContext,
  listenToSessions,
  putVisitIn,
  signIn,
  TEST_DATABASE_URL,
  type TestContext,
} from "../../test/harness.ts";
import { type PaymentHarness, startPaymentHarness } from "../../test/payments.ts";
import { idempotencyKeyOf } from "../payments/charge.ts";

/** What a store does with a visit left unpaid: charge the card on file, or write it off with a reason. */
let ctx: TestContext;
let pay: PaymentHarness;
let platform: ReturnType<typeof as>;
let storeAdmin: ReturnType<typeof as>;
let otherAdmin: ReturnType<typeof as>;
let store: string;
let other: string;
let milk: { barcode: string };

type Reply = Awaited<ReturnType<FastifyInstance["inject"]>>;
const body = (res: Reply) => [res.statusCode, res.json().code, res.json().detail];

/** A shopper who left with two cartons of milk (2 × 17.90 kr) and no payment. */
async function leftUnpaid(opts: { card?: string | null } = {}): Promise<{ who: TestShopper; visit: string }> {
  // The door asks for a card on file: a shopper without one removed theirs after going in.
  const who = await shopper(ctx.app, opts.card === null ? {} : opts);
  const visit = await shop(ctx.app, who, store, [[milk.barcode, 2]]);
  if (opts.card === null)
    expect((await who.call({ method: "DELETE", url: "/api/v1/payment-method" })).statusCode).toBe(204);
  await putVisitIn(ctx.app.db, visit, "left_unpaid");
  return { who, visit };
}

const charge = (caller: ReturnType<typeof as>, visit: string) => caller.post(`/api/v1/admin/sessions/${visit}/charge`);
const writeOff = (caller: ReturnType<typeof as>, visit: string, reason?: unknown) =>
  caller.post(`/api/v1/admin/sessions/${visit}/write-off`, reason === undefined ? {} : { reason });

const audited = (visit: string) =>
  queryRows<{
    action: string;
    entity_type: string;
    store_id: string;
    summary: string;
    actor_email: string;
    after: Record<string, unknown>;
  }>(
    ctx.app.db,
    sql`select action, entity_type, store_id, summary, actor_email, after from audit_log
        where entity_id = ${visit} order by id`,
  );
const timeline = (visit: string) =>
  queryRows<{ kind: string; source: string; detail: Record<string, unknown> }>(
    ctx.app.db,
    sql`select kind, source, detail from session_events where session_id = ${visit} order by id`,
  );

beforeAll(async () => {
  pay = await startPaymentHarness();
  ctx = await createTestContext({ STRIPE_SECRET_KEY: pay.simulator.secretKey, STRIPE_API_BASE: pay.apiBase });
  const cookie = (await signIn(ctx.app)).cookie;
  platform = as(ctx.app, cookie);
  store = (await platform.post("/api/v1/stores/", { name: "Obetalda butiken" })).json().id;
  other = (await platform.post("/api/v1/stores/", { name: "Andra butiken" })).json().id;
  storeAdmin = as(ctx.app, (await signIn(ctx.app, "store_admin", [store])).cookie);
  otherAdmin = as(ctx.app, (await signIn(ctx.app, "store_admin", [other])).cookie);
  milk = await product(ctx.app, cookie, 17.9, 12);
});
afterAll(async () => {
  await ctx?.close();
  await pay?.close();
});

describe("charging a visit left unpaid", () => {
  it("charges the card on file once, however many staff press at once, and the visit is paid with a receipt", async () => {
    const { who, visit } = await leftUnpaid();
    const answers = await Promise.all([charge(storeAdmin, visit), charge(platform, visit), charge(storeAdmin, visit)]);
    expect(answers.filter((a) => a.statusCode === 200).length).toBeGreaterThanOrEqual(1);
    for (const a of answers) expect([200, 409]).toContain(a.statusCode);
    const paid = answers.find((a) => a.statusCode === 200)!.json();
    expect(paid).toMatchObject({ status: "checked_out", payment_state: "paid", total: 35.8 });
    expect(paid.receipt_number).toBeGreaterThan(0);
    const intents = await pay.intentsFor(`${idempotencyKeyOf(visit, 1)}-authorize`);
    expect(intents.map((i) => [i.amount, i.amount_received])).toEqual([[3_580, 3_580]]);
    const asked = (await timeline(visit)).filter((e) => e.kind === "staff_charge");
    expect(asked[0]).toMatchObject({ source: "staff", detail: { amount: 35.8 } });
    expect((await audited(visit)).map((a) => a.action)).toContain("session.charge");
    expect((await audited(visit))[0]).toMatchObject({ entity_type: "session", store_id: store });
    expect((await audited(visit))[0]!.summary).toMatch(
      new RegExp(
        `^Unpaid visit ${visit.slice(0, 8)} in "Obetalda butiken" charged 35\\.80 kr to the card on file: paid, receipt \\d+$`,
      ),
    );
    // Paid, the shopper may come in again; the receipt is theirs.
    const entry = await who.call({ method: "POST", url: "/api/v1/sessions/entry", payload: { store_id: store } });
    expect(entry.statusCode, entry.body).toBe(200);
    expect(body(await charge(platform, visit))).toEqual([
      409,
      "not_left_unpaid",
      "Only a visit left unpaid can be charged or written off by staff",
    ]);
  });

  it("says in English why a charge did not go through, and keeps the visit unpaid", async () => {
    const declined = await leftUnpaid({ card: "pm_card_chargeDeclined" });
    expect(body(await charge(platform, declined.visit))).toEqual([
      402,
      "payment_declined",
      "The card on file was declined; the visit stays unpaid",
    ]);
    const [{ state }] = (await queryRows<{ state: string }>(
      ctx.app.db,
      sql`select state from shopping_sessions where id = ${declined.visit}`,
    )) as [{ state: string }];
    expect(state).toBe("left_unpaid");
    expect((await audited(declined.visit)).at(-1)?.after).toEqual({ outcome: "payment_declined" });

    const cardless = await leftUnpaid({ card: null });
    const before = (await timeline(cardless.visit)).length;
    expect(body(await charge(platform, cardless.visit))).toEqual([
      409,
      "no_payment_method",
      "The shopper has no card on file; write the visit off or contact the shopper",
    ]);
    // Refused before anything was asked or written.
    expect((await timeline(cardless.visit)).length).toBe(before);
    expect(await audited(cardless.visit)).toEqual([]);
  });

  it("says so when the provider does not answer (settled later with the same key), and when there is nothing to pay", async () => {
    const { visit } = await leftUnpaid();
    await pay.control("/faults", { mode: "error", path: "/v1/payment_intents" });
    try {
      expect(body(await charge(platform, visit))).toEqual([
        503,
        "payment_unavailable",
        "The payment provider did not answer; the charge is settled later with the same key",
      ]);
    } finally {
      await pay.control("/faults", {});
    }
    const [asked] = await audited(visit);
    expect(asked).toMatchObject({
      action: "session.charge",
      after: { outcome: "payment_unavailable" },
    });
    expect((await queryRows(ctx.app.db, sql`select before from audit_log where entity_id = ${visit}`))[0]).toEqual({
      before: { state: "left_unpaid", total: 35.8 },
    });
    // Its cart emptied behind the screens' back: the charge ends it with nothing to pay.
    const { visit: emptied } = await leftUnpaid();
    await ctx.app.db.execute(sql`delete from cart_items where session_id = ${emptied}`);
    expect(body(await charge(platform, emptied))).toEqual([409, "nothing_to_pay", "The visit has nothing left to pay"]);
    expect((await audited(emptied)).at(-1)?.after).toEqual({ outcome: "nothing to pay" });
  });

  it("refuses a visit still in the store, another store's visit, and an unknown one", async () => {
    const inside = await shopper(ctx.app);
    const visit = await shop(ctx.app, inside, store, [[milk.barcode, 1]]);
    expect(body(await charge(platform, visit))).toEqual([
      409,
      "visit_open",
      "The shopper is still in the store: the visit is paid at the exit",
    ]);
    const { visit: unpaid } = await leftUnpaid();
    expect((await charge(otherAdmin, unpaid)).statusCode).toBe(403);
    expect((await writeOff(otherAdmin, unpaid, "Inte min butik")).statusCode).toBe(403);
    expect((await charge(platform, "00000000-0000-4000-8000-000000000000")).statusCode).toBe(404);
  });
});

describe.skipIf(!TEST_DATABASE_URL)("two instances on one PostgreSQL", () => {
  it("staff pressing Charge on both at once: one charge, and both are told it is paid", async () => {
    const database = await openDatabase({
      databaseUrl: ctx.databaseUrl,
      logger: pino({ level: "silent" }),
      poolSize: 3,
    });
    const other = await buildApp(ctx.app.config, { database });
    try {
      const { visit } = await leftUnpaid();
      const here = as(ctx.app, (await signIn(ctx.app)).cookie);
      const there = as(other, (await signIn(other)).cookie);
      const answers = await Promise.all([charge(here, visit), charge(there, visit)]);
      expect(answers.map((a) => [a.statusCode, a.json().status])).toEqual([
        [200, "checked_out"],
        [200, "checked_out"],
      ]);
      const intents = await pay.intentsFor(`${idempotencyKeyOf(visit, 1)}-authorize`);
      expect(intents).toHaveLength(1);
    } finally {
      await other.close();
      await database.close();
    }
  });
});

describe("writing a visit left unpaid off", () => {
  it("needs a reason, records it on the timeline and in the audit log, and lets the shopper in again", async () => {
    const { who, visit } = await leftUnpaid();
    expect(body(await writeOff(storeAdmin, visit))[0]).toBe(422);
    expect(body(await writeOff(storeAdmin, visit, "   "))).toEqual([
      422,
      "validation_error",
      "reason: A reason is required",
    ]);
    expect(body(await writeOff(storeAdmin, visit, "x".repeat(501)))[2]).toBe(
      "reason: The reason must be at most 500 characters",
    );
    const bus = await listenToSessions(ctx.app);
    const done = await writeOff(storeAdmin, visit, "Varorna lämnades kvar vid kassan");
    await bus.settle();
    expect(bus.of(visit, "written_off")).toEqual([{ store_id: store, session_id: visit, kind: "written_off" }]);
    bus.stop();
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ status: "written_off", total: 35.8, payment_state: "none" });
    expect((await timeline(visit)).at(-1)).toEqual({
      kind: "written_off",
      source: "staff",
      detail: { amount: 35.8, reason: "Varorna lämnades kvar vid kassan" },
    });
    const [entry] = await audited(visit);
    expect(entry).toMatchObject({
      action: "session.write_off",
      after: { state: "written_off", reason: "Varorna lämnades kvar vid kassan" },
    });
    expect(entry).toMatchObject({ entity_type: "session", store_id: store });
    expect(entry!.summary).toBe(
      `Unpaid visit ${visit.slice(0, 8)} in "Obetalda butiken" written off (35.80 kr): Varorna lämnades kvar vid kassan`,
    );
    expect(await pay.intentsFor(`${idempotencyKeyOf(visit, 1)}-authorize`)).toEqual([]);
    const again = await who.call({ method: "POST", url: "/api/v1/sessions/entry", payload: { store_id: store } });
    expect(again.statusCode, again.body).toBe(200);
    // Written off is the end: neither a second write-off nor a charge.
    expect(body(await writeOff(platform, visit, "Igen"))[1]).toBe("not_left_unpaid");
    expect(body(await charge(platform, visit))[1]).toBe("not_left_unpaid");
    const listed = (await platform.get(`/api/v1/admin/sessions?status=written_off&store_id=${store}`)).json();
    expect(listed.map((r: { id: string }) => r.id)).toContain(visit);
  });
});
