import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { shopper, type TestShopper } from "../../test/factories.ts";
import {
  body,
  charged,
  checkout,
  ctx,
  door,
  doorA,
  enter,
  entryCode,
  exitAt,
  gateA,
  gateB,
  oats,
  scan,
  scanned,
  stateOf,
  storeA,
  storeB,
  useVisitsApp,
  visitsOf,
} from "./visits.fixtures.ts";

/**
 * Issue 21's findings, each first reproduced as a test: one open visit per
 * shopper and store, the exit settling every visit the shopper owes, and the
 * way back to a visit in progress.
 */
useVisitsApp();

describe("one visit at a time", () => {
  it("a new entry code while a visit is open continues that visit, and the exit charges its goods (83.70 kr)", async () => {
    const ada = await shopper(ctx.app);
    const first = await enter(ada);
    await scanned(ada, first, 3);
    // The finding: a second code made a second visit, whose exit charged nothing and left the first open.
    const again = await entryCode(ada, storeA);
    expect(again.session_id).toBe(first);
    expect((await door(again, doorA)).statusCode).toBe(200);
    expect((await scan(ada, first)).statusCode).toBe(200);
    const gate = await exitAt(ada, gateA);
    expect(gate.json()).toMatchObject({ gate_opened: true, status: "paid" });
    expect(await charged(first)).toEqual([[11_160, 11_160]]);
    expect(await visitsOf(ada)).toEqual([{ id: first, store_id: storeA, state: "paid" }]);
    expect(body(await scan(ada, first))).toEqual([
      409,
      "checked_out",
      "Besöket är avslutat. Starta ett nytt besök för att handla.",
    ]);
  });

  it("a new code for another store stops the way back into an open visit, as it stops any unused code", async () => {
    const al = await shopper(ctx.app);
    const inA = await enter(al, storeA);
    const back = await entryCode(al, storeA);
    expect(back.session_id).toBe(inA);
    await entryCode(al, storeB);
    expect(body(await door(back, doorA))).toEqual([403, "invalid_token", "Ogiltig QR-kod."]);
    // The visit itself is still open, and a fresh code gets back in.
    expect(await stateOf(inA)).toBe("in_store");
    expect((await door(await entryCode(al, storeA), doorA)).statusCode).toBe(200);
  });

  it("never opens the door to a second open visit in the same store, even for two codes made at once", async () => {
    const bo = await shopper(ctx.app);
    const first = await entryCode(bo, storeA);
    // Two codes that both exist, as two requests at the same moment can leave them.
    const second = await entryCode(bo, storeA);
    await ctx.app.db.execute(
      sql`update shopping_sessions set state = 'entering', entry_revoked_at = null where id = ${first.session_id}`,
    );
    const doors = await Promise.all([door(first, doorA), door(second, doorA)]);
    expect(doors.map((d) => d.statusCode).sort()).toEqual([200, 409]);
    const refused = doors.find((d) => d.statusCode === 409)!;
    expect(body(refused)).toEqual([
      409,
      "visit_open",
      "Du har redan ett pågående besök i den här butiken. Fortsätt handla i det.",
    ]);
    expect((await visitsOf(bo)).map((v) => v.state)).toEqual(["in_store"]);
  });

  it("the exit settles every visit the shopper owes, in every store, each its own receipt", async () => {
    const cy = await shopper(ctx.app);
    const inA = await enter(cy, storeA);
    await scanned(cy, inA, 2);
    const inB = await enter(cy, storeB);
    await scanned(cy, inB, 1, oats.barcode);
    const gate = await exitAt(cy, gateB);
    expect(gate.json()).toMatchObject({ gate_opened: true, status: "paid" });
    expect(await charged(inA)).toEqual([[5_580, 5_580]]);
    expect(await charged(inB)).toEqual([[2_490, 2_490]]);
    expect((await visitsOf(cy)).map((v) => v.state)).toEqual(["paid", "paid"]);
    // The phone's answer is the receipt of the store it leaves; the other is under Mina kvitton.
    const receipts = (await cy.call({ method: "GET", url: "/api/v1/receipts" })).json() as { total: number }[];
    expect(receipts.map((r) => r.total).sort()).toEqual([24.9, 55.8]);
  });

  it("keeps the gate shut when a visit the shopper owes cannot be paid, and charges nothing twice on the retry", async () => {
    const di = await shopper(ctx.app, { card: "pm_card_chargeDeclined" });
    const inA = await enter(di, storeA);
    await scanned(di, inA, 1);
    const inB = await enter(di, storeB);
    await scanned(di, inB, 1, oats.barcode);
    const refused = await exitAt(di, gateB);
    expect(refused.statusCode).toBe(402);
    expect((await visitsOf(di)).map((v) => v.state)).toEqual(["in_store", "in_store"]);
    await di.call({ method: "PUT", url: "/api/v1/payment-method", payload: { payment_method: "pm_card_visa" } });
    expect((await exitAt(di, gateB)).json()).toMatchObject({ gate_opened: true, status: "paid" });
    expect(await charged(inA, 2)).toEqual([[2_790, 2_790]]);
    expect(await charged(inB, 2)).toEqual([[2_490, 2_490]]);
  });
});

describe("the way back to a visit in progress (issue 22)", () => {
  const open = async (who: TestShopper) => {
    const res = await who.call({ method: "GET", url: "/api/v1/visits/open" });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it("answers the visit inside a store with its cart's total and units, and null before and after it", async () => {
    const li = await shopper(ctx.app);
    expect(await open(li)).toBeNull();
    // An entry code alone is no visit yet.
    await entryCode(li, storeA);
    expect(await open(li)).toBeNull();
    const visit = await enter(li);
    expect(await open(li)).toEqual({
      session_id: visit,
      store_id: storeA,
      store_name: "Butik A",
      total: 0,
      item_count: 0,
    });
    await scanned(li, visit, 2);
    await scanned(li, visit, 1, oats.barcode);
    expect(await open(li)).toMatchObject({ session_id: visit, total: 80.7, item_count: 3 });
    expect((await checkout(li)).statusCode).toBe(200);
    expect(await open(li)).toBeNull();
  });

  it("answers the visit that went through a door last, only the shopper's own, and none left unpaid", async () => {
    const mo = await shopper(ctx.app);
    const inA = await enter(mo, storeA);
    const inB = await enter(mo, storeB);
    expect((await open(mo)).session_id).toBe(inB);
    const other = await shopper(ctx.app);
    expect(await open(other)).toBeNull();
    await ctx.app.db.execute(sql`update shopping_sessions set state = 'left_unpaid' where id = ${inB}`);
    expect((await open(mo)).session_id).toBe(inA);
    expect((await ctx.app.inject({ method: "GET", url: "/api/v1/visits/open" })).statusCode).toBe(401);
  });
});
