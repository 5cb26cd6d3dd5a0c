import { unpaidVisitSchema } from "@glide/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { sql } from "../../db/client.ts";
import { paidVisit, product, shop, shopper } from "../../test/factories.ts";
import { as, createTestContext, putVisitIn, signIn, type TestContext } from "../../test/harness.ts";
import { type PaymentHarness, startPaymentHarness } from "../../test/payments.ts";

/**
 * What a shopper is told they owe (GET /api/v1/visits/unpaid): their own
 * visits left unpaid and nothing else, oldest first, each summed in bigint
 * öre so a cart past 2^31 öre is owed in full.
 */
let ctx: TestContext;
let pay: PaymentHarness;
let cookie: string;
let admin: ReturnType<typeof as>;
let soap: Awaited<ReturnType<typeof product>>;
let yacht: Awaited<ReturnType<typeof product>>;

beforeAll(async () => {
  pay = await startPaymentHarness();
  ctx = await createTestContext({ STRIPE_SECRET_KEY: pay.simulator.secretKey, STRIPE_API_BASE: pay.apiBase });
  cookie = (await signIn(ctx.app)).cookie;
  admin = as(ctx.app, cookie);
  soap = await product(ctx.app, cookie, 24.5);
  yacht = await product(ctx.app, cookie, 10_000_000);
});
afterAll(async () => {
  await ctx?.close();
  await pay?.close();
});

const newStore = async (name: string) => (await admin.post("/api/v1/stores/", { name })).json().id as string;

describe("what a shopper owes", () => {
  it("is their visits left unpaid, oldest first, in full; not one paid, ended empty, written off or another's", async () => {
    const [first, second, third, fourth] = [
      await newStore("Första"),
      await newStore("Andra"),
      await newStore("Tredje"),
      await newStore("Fjärde"),
    ];
    const who = await shopper(ctx.app);
    // Paid while nothing else is owed (a checkout settles every owed visit).
    await paidVisit(ctx.app, who, fourth, [[soap.barcode, 1]]);
    const endedEmpty = await shop(ctx.app, who, fourth, []);
    await putVisitIn(ctx.app.db, endedEmpty, "ended_empty");
    const older = await shop(ctx.app, who, first, [[soap.barcode, 1]]);
    const large = await shop(ctx.app, who, second, [[soap.barcode, 2]]);
    // A cart from before the limits: 999 × 10,000,000 kr is far past what an int of öre holds.
    await ctx.app.db.execute(
      sql`insert into cart_items (session_id, product_id, line_key, quantity, unit_price_ore)
          values (${large}, ${yacht.id}, ${yacht.id}, 999, 1000000000)`,
    );
    const writtenOff = await shop(ctx.app, who, third, [[soap.barcode, 1]]);
    for (const visit of [older, large, writtenOff]) await putVisitIn(ctx.app.db, visit, "left_unpaid");
    const off = await admin.post(`/api/v1/admin/sessions/${writtenOff}/write-off`, { reason: "Kvarglömd tvål" });
    expect(off.statusCode, off.body).toBe(200);
    const stranger = await shopper(ctx.app);
    await putVisitIn(ctx.app.db, await shop(ctx.app, stranger, first, [[soap.barcode, 1]]), "left_unpaid");

    const owed = await who.call({ method: "GET", url: "/api/v1/visits/unpaid" });
    expect(owed.statusCode, owed.body).toBe(200);
    expect(z.array(unpaidVisitSchema).parse(owed.json())).toEqual([
      { session_id: older, store_name: "Första", total: 24.5, left_at: expect.any(String) },
      { session_id: large, store_name: "Andra", total: 9_990_000_049, left_at: expect.any(String) },
    ]);
  });
});
