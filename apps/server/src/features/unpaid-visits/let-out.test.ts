import http from "node:http";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/client.ts";
import { product, shop, shopper, type TestShopper } from "../../test/factories.ts";
import {
  as,
  createDeviceKey,
  createTestContext,
  listenToSessions,
  putVisitIn,
  signIn,
  type TestContext,
} from "../../test/harness.ts";
import { type PaymentHarness, startPaymentHarness } from "../../test/payments.ts";

/**
 * Issue 22: a shopper inside who cannot pay. The exit gate's refusal is on
 * the visit's timeline and the phone hears it needs a card; staff can open
 * the gate for them ("Let out unpaid"), and the visit is then left unpaid for
 * staff to charge or write off.
 */
let ctx: TestContext;
let pay: PaymentHarness;
let platform: ReturnType<typeof as>;
let storeAdmin: ReturnType<typeof as>;
let otherAdmin: ReturnType<typeof as>;
let store: string;
let gate: string;
let milk: { barcode: string };
/** What the door controller (a webhook) was asked to open, and what it answers. */
const opened: Array<{ store_id: string; session_id: string }> = [];
let doorAnswer = 200;
let controller: http.Server;

type Reply = Awaited<ReturnType<FastifyInstance["inject"]>>;
const body = (res: Reply) => [res.statusCode, res.json().code, res.json().detail];

const timeline = (visit: string) =>
  queryRows<{ kind: string; source: string; detail: Record<string, unknown> | null; admin_id: string | null }>(
    ctx.app.db,
    sql`select kind, source, detail, admin_id from session_events where session_id = ${visit} order by id`,
  );
const visitRow = async (visit: string) =>
  (
    await queryRows<{ state: string; exited_at: Date | null; checked_out_at: Date | null }>(
      ctx.app.db,
      sql`select state, exited_at, checked_out_at from shopping_sessions where id = ${visit}`,
    )
  )[0]!;
const audited = (visit: string) =>
  queryRows<{
    action: string;
    entity_type: string;
    store_id: string;
    summary: string;
    before: unknown;
    after: unknown;
  }>(
    ctx.app.db,
    sql`select action, entity_type, store_id, summary, before, after from audit_log where entity_id = ${visit} order by id`,
  );

/** A shopper without a card, inside a store that lets such shoppers in, with two cartons of milk. */
async function inWithoutCard(): Promise<{ who: TestShopper; visit: string }> {
  const who = await shopper(ctx.app, { card: null });
  return { who, visit: await shop(ctx.app, who, store, [[milk.barcode, 2]]) };
}

async function atGate(who: TestShopper) {
  const code = await who.call({ method: "GET", url: "/api/v1/exit/token" });
  expect(code.statusCode, code.body).toBe(200);
  return ctx.app.inject({
    method: "POST",
    url: "/api/v1/exit/scan",
    headers: { authorization: `Device ${gate}` },
    payload: { token: code.json().token },
  });
}
const exitStatus = async (who: TestShopper) => (await who.call({ method: "GET", url: "/api/v1/exit/status" })).json();
const letOut = (caller: ReturnType<typeof as>, visit: string) => caller.post(`/api/v1/admin/sessions/${visit}/let-out`);

beforeAll(async () => {
  controller = http.createServer((req, res) => {
    let text = "";
    req.on("data", (c) => {
      text += c;
    });
    req.on("end", () => {
      if (doorAnswer === 200) opened.push(JSON.parse(text));
      res.writeHead(doorAnswer).end();
    });
  });
  await new Promise<void>((resolve) => controller.listen(0, "127.0.0.1", resolve));
  pay = await startPaymentHarness();
  ctx = await createTestContext({
    STRIPE_SECRET_KEY: pay.simulator.secretKey,
    STRIPE_API_BASE: pay.apiBase,
    DOOR_WEBHOOK_URL: `http://127.0.0.1:${(controller.address() as { port: number }).port}/open`,
    DOOR_WEBHOOK_SECRET: "a door webhook secret for the tests",
  });
  const cookie = (await signIn(ctx.app)).cookie;
  platform = as(ctx.app, cookie);
  store = (await platform.post("/api/v1/stores/", { name: "Grindbutiken" })).json().id;
  const other = (await platform.post("/api/v1/stores/", { name: "Grannbutiken" })).json().id;
  // This store lets shoppers without a card in (issue 22's other side): the exit is where they meet the problem.
  const off = await platform.put(`/api/v1/settings/stores/${store}`, {
    settings: { store: { require_card_at_door: false } },
  });
  expect(off.statusCode, off.body).toBe(200);
  storeAdmin = as(ctx.app, (await signIn(ctx.app, "store_admin", [store])).cookie);
  otherAdmin = as(ctx.app, (await signIn(ctx.app, "store_admin", [other])).cookie);
  gate = (await createDeviceKey(ctx.app, store, "exit_gate")).key;
  milk = await product(ctx.app, cookie, 17.9, 12);
});
afterAll(async () => {
  await ctx?.close();
  await pay?.close();
  controller?.close();
});

describe("the exit gate's refusals on the visit's timeline", () => {
  it("records that the gate refused a shopper without a card, and why; the phone is told to add one", async () => {
    const { who, visit } = await inWithoutCard();
    const feed = await listenToSessions(ctx.app);
    const refused = await atGate(who);
    expect(body(refused)).toEqual([
      409,
      "no_payment_method",
      "Du har inget betalkort sparat. Lägg till ett kort för att betala automatiskt.",
    ]);
    expect((await timeline(visit)).slice(-2)).toEqual([
      { kind: "exit_qr", source: "exit_gate", detail: null, admin_id: null },
      { kind: "exit_refused", source: "exit_gate", detail: { code: "no_payment_method" }, admin_id: null },
    ]);
    await feed.settle();
    expect(feed.of(visit, "exit_refused")).toHaveLength(1);
    feed.stop();
    expect(await exitStatus(who)).toEqual({ state: "shopping", receipt: null, needs_card: true });
    expect(opened.some((o) => o.session_id === visit)).toBe(false);

    // With a card saved the phone no longer hears it, and the next code pays at the gate.
    const card = await who.call({
      method: "PUT",
      url: "/api/v1/payment-method",
      payload: { payment_method: "pm_card_visa" },
    });
    expect(card.statusCode).toBe(200);
    expect(await exitStatus(who)).toEqual({ state: "shopping", receipt: null });
    const paid = await atGate(who);
    expect(paid.json()).toMatchObject({ gate_opened: true, status: "paid" });
    expect(await exitStatus(who)).not.toHaveProperty("needs_card");
  });

  it("records a declined card and a code used twice, each with its code", async () => {
    const who = await shopper(ctx.app, { card: "pm_card_chargeDeclined" });
    const visit = await shop(ctx.app, who, store, [[milk.barcode, 1]]);
    const code = (await who.call({ method: "GET", url: "/api/v1/exit/token" })).json().token;
    const read = () =>
      ctx.app.inject({
        method: "POST",
        url: "/api/v1/exit/scan",
        headers: { authorization: `Device ${gate}` },
        payload: { token: code },
      });
    expect((await read()).statusCode).toBe(402);
    expect((await read()).json().code).toBe("exit_code_used");
    const refusals = (await timeline(visit)).filter((e) => e.kind === "exit_refused").map((e) => e.detail);
    expect(refusals).toEqual([{ code: "payment_declined" }, { code: "exit_code_used" }]);
    // A declined card is no reason to add one: the phone says the card was declined.
    expect(await exitStatus(who)).toEqual({ state: "declined", receipt: null });
  });

  it("records nothing for a code that is not a real one", async () => {
    const { visit } = await inWithoutCard();
    const before = (await timeline(visit)).length;
    const forged = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/exit/scan",
      headers: { authorization: `Device ${gate}` },
      payload: { token: `GLIDEX1.${Buffer.from(JSON.stringify([visit, store, 2e9, "n"])).toString("base64url")}.AAAA` },
    });
    expect(forged.json().code).toBe("invalid_exit_code");
    expect(await timeline(visit)).toHaveLength(before);
  });
});

describe("letting a shopper out unpaid", () => {
  it("opens the gate, leaves the visit unpaid for staff, and records who did it", async () => {
    const { who, visit } = await inWithoutCard();
    expect((await atGate(who)).statusCode).toBe(409);
    const feed = await listenToSessions(ctx.app);

    const res = await letOut(storeAdmin, visit);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: visit, status: "left_unpaid", total: 35.8 });
    expect(opened.at(-1)).toMatchObject({ store_id: store, session_id: visit });
    const row = await visitRow(visit);
    expect(row.state).toBe("left_unpaid");
    expect(row.exited_at).not.toBeNull();
    const last = (await timeline(visit)).at(-1)!;
    expect(last).toMatchObject({ kind: "let_out", source: "staff", detail: { amount: 35.8, left_unpaid: true } });
    expect(last.admin_id).not.toBeNull();
    expect(await audited(visit)).toEqual([
      {
        action: "session.let_out",
        entity_type: "session",
        store_id: store,
        summary: `Visit ${visit.slice(0, 8)} in "Grindbutiken" let out through the exit gate unpaid (35.80 kr)`,
        before: { state: "in_store", total: 35.8 },
        after: { state: "left_unpaid" },
      },
    ]);
    await feed.settle();
    expect(feed.of(visit, "let_out")).toHaveLength(1);
    feed.stop();

    // Now it is a visit left unpaid: the shopper owes it before entering again, and staff settle it.
    const owed = (await who.call({ method: "GET", url: "/api/v1/visits/unpaid" })).json();
    expect(owed).toMatchObject([{ session_id: visit, store_name: "Grindbutiken", total: 35.8 }]);
    expect(
      (await who.call({ method: "POST", url: "/api/v1/sessions/entry", payload: { store_id: store } })).json().code,
    ).toBe("unpaid_visit");
    expect((await platform.post(`/api/v1/admin/sessions/${visit}/charge`)).json().code).toBe("no_payment_method");
    const written = await storeAdmin.post(`/api/v1/admin/sessions/${visit}/write-off`, { reason: "Inget kort" });
    expect(written.json()).toMatchObject({ status: "written_off" });
  });

  it("ends a visit with an empty cart: nothing is owed", async () => {
    const who = await shopper(ctx.app, { card: null });
    const visit = await shop(ctx.app, who, store, []);
    const activity = async () =>
      (
        await queryRows<{ at: Date }>(
          ctx.app.db,
          sql`select last_activity_at as at from shopping_sessions where id = ${visit}`,
        )
      )[0]!.at;
    const quietSince = await activity();
    const res = await letOut(platform, visit);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: "checked_out", total: 0 });
    const row = await visitRow(visit);
    expect([row.state, row.checked_out_at === null]).toEqual(["ended_empty", false]);
    expect((await timeline(visit)).at(-1)).toMatchObject({
      kind: "let_out",
      detail: { amount: 0, left_unpaid: false },
    });
    // Staff's act is not the shopper's activity: the visit's last activity stays where the shopper left it.
    expect(await activity()).toEqual(quietSince);
    expect((await who.call({ method: "GET", url: "/api/v1/visits/unpaid" })).json()).toEqual([]);
  });

  it("is refused to another store's admin, for a visit not inside, while it is being charged, and unknown ids", async () => {
    const { visit } = await inWithoutCard();
    expect(body(await letOut(otherAdmin, visit))[0]).toBe(403);
    expect((await visitRow(visit)).state).toBe("in_store");

    await putVisitIn(ctx.app.db, visit, "paid");
    expect(body(await letOut(platform, visit))).toEqual([
      409,
      "not_in_store",
      "Only a shopper inside the store can be let out",
    ]);
    await ctx.app.db.execute(sql`update shopping_sessions set state = 'charging' where id = ${visit}`);
    expect(body(await letOut(platform, visit))).toEqual([
      409,
      "payment_in_progress",
      "A charge of this visit is under way",
    ]);
    expect(await audited(visit)).toEqual([]);

    const code = (
      await (
        await shopper(ctx.app)
      ).call({ method: "POST", url: "/api/v1/sessions/entry", payload: { store_id: store } })
    ).json().session_id;
    // An entry code not yet through the door is not a visit staff can see.
    expect((await letOut(platform, code)).statusCode).toBe(404);
    const unknown = "00000000-0000-4000-8000-000000000000";
    expect(body(await letOut(platform, unknown))).toEqual([404, "not_found", `Session ${unknown} not found`]);
    expect((await letOut(as(ctx.app, null), visit)).statusCode).toBe(401);
  });

  it("changes nothing when the gate does not open, and says so", async () => {
    const { visit } = await inWithoutCard();
    const before = (await timeline(visit)).length;
    doorAnswer = 500;
    try {
      const res = await letOut(platform, visit);
      expect(res.statusCode).toBe(502);
      expect(res.json().code).toBe("gate_unavailable");
      expect(res.json().detail).toMatch(/^The exit gate did not open, so nothing was changed; try again \(.+\)$/);
    } finally {
      doorAnswer = 200;
    }
    expect((await visitRow(visit)).state).toBe("in_store");
    expect(await timeline(visit)).toHaveLength(before);
    expect(await audited(visit)).toEqual([]);
    expect((await letOut(platform, visit)).statusCode).toBe(200);
  });
});
