import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/client.ts";
import { TEST_DATABASE_URL, waitingForLocks } from "../../test/harness.ts";
import { cartOf, ctx, ean, openCartTests, products, type Shopper, scan, shopperBorn, visit } from "./cart.fixtures.ts";
import { keptCarts } from "./kept-carts.ts";
import { type Scans, scanBatches, scanIntoCart } from "./scanning.ts";

// Under load an instance sends the scans that wait in batches, one statement for many visits (scanBatches). These
// tests send their scans through batches of their own, one batch under way at a time: the first scan goes alone,
// and the scans that come while it is under way go together in the next statement.

beforeAll(openCartTests);
afterAll(() => ctx.close());

const limitsOf = async () => ({ maxLineQuantity: 999, maxTotalOre: 10_000_000 });

/** Sends a scan as the route does, through `scans`; its answer, or its error's status and code. */
function scanning(scans: Scans) {
  const kept = keptCarts();
  return (who: Shopper, sessionId: string, barcode: string, scanId = randomUUID()) =>
    scanIntoCart({
      db: ctx.app.db,
      scans,
      customerId: who.customerId,
      sessionId,
      barcode,
      scanId,
      limitsOf,
      kept,
    }).then(
      (answer) => ({ quantity: answer.item.quantity, unitPrice: answer.item.unit_price, scanId }),
      (err: { status: number; code: string }) => `${err.status} ${err.code}`,
    );
}

/** The transaction that wrote each scan id's record: the scans a statement wrote share one. */
const writtenBy = async (scanIds: string[]) =>
  new Map(
    (
      await queryRows<{ scan_id: string; xmin: string }>(
        ctx.app.db,
        sql`select scan_id, xmin::text from cart_scans where scan_id in ${scanIds}`,
      )
    ).map((r) => [r.scan_id, r.xmin]),
  );

/** Shoppers, each in a visit of their own with bread in the cart (so the instance knows the visit's store). */
async function visitsWithBread(count: number) {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const who = await shopperBorn("1990-05-05");
      const s = await visit(who);
      expect((await scan(who, s, products.bread!.barcode)).statusCode).toBe(200);
      return { who, s };
    }),
  );
}

describe("scans sent in one batch", () => {
  it("are each answered as if sent alone: lines, labels, the age check and every refusal", async () => {
    const send = scanning(scanBatches(ctx.app.db, { inFlight: 1, most: 32 }));
    const v = await visitsWithBread(8);
    const answers = await Promise.all([
      send(v[0]!.who, v[0]!.s, products.milk!.barcode),
      send(v[1]!.who, v[1]!.s, products.bread!.barcode),
      // 1.500 kg at 129 kr/kg, and a label printed with 49.90 kr.
      send(v[2]!.who, v[2]!.s, ean("230012301500")),
      send(v[3]!.who, v[3]!.s, ean("200045604990")),
      // Age-limited: held back by the batch, added by the scan's second statement once the age is known.
      send(v[4]!.who, v[4]!.s, products.snus!.barcode),
      send(v[5]!.who, v[5]!.s, products.old!.barcode),
      send(v[6]!.who, v[6]!.s, ean("731999999999")),
      // Another shopper's visit.
      send(v[0]!.who, v[7]!.s, products.milk!.barcode),
    ]);
    expect(answers.map((a) => (typeof a === "string" ? a : [a.quantity, a.unitPrice]))).toEqual([
      [1, 17.9],
      [2, 32.5],
      [1, 193.5],
      [1, 49.9],
      [1, 59],
      "409 product_inactive",
      "404 unknown_barcode",
      "403 forbidden",
    ]);
    const totals = await Promise.all(v.map(({ who, s }) => cartOf(who, s).then((c) => c.total)));
    expect(totals).toEqual([50.4, 65, 226, 82.4, 91.5, 32.5, 32.5, 32.5]);
    // The first scan went alone; the three that came while it was under way went in one statement.
    const ids = answers.slice(0, 4).map((a) => (a as { scanId: string }).scanId);
    const by = await writtenBy(ids);
    expect(new Set(ids.slice(1).map((id) => by.get(id))).size).toBe(1);
    expect(by.get(ids[0]!)).not.toBe(by.get(ids[1]!));
  });

  it("counts a scan id sent in two visits' scans of one batch once, and refuses it in the other", async () => {
    const send = scanning(scanBatches(ctx.app.db, { inFlight: 1, most: 32 }));
    const v = await visitsWithBread(4);
    const id = randomUUID();
    const answers = await Promise.all([
      send(v[0]!.who, v[0]!.s, products.milk!.barcode),
      send(v[1]!.who, v[1]!.s, products.milk!.barcode, id),
      send(v[2]!.who, v[2]!.s, products.milk!.barcode, id),
      send(v[3]!.who, v[3]!.s, products.milk!.barcode),
    ]);
    // The batch failed on the id written twice; each of its scans was sent once more alone, those two at once, so
    // either may win the id.
    const outcomes = answers.map((a) => (typeof a === "string" ? a : a.quantity));
    expect([outcomes[0], outcomes[3]]).toEqual([1, 1]);
    expect([outcomes[1], outcomes[2]].sort()).toEqual([1, "409 scan_id_reused"]);
    const won = outcomes[1] === 1 ? 1 : 2;
    const totals = await Promise.all(v.map(({ who, s }) => cartOf(who, s).then((c) => c.total)));
    expect(totals).toEqual([50.4, won === 1 ? 50.4 : 32.5, won === 2 ? 50.4 : 32.5, 50.4]);
  });
});

describe("scans in one batch on the instance's copies of their carts", () => {
  it("take each visit's copy of the version it finds, read the lines of a copy behind, and hold the limit to the copy", async () => {
    const scans = scanBatches(ctx.app.db, { inFlight: 1, most: 32 });
    const kept = keptCarts();
    const v = await visitsWithBread(3);
    // 100 kr: bread and two milk (68.30 kr) are within it.
    const limits = async () => ({ maxLineQuantity: 999, maxTotalOre: 10_000 });
    const send = (i: number) =>
      scanIntoCart({
        db: ctx.app.db,
        scans,
        customerId: v[i]!.who.customerId,
        sessionId: v[i]!.s,
        barcode: products.milk!.barcode,
        scanId: randomUUID(),
        limitsOf: limits,
        kept,
      }).catch((err: { code: string }) => err.code);
    // Without copies each statement reads its visit's lines, and the instance keeps them under their version.
    await Promise.all([0, 1, 2].map(send));
    // A line only the copy holds (nine milk, 161.10 kr): in visit 1's copy of the current version, and in visit 2's
    // copy one version behind.
    for (const [i, behind] of [
      [1, 0],
      [2, 1],
    ] as const) {
      const copy = kept.get(v[i]!.s)!;
      const marker = { ...copy.lines[0]!, id: "only-in-the-copy", quantity: 9, unit_price_ore: 1790 };
      kept.set(v[i]!.s, { version: String(BigInt(copy.version) - BigInt(behind)), lines: [...copy.lines, marker] });
    }
    // Visit 0's scan goes alone; visits 1 and 2 go in one batch behind it.
    const [first, current, behind] = await Promise.all([0, 1, 2].map(send));
    expect(first).toMatchObject({ item: { quantity: 2 } });
    // The batch took visit 1's copy as it is: its sum, marker included, is over the limit.
    expect(current).toBe("cart_total_limit");
    // It read visit 2's lines, as its copy was behind: the marker is gone and the scan is within the limit.
    expect(behind).toMatchObject({ item: { quantity: 2 } });
    const lines = typeof behind === "string" ? [] : (behind?.cart?.lines ?? []);
    expect(lines.map((l) => l.id)).not.toContain("only-in-the-copy");
    expect(lines).toHaveLength(2);
    const totals = await Promise.all(v.map(({ who, s }) => cartOf(who, s).then((c) => c.total)));
    expect(totals).toEqual([68.3, 50.4, 68.3]);
  });
});

describe.skipIf(!TEST_DATABASE_URL)("a batch with a visit that a checkout holds (PostgreSQL)", () => {
  it("answers the other visits' scans at once; that scan waits for the checkout and hears where it left the visit", async () => {
    const send = scanning(scanBatches(ctx.app.db, { inFlight: 1, most: 32 }));
    const v = await visitsWithBread(3);
    const checkout = new pg.Client({ connectionString: ctx.databaseUrl });
    await checkout.connect();
    try {
      // As a checkout holds the visit while the card is charged.
      await checkout.query("begin");
      await checkout.query("select 1 from shopping_sessions where id = $1 for update", [v[1]!.s]);
      await checkout.query("update shopping_sessions set state = 'charging' where id = $1", [v[1]!.s]);
      const first = send(v[0]!.who, v[0]!.s, products.milk!.barcode);
      const held = send(v[1]!.who, v[1]!.s, products.milk!.barcode);
      const other = send(v[2]!.who, v[2]!.s, products.milk!.barcode);
      expect(await first).toMatchObject({ quantity: 1 });
      expect(await other).toMatchObject({ quantity: 1 });
      // Passed over by the batch, the held visit's scan now waits alone.
      await waitingForLocks(ctx.app.db, 1, "with input as (select ");
      await checkout.query("commit");
      expect(await held).toBe("409 payment_in_progress");
    } finally {
      await checkout.end();
    }
  });
});
