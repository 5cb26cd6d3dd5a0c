import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { queryRows, sql } from "../../db/client.ts";
import { product } from "../../test/factories.ts";
import { listenToSessions } from "../../test/harness.ts";
import {
  admin,
  adminId,
  cookie,
  ctx,
  decide,
  flaggedVisit,
  store,
  useSpotChecksApp,
} from "../../test/spot-checks.fixtures.ts";

/** What a spot check decision records: events, notes, audit entries and refunds. */
useSpotChecksApp();

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
