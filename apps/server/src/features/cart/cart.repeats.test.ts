import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { putVisitIn, TEST_DATABASE_URL, waitingForLocks } from "../../test/harness.ts";
import {
  cartOf,
  ctx,
  eventsOf,
  item,
  openCartTests,
  products,
  scan,
  setModule,
  shopperBorn,
  store,
  visit,
  worker,
  workerKey,
} from "./cart.fixtures.ts";
import { keptCarts } from "./kept-carts.ts";
import { scanBatches, scanIntoCart } from "./scanning.ts";

beforeAll(openCartTests);
afterAll(() => ctx.close());

describe("scans sent more than once", () => {
  it("counts a scan_id once, answering the same line", async () => {
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    const id = randomUUID();
    const a = await scan(kim, s, products.milk!.barcode, id);
    const b = await scan(kim, s, products.milk!.barcode, id);
    expect(b.statusCode).toBe(200);
    expect(b.json().item).toEqual(a.json().item);
    expect((await scan(kim, s, products.milk!.barcode, randomUUID())).json().item.quantity).toBe(2);
  });

  it("counts a scan_id once when it arrives many times at once", async () => {
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    const id = randomUUID();
    const answers = await Promise.all(Array.from({ length: 20 }, () => scan(kim, s, products.bread!.barcode, id)));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    expect((await cartOf(kim, s)).items[0]?.quantity).toBe(1);
  });

  it("refuses a scan_id already used in another visit", async () => {
    const kim = await shopperBorn("1990-05-05");
    const id = randomUUID();
    const first = await visit(kim);
    expect((await scan(kim, first, products.milk!.barcode, id)).statusCode).toBe(200);
    await putVisitIn(ctx.app.db, first, "paid");
    const again = await scan(kim, await visit(kim), products.milk!.barcode, id);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe("scan_id_reused");
  });

  it("ends 100 parallel scans of one product at quantity 100, on one line", async () => {
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => scan(kim, s, products.milk!.barcode, i % 2 ? randomUUID() : undefined)),
    );
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(100);
    const cart = await cartOf(kim, s);
    expect(cart.items).toHaveLength(1);
    expect(cart.items[0]?.quantity).toBe(100);
    expect(cart.total).toBe(1790);
  });
});

describe("scan ids whose line is gone or whose visit is another", () => {
  it("answers a scan id again after its line was removed as already counted, adding nothing", async () => {
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    const id = randomUUID();
    const line = (await scan(kim, s, products.milk!.barcode, id)).json().item.id as string;
    expect((await item(kim, "DELETE", line)).statusCode).toBe(200);
    const again = await scan(kim, s, products.milk!.barcode, id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: "scan_already_counted", detail: "Skanningen är redan registrerad." });
    expect((await cartOf(kim, s)).items).toEqual([]);
  });

  it("says a scan id belongs to another visit", async () => {
    const kim = await shopperBorn("1990-05-05");
    const id = randomUUID();
    const first = await visit(kim);
    await scan(kim, first, products.milk!.barcode, id);
    await putVisitIn(ctx.app.db, first, "paid");
    const again = await scan(kim, await visit(kim), products.milk!.barcode, id);
    expect(again.json()).toMatchObject({ code: "scan_id_reused", detail: "Skanningen hör till ett annat besök." });
  });
});

/**
 * Two sends that cross inside the database. A row the change touches last is held by a transaction of
 * our own, so the first send stops just before it commits; the second then runs into the first one's
 * unwritten line and waits on it. PGlite runs one transaction at a time, so only PostgreSQL can cross.
 */
describe.skipIf(!TEST_DATABASE_URL)("sends that cross inside the database (PostgreSQL)", () => {
  /** Holds `sql` (a row lock) in a transaction of its own until the returned release is called. */
  async function hold(statement: string, params: unknown[]) {
    const client = new pg.Client({ connectionString: ctx.databaseUrl });
    await client.connect();
    await client.query("begin");
    await client.query(statement, params);
    return async () => {
      await client.query("commit");
      await client.end();
    };
  }
  /** The visit's row, held: a scan that adds something moves its last activity there, last of all. */
  async function holdVisit(sessionId: string) {
    await ctx.app.db.execute(
      sql`update shopping_sessions set last_activity_at = now() - interval '5 minutes' where id = ${sessionId}`,
    );
    return hold("select 1 from shopping_sessions where id = $1 for update", [sessionId]);
  }

  it("one scan id sent twice: the second finds the first's line and counts nothing", async () => {
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    const id = randomUUID();
    const release = await holdVisit(s);
    const first = scan(kim, s, products.milk!.barcode, id);
    await waitingForLocks(ctx.app.db, 1); // line and scan written, waiting to move the visit's activity
    // From another instance: this one sends a visit's scans one at a time, so only two instances cross here.
    const second = scanIntoCart({
      db: ctx.app.db,
      scans: scanBatches(ctx.app.db),
      customerId: kim.customerId,
      sessionId: s,
      barcode: products.milk!.barcode,
      scanId: id,
      limitsOf: async () => ({ maxLineQuantity: 999, maxTotalOre: 10_000_000 }),
      kept: keptCarts(),
    });
    await waitingForLocks(ctx.app.db, 2); // waiting on the first one's line
    await release();
    const [a, b] = await Promise.all([first, second]);
    expect(a.statusCode).toBe(200);
    expect(JSON.parse(JSON.stringify(b.item))).toEqual(a.json().item);
    expect((await cartOf(kim, s)).items.map((i) => i.quantity)).toEqual([1]);
    expect((await eventsOf(s)).filter((e) => e.kind === "item_added")).toHaveLength(1);
  });

  it("one sighting sent twice by the worker: counted once", async () => {
    await setModule(store, "ai_product_recognition", true);
    const key = await workerKey(store);
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    const body = { session_id: s, product_id: products.bread!.id, action: "add", event_id: randomUUID() };
    const release = await holdVisit(s);
    const first = worker(key, body);
    await waitingForLocks(ctx.app.db, 1);
    const second = worker(key, body);
    await waitingForLocks(ctx.app.db, 2);
    await release();
    const answers = await Promise.all([first, second]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
    expect((await cartOf(kim, s)).items.map((i) => i.quantity)).toEqual([1]);
    expect((await eventsOf(s)).filter((e) => e.kind === "item_added")).toHaveLength(1);
  });

  it("a line removed twice at once: one removal, one event, no error", async () => {
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    const line = (await scan(kim, s, products.bread!.barcode)).json().item.id as string;
    const release = await hold("select 1 from cart_items where id = $1 for update", [line]);
    const removals = [item(kim, "DELETE", line), item(kim, "DELETE", line)];
    await waitingForLocks(ctx.app.db, 2); // both past the owner check, waiting to delete
    await release();
    const answers = await Promise.all(removals);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(answers.map((r) => r.json().items)).toEqual([[], []]);
    expect((await eventsOf(s)).filter((e) => e.kind === "item_removed")).toHaveLength(1);
  });
});
