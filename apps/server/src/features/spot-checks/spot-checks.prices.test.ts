import { describe, expect, it } from "vitest";
import { sql } from "../../db/client.ts";
import { product } from "../../test/factories.ts";
import {
  admin,
  cookie,
  ctx,
  decide,
  flaggedVisit,
  otherStore,
  store,
  useSpotChecksApp,
} from "../../test/spot-checks.fixtures.ts";

/**
 * Items added at a check cost what the shelf asked on the day of the
 * decision (2026-03-16 in these tests' sale clock): the store's own price over
 * the catalogue's, and a campaign of that day when it is lower, kept beside it
 * on the receipt.
 */
useSpotChecksApp();

describe("the price of items added at a spot check", () => {
  it("is the store's own, or the day's campaign with the ordinary price beside it", async () => {
    const { check, who } = await flaggedVisit(1);
    const bread = await product(ctx.app, cookie, 30, "food");
    const cheese = await product(ctx.app, cookie, 80, "food");
    const jam = await product(ctx.app, cookie, 40, "food");
    await ctx.app.db.execute(
      sql`insert into store_prices (store_id, product_id, price_ore)
          values (${store}, ${bread.id}, 2800), (${otherStore}, ${cheese.id}, 1000), (${store}, ${cheese.id}, 7500)`,
    );
    await ctx.app.db.execute(
      sql`insert into campaigns (product_id, store_id, price_ore, starts_on, ends_on)
          values (${cheese.id}, null, 6000, '2026-03-16', '2026-03-16'),
                 (${jam.id}, null, 2000, '2026-03-17', '2026-03-31'),
                 (${jam.id}, ${otherStore}, 1500, '2026-03-01', '2026-03-31')`,
    );
    const res = await decide(check.id, {
      outcome: "items_added",
      items_added: [
        { product_id: bread.id, quantity: 1 },
        { product_id: cheese.id, quantity: 2 },
        { product_id: jam.id, quantity: 1 },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    // 28 + 2 × 60 + 40: the store's bread, the day's cheese, jam at its catalogue price (its campaigns are
    // another day's and another store's).
    expect(res.json().charge).toMatchObject({ amount: 188, state: "paid" });
    const receipt = (await who.call({ method: "GET", url: `/api/v1/receipts/${check.order_id}` })).json();
    expect(
      receipt.items
        .slice(1)
        .map((i: { unit_price: number; ordinary_unit_price: number | null }) => [i.unit_price, i.ordinary_unit_price]),
    ).toEqual([
      [28, null],
      [60, 75],
      [40, null],
    ]);
    expect((await admin.get(`/api/v1/admin/sessions/${check.session_id}`)).json().order.lines[2]).toMatchObject({
      unit_price: 60,
      ordinary_unit_price: 75,
    });
  });

  it("includes a drink's pant: charged with it, and a line of its own under it on the receipt", async () => {
    const { check, who } = await flaggedVisit(1);
    const before = (await who.call({ method: "GET", url: `/api/v1/receipts/${check.order_id}` })).json();
    const soda = await product(ctx.app, cookie, 12.9, "food");
    await ctx.app.db.execute(sql`update products set pant_code = 'can' where id = ${soda.id}`);
    const res = await decide(check.id, { outcome: "items_added", items_added: [{ product_id: soda.id, quantity: 2 }] });
    expect(res.statusCode, res.body).toBe(200);
    // 2 × (12,90 + 2,00 pant on a can in Sweden).
    expect(res.json().charge).toMatchObject({ amount: 29.8, state: "paid" });
    const receipt = (await who.call({ method: "GET", url: `/api/v1/receipts/${check.order_id}` })).json();
    expect(receipt.items.at(-1)).toMatchObject({ quantity: 2, unit_price: 12.9, pant: { unit: 2, total: 4 } });
    expect(Math.round((receipt.total - before.total) * 100)).toBe(2980);
  });
});
