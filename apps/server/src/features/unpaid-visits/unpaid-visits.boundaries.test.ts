import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows, sql } from "../../db/client.ts";
import { product, shop, shopper } from "../../test/factories.ts";
import { as, createTestContext, putVisitIn, signIn, type TestContext } from "../../test/harness.ts";

/**
 * Which visits staff may charge or write off, as visitFor reads them: only
 * one that went through the door (any other is unknown to the console), its
 * goods summed in bigint öre.
 */
let ctx: TestContext;
let cookie: string;
let platform: ReturnType<typeof as>;
let store: string;

beforeAll(async () => {
  ctx = await createTestContext();
  cookie = (await signIn(ctx.app)).cookie;
  platform = as(ctx.app, cookie);
  store = (await platform.post("/api/v1/stores/", { name: "Personalbutiken" })).json().id;
});
afterAll(() => ctx?.close());

describe("a visit staff may settle", () => {
  it("is unknown (404) until it went through the door, for a charge and a write-off alike", async () => {
    const who = await shopper(ctx.app, { card: null });
    const entry = await who.call({ method: "POST", url: "/api/v1/sessions/entry", payload: { store_id: store } });
    expect(entry.statusCode, entry.body).toBe(200);
    const visit = entry.json().session_id as string;
    for (const res of [
      await platform.post(`/api/v1/admin/sessions/${visit}/charge`),
      await platform.post(`/api/v1/admin/sessions/${visit}/write-off`, { reason: "Aldrig inne" }),
    ])
      expect([res.statusCode, res.json().detail]).toEqual([404, `Session ${visit} not found`]);
    // Through the door, the same visit is known, and answered by where it stands.
    await putVisitIn(ctx.app.db, visit, "in_store");
    expect((await platform.post(`/api/v1/admin/sessions/${visit}/charge`)).json().code).toBe("visit_open");
  });

  it("is written off for its whole amount when its cart is past 2^31 öre", async () => {
    const yacht = await product(ctx.app, cookie, 10_000_000);
    const soap = await product(ctx.app, cookie, 24.5);
    const visit = await shop(ctx.app, await shopper(ctx.app, { card: null }), store, [[soap.barcode, 1]]);
    await ctx.app.db.execute(
      sql`insert into cart_items (session_id, product_id, line_key, quantity, unit_price_ore)
          values (${visit}, ${yacht.id}, ${yacht.id}, 999, 1000000000)`,
    );
    await putVisitIn(ctx.app.db, visit, "left_unpaid");
    const off = await platform.post(`/api/v1/admin/sessions/${visit}/write-off`, { reason: "Sjösatt utan betalning" });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ status: "written_off", total: 9_990_000_024.5 });
    const [entry] = await queryRows<{ summary: string; before: { total: number } }>(
      ctx.app.db,
      sql`select summary, before from audit_log where action = 'session.write_off' and entity_id = ${visit}`,
    );
    expect(entry!.before.total).toBe(9_990_000_024.5);
    expect(entry!.summary).toMatch(/written off \(9990000024\.50 kr\): Sjösatt utan betalning$/);
  });
});
