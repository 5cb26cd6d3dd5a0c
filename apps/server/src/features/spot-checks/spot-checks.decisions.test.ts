import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { queryRows, sql } from "../../db/client.ts";
import { product } from "../../test/factories.ts";
import { as, listenToSessions, signIn } from "../../test/harness.ts";
import {
  admin,
  checkOf,
  cookie,
  ctx,
  decide,
  flaggedVisit,
  otherStore,
  pay,
  soap,
  store,
  useSpotChecksApp,
} from "../../test/spot-checks.fixtures.ts";

/**
 * Deciding a spot check in the console: outcomes, two staff at once, who may
 * decide, the list, and the flag on the Sessions screen.
 */
useSpotChecksApp();

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
