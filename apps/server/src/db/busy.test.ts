import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.ts";
import { loadConfig } from "../config.ts";
import { idempotencyKeyOf } from "../features/payments/charge.ts";
import { product, shop, shopper } from "../test/factories.ts";
import { as, createTestContext, freshDatabase, signIn, TEST_DATABASE_URL, type TestContext } from "../test/harness.ts";
import { type PaymentHarness, startPaymentHarness } from "../test/payments.ts";
import { openDatabase } from "./client.ts";

/**
 * Busy is not down: a burst that takes every pool connection makes other
 * requests wait and, past the wait, answer 503 busy; the database is
 * reported down only when its own probe fails. And a burst of one shopper's
 * duplicate checkouts costs about one.
 */
describe.skipIf(!TEST_DATABASE_URL)("a pool that is busy (PostgreSQL)", () => {
  it("answers 503 busy with Retry-After while every connection is taken; health stays up; then serves again", async () => {
    const fresh = await freshDatabase();
    await fresh.database.close();
    const database = await openDatabase({
      databaseUrl: fresh.url,
      logger: pino({ level: "silent" }),
      poolSize: 2,
      poolWaitMs: 200,
    });
    const app = await buildApp(loadConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", SECRET_KEY: "k".repeat(64) }), {
      database,
    });
    try {
      const admin = as(app, (await signIn(app)).cookie);
      // Two transactions hold both connections for a second: the database itself is fine.
      const hold = () => database.db.transaction((tx) => tx.execute("select pg_sleep(1)"));
      const held = Promise.all([hold(), hold()]);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const busy = await admin.get("/api/v1/stores/");
      expect([busy.statusCode, busy.json().code, busy.headers["retry-after"]]).toEqual([503, "busy", "1"]);
      expect(busy.json().detail).toBe("The service is busy right now; try again in a moment");
      const health = await app.inject({ method: "GET", url: "/api/health" });
      expect([health.statusCode, health.json().database.status]).toEqual([200, "up"]);
      expect(database.health.up).toBe(true);
      await held;
      expect((await admin.get("/api/v1/stores/")).statusCode).toBe(200);
    } finally {
      await app.close();
      await database.close();
      await fresh.drop();
    }
  });
});

describe("a burst of one shopper's duplicate checkouts", () => {
  let ctx: TestContext;
  let pay: PaymentHarness;
  beforeAll(async () => {
    pay = await startPaymentHarness();
    ctx = await createTestContext({ STRIPE_SECRET_KEY: pay.simulator.secretKey, STRIPE_API_BASE: pay.apiBase });
  });
  afterAll(async () => {
    await ctx?.close();
    await pay?.close();
  });

  it("1,000 at once: one charge, every answer the same receipt, no 5xx, and health answers 200 throughout", async () => {
    const cookie = (await signIn(ctx.app)).cookie;
    const store = (await as(ctx.app, cookie).post("/api/v1/stores/", { name: "Rusningen" })).json().id;
    const milk = await product(ctx.app, cookie, 17.9, 12);
    const who = await shopper(ctx.app);
    const visit = await shop(ctx.app, who, store, [[milk.barcode, 3]]);
    let polling = true;
    const health: number[] = [];
    const poll = (async () => {
      while (polling) {
        health.push((await ctx.app.inject({ method: "GET", url: "/api/health" })).statusCode);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const answers = await Promise.all(
      Array.from({ length: 1000 }, () =>
        who.call({ method: "POST", url: "/api/v1/checkout", payload: { user_id: who.id } }),
      ),
    );
    polling = false;
    await poll;
    expect(answers.filter((a) => a.statusCode !== 200).map((a) => `${a.statusCode} ${a.body}`)).toEqual([]);
    expect(new Set(answers.map((a) => a.json().receipt.id)).size).toBe(1);
    expect((await pay.intentsFor(`${idempotencyKeyOf(visit, 1)}-authorize`)).length).toBe(1);
    expect(health.length).toBeGreaterThan(0);
    expect(health.every((status) => status === 200)).toBe(true);
  });
});
