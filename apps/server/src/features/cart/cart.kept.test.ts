import { randomUUID } from "node:crypto";
import { cartScanResponseSchema } from "@glide/contracts";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/client.ts";
import { TEST_DATABASE_URL, waitingForLocks } from "../../test/harness.ts";
import { cartOf, ctx, item, openCartTests, products, type Shopper, scan, shopperBorn, visit } from "./cart.fixtures.ts";
import { keptCarts } from "./kept-carts.ts";
import { scanBatches, scanIntoCart } from "./scanning.ts";

// Each instance keeps a visit's lines under its cart_version (kept-carts.ts): these tests change a cart behind the
// instance's back and check that the next scan's answer is priced from the cart as it is.

beforeAll(openCartTests);
afterAll(() => ctx.close());

const version = async (sessionId: string) =>
  Number(
    (
      await queryRows<{ v: string }>(
        ctx.app.db,
        sql`select cart_version::text as v from shopping_sessions where id = ${sessionId}`,
      )
    )[0]!.v,
  );

/** A scan that must be added; its answer. */
async function added(who: Shopper, sessionId: string, barcode: string, scanId?: string) {
  const res = await scan(who, sessionId, barcode, scanId);
  expect(res.statusCode, res.body).toBe(200);
  return cartScanResponseSchema.parse(res.json());
}

const lineOf = async (who: Shopper, sessionId: string, productId: string) =>
  (await cartOf(who, sessionId)).items.find((line) => line.product.id === productId)!;

describe("a scan's total when the cart changed elsewhere", () => {
  it("follows a line changed by another instance or by hand, between two scans", async () => {
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    await added(kim, s, products.milk!.barcode);
    expect((await added(kim, s, products.milk!.barcode)).total).toBe(35.8);
    // As another instance or an operator's statement would: this instance is not told.
    await ctx.app.db.execute(sql`update cart_items set quantity = 5 where session_id = ${s}`);
    expect((await added(kim, s, products.bread!.barcode)).total).toBe(122);
    await ctx.app.db.execute(sql`delete from cart_items where session_id = ${s} and product_id = ${products.milk!.id}`);
    expect((await added(kim, s, products.bread!.barcode)).total).toBe(65);
    await ctx.app.db.execute(
      sql`insert into cart_items (session_id, product_id, line_key, quantity, unit_price_ore)
          values (${s}, ${products.milk!.id}, ${products.milk!.id}, 2, 1790)`,
    );
    const after = await added(kim, s, products.bread!.barcode);
    expect(after.total).toBe(133.3);
    expect((await cartOf(kim, s)).total).toBe(after.total);
  });

  it("follows the shopper's own quantity change and removal through the API", async () => {
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    await added(kim, s, products.milk!.barcode);
    await added(kim, s, products.bread!.barcode);
    const milk = await lineOf(kim, s, products.milk!.id);
    expect((await item(kim, "PUT", milk.id, 4)).statusCode).toBe(200);
    expect((await added(kim, s, products.bread!.barcode)).total).toBe(136.6);
    expect((await item(kim, "DELETE", milk.id)).statusCode).toBe(200);
    expect((await added(kim, s, products.bread!.barcode)).total).toBe(97.5);
  });

  it("answers a repeated scan_id with the cart as it is, after a change made meanwhile", async () => {
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    const id = randomUUID();
    await added(kim, s, products.milk!.barcode, id);
    await ctx.app.db.execute(sql`update cart_items set quantity = 3 where session_id = ${s}`);
    const again = await added(kim, s, products.milk!.barcode, id);
    expect(again.total).toBe(53.7);
    // And the copy read by the repeat is the one the next scan starts from.
    expect((await added(kim, s, products.bread!.barcode)).total).toBe(86.2);
  });

  it("ends parallel scans of one visit with the total the cart shows, and the next scan agrees", async () => {
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    const codes = Array.from({ length: 12 }, (_, i) => (i % 2 ? products.milk! : products.bread!).barcode);
    const answers = await Promise.all(codes.map((code) => scan(kim, s, code)));
    expect(answers.map((a) => a.statusCode)).toEqual(codes.map(() => 200));
    const total = 6 * 17.9 + 6 * 32.5;
    expect((await cartOf(kim, s)).total).toBeCloseTo(total, 2);
    expect((await added(kim, s, products.milk!.barcode)).total).toBeCloseTo(total + 17.9, 2);
  });
});

describe("a scan on the instance's copy", () => {
  const alone = () => ({ db: ctx.app.db, scans: scanBatches(ctx.app.db) });
  it("prices from the copy of the version it finds, without reading the lines, and keeps the line it wrote", async () => {
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    await added(kim, s, products.milk!.barcode);
    const kept = keptCarts();
    const limitsOf = async () => ({ maxLineQuantity: 999, maxTotalOre: 10_000_000 });
    const call = (barcode = products.bread!.barcode, scanId?: string) =>
      scanIntoCart({ ...alone(), customerId: kim.customerId, sessionId: s, barcode, scanId, limitsOf, kept });
    // Without a copy the statement reads the milk line, and the copy then holds it and the bread.
    const first = await call();
    expect(first.cart?.lines.map((l) => [l.product_id, l.quantity])).toEqual([
      [products.milk!.id, 1],
      [products.bread!.id, 1],
    ]);
    expect(kept.get(s)).toMatchObject({ version: String(await version(s)), lines: first.cart?.lines });
    // A copy of the current version is taken as it is: a line only it holds shows that nothing was read.
    const marker = { ...first.cart!.lines[0]!, id: "only-in-the-copy", quantity: 9 };
    kept.set(s, { version: String(await version(s)), lines: [...first.cart!.lines, marker] });
    const second = await call();
    expect(second.cart?.lines.map((l) => [l.id, l.quantity])).toContainEqual(["only-in-the-copy", 9]);
    expect(second.item.quantity).toBe(2);
    // A copy one version behind is not: the statement reads the lines.
    kept.set(s, { version: String((await version(s)) - 1), lines: [marker] });
    const third = await call();
    expect(third.cart?.lines.map((l) => l.id)).not.toContain("only-in-the-copy");
    expect(third.item.quantity).toBe(3);
    // A scan that adds nothing (its scan_id counted already) keeps the lines it read, under the version it saw.
    const id = randomUUID();
    await call(products.milk!.barcode, id);
    kept.set(s, { version: "0", lines: [marker] });
    await call(products.milk!.barcode, id);
    expect(kept.get(s)?.version).toBe(String(await version(s)));
    expect(kept.get(s)?.lines.map((l) => [l.product_id, l.quantity])).toEqual([
      [products.milk!.id, 2],
      [products.bread!.id, 3],
    ]);
  });

  it("holds the cart's total limit to the copy's sum, to the öre", async () => {
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    const kept = keptCarts();
    const limitsOf = async () => ({ maxLineQuantity: 999, maxTotalOre: 1790 + 3250 + 1790 });
    const call = (barcode: string) =>
      scanIntoCart({ ...alone(), customerId: kim.customerId, sessionId: s, barcode, limitsOf, kept });
    await call(products.milk!.barcode);
    await call(products.bread!.barcode);
    // 50.40 kr kept: one more milk makes exactly the limit; the next öre is over it.
    expect((await call(products.milk!.barcode)).item.quantity).toBe(2);
    await expect(call(products.milk!.barcode)).rejects.toMatchObject({ code: "cart_total_limit" });
    expect((await cartOf(kim, s)).total).toBe(68.3);
  });
});

describe("the cart's version", () => {
  it("rises once per change, whatever made it, and not for a scan that added nothing", async () => {
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    const v0 = await version(s);
    const id = randomUUID();
    await added(kim, s, products.milk!.barcode, id);
    expect(await version(s)).toBe(v0 + 1);
    // The same scan again, an inactive product and an unknown code change nothing.
    await added(kim, s, products.milk!.barcode, id);
    expect((await scan(kim, s, products.old!.barcode)).statusCode).toBe(409);
    expect(await version(s)).toBe(v0 + 1);
    await added(kim, s, products.milk!.barcode);
    expect(await version(s)).toBe(v0 + 2);
    const milk = await lineOf(kim, s, products.milk!.id);
    await item(kim, "PUT", milk.id, 5);
    expect(await version(s)).toBe(v0 + 3);
    // One transaction, several statements: one change.
    await ctx.app.db.transaction(async (tx) => {
      await tx.execute(sql`update cart_items set quantity = 6 where id = ${milk.id}`);
      await tx.execute(sql`update cart_items set quantity = 7 where id = ${milk.id}`);
    });
    expect(await version(s)).toBe(v0 + 4);
    await item(kim, "DELETE", milk.id);
    expect(await version(s)).toBe(v0 + 5);
    // A statement that touches no line of the visit leaves it alone.
    await ctx.app.db.execute(sql`update cart_items set quantity = quantity where id = ${randomUUID()}`);
    expect(await version(s)).toBe(v0 + 5);
  });

  it("rises for every visit a statement changes, once each", async () => {
    const kim = await shopperBorn("1990-05-05");
    const ann = await shopperBorn("1985-01-01");
    const [a, b] = [await visit(kim), await visit(ann)];
    await added(kim, a, products.milk!.barcode);
    await added(kim, a, products.bread!.barcode);
    await added(ann, b, products.milk!.barcode);
    const [va, vb] = [await version(a), await version(b)];
    await ctx.app.db.execute(sql`update cart_items set quantity = quantity + 1 where session_id in (${a}, ${b})`);
    expect([await version(a), await version(b)]).toEqual([va + 1, vb + 1]);
    expect((await added(kim, a, products.milk!.barcode)).total).toBe(118.7);
    expect((await added(ann, b, products.milk!.barcode)).total).toBe(53.7);
  });

  it("lets a visit be deleted with its lines", async () => {
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    await added(kim, s, products.milk!.barcode);
    await ctx.app.db.execute(sql`delete from shopping_sessions where id = ${s}`);
    expect(await queryRows(ctx.app.db, sql`select 1 from cart_items where session_id = ${s}`)).toEqual([]);
  });
});

describe.skipIf(!TEST_DATABASE_URL)("a change that commits while a scan is under way (PostgreSQL)", () => {
  it("is not lost: the scan's copy is dropped and the next scan reads the cart anew", async () => {
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    await added(kim, s, products.milk!.barcode);
    const milk = await lineOf(kim, s, products.milk!.id);
    const other = new pg.Client({ connectionString: ctx.databaseUrl });
    await other.connect();
    try {
      await other.query("begin");
      await other.query("update cart_items set quantity = 3 where id = $1", [milk.id]);
      // The scan reads the cart before that commit and waits for the visit's row, which the change holds.
      // inject sends the request once it is awaited: `then` sends it now.
      const during = scan(kim, s, products.bread!.barcode).then((answer) => answer);
      // pg_stat_activity keeps the first kilobyte of a statement: the scan's opens with its input.
      await waitingForLocks(ctx.app.db, 1, "with input as (select ");
      await other.query("commit");
      expect((await during).statusCode).toBe(200);
    } finally {
      await other.end();
    }
    expect((await added(kim, s, products.bread!.barcode)).total).toBe(118.7);
  });
});

describe.skipIf(!TEST_DATABASE_URL)("a burst of one visit's scans while its row is held (PostgreSQL)", () => {
  it("waits one scan at a time, so another visit's scan is answered meanwhile", async () => {
    const kim = await shopperBorn("1990-05-05");
    const ann = await shopperBorn("1985-01-01");
    const [held, free] = [await visit(kim), await visit(ann)];
    const other = new pg.Client({ connectionString: ctx.databaseUrl });
    await other.connect();
    let burst: Promise<{ statusCode: number }[]> | undefined;
    try {
      // As a checkout holds the visit while the card is charged.
      await other.query("begin");
      await other.query("select 1 from shopping_sessions where id = $1 for update", [held]);
      // More scans than the test pool's five connections.
      burst = Promise.all(Array.from({ length: 8 }, () => scan(kim, held, products.milk!.barcode).then((a) => a)));
      await waitingForLocks(ctx.app.db, 1, "with input as (select ");
      expect((await added(ann, free, products.bread!.barcode)).total).toBe(32.5);
      // Still one waiting in the database: the rest wait on this instance, holding no connection.
      await waitingForLocks(ctx.app.db, 1, "with input as (select ");
      await other.query("commit");
    } finally {
      await other.end();
    }
    expect((await burst!).map((a) => a.statusCode)).toEqual(Array(8).fill(200));
    expect((await cartOf(kim, held)).total).toBe(143.2);
  });
});

describe("a truncate of every cart", () => {
  // Last in the file: it empties every visit's cart.
  it("raises every visit's version, so no copy of a line that is gone is used", async () => {
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    await added(kim, s, products.milk!.barcode);
    const before = await version(s);
    await ctx.app.db.execute(sql`truncate cart_scans, cart_items`);
    expect(await version(s)).toBe(before + 1);
    expect((await added(kim, s, products.bread!.barcode)).total).toBe(32.5);
  });
});
