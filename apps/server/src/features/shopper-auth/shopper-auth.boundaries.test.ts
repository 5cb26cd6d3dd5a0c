import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/client.ts";
import { bankidOrders, customers, shopperRefreshTokens } from "../../db/schema/index.ts";
import { clearExpired } from "../../platform/housekeeping.ts";
import { startBankIdSimulator } from "../../test/bankid-harness.ts";
import { createTestContext, type TestContext } from "../../test/harness.ts";
import { shopperAuthExpiry } from "./shopper-auth.expiry.ts";
import { COLLECT_INTERVAL_MS, INIT_LIMIT } from "./shopper-auth.service.ts";

/**
 * The sign-in's time limits in SQL, each from both sides: how often BankID
 * is asked about an order, the window of the start limit per address, and
 * what housekeeping clears a day after it ended.
 */
let sim: Awaited<ReturnType<typeof startBankIdSimulator>>;
let ctx: TestContext;
let ipCounter = 0;

beforeAll(async () => {
  sim = await startBankIdSimulator();
  ctx = await createTestContext(sim.env);
});
afterAll(async () => {
  await ctx?.close();
  await sim?.close();
});

/** A browser: its own device cookie and address. */
function browser() {
  const ip = `10.77.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
  let device: string | undefined;
  const call = async (url: string, payload: object) => {
    const res = await ctx.app.inject({
      method: "POST",
      url,
      remoteAddress: ip,
      payload,
      ...(device ? { cookies: { glide_device: device } } : {}),
    });
    device ??= res.cookies.find((c) => c.name === "glide_device")?.value;
    return res;
  };
  return {
    ip,
    init: () => call("/api/v1/auth/init", {}),
    collect: (orderRef: string) => call("/api/v1/auth/collect", { order_ref: orderRef }),
  };
}

describe("asking BankID about an order", () => {
  it("asks again only once the last ask is over 2 seconds old: not at 1.9 s, at 2.1 s", async () => {
    expect(COLLECT_INTERVAL_MS).toBe(2000);
    const b = browser();
    const orderRef = (await b.init()).json().order_ref as string;
    const lastAsked = (ms: number) =>
      ctx.app.db.execute(
        sql`update bankid_orders set last_collect_at = now() - ${ms}::float8 * interval '1 millisecond'
            where order_ref = ${orderRef}`,
      );
    const asked = async () => (await sim.order(orderRef))?.collectCalls;
    expect((await b.collect(orderRef)).json().status).toBe("pending");
    expect(await asked()).toBe(1);
    await lastAsked(1900);
    expect((await b.collect(orderRef)).json().status).toBe("pending");
    expect(await asked()).toBe(1);
    await lastAsked(2100);
    expect((await b.collect(orderRef)).json().status).toBe("pending");
    expect(await asked()).toBe(2);
  });
});

describe("the start limit per address", () => {
  it("refuses the 31st start while the minute's window lasts, and counts afresh once it has ended", async () => {
    const b = browser();
    for (let i = 0; i < INIT_LIMIT.perAddress; i++) expect((await b.init()).statusCode).toBe(200);
    expect((await b.init()).statusCode).toBe(429);
    const windowEnds = (ms: number) =>
      ctx.app.db.execute(
        sql`update rate_limits set reset_at = now() + ${ms}::float8 * interval '1 millisecond'
            where key = ${`bankid-init:${b.ip}`}`,
      );
    await windowEnds(2000);
    expect((await b.init()).statusCode).toBe(429);
    await windowEnds(-1000);
    expect((await b.init()).statusCode).toBe(200);
    const [row] = await queryRows<{ count: number }>(
      ctx.app.db,
      sql`select count from rate_limits where key = ${`bankid-init:${b.ip}`}`,
    );
    expect(row!.count).toBe(1);
  });
});

describe("housekeeping of the sign-in", () => {
  it("clears BankID orders started over a day ago and refresh tokens over a day past expiry, and keeps those a second short", async () => {
    const second = 1000;
    const day = 24 * 3600 * second;
    const order = (orderRef: string, agoMs: number) => ({
      orderRef,
      startedAt: new Date(Date.now() - agoMs),
      autoStartToken: "a",
      qrStartToken: "q",
      qrStartSecret: "s",
      deviceHash: "d",
      endUserIp: "127.0.0.1",
    });
    const tag = randomUUID();
    await ctx.app.db
      .insert(bankidOrders)
      .values([order(`kept-${tag}`, day - second), order(`cleared-${tag}`, day + second)]);
    const [customer] = await ctx.app.db
      .insert(customers)
      .values({ personalNumberHash: tag, personalNumberSealed: tag, name: "Hk", birthDate: "1990-01-01" })
      .returning();
    const token = (tokenHash: string, expiredAgoMs: number) => ({
      tokenHash,
      expiresAt: new Date(Date.now() - expiredAgoMs),
      customerId: customer!.id,
      familyId: randomUUID(),
    });
    await ctx.app.db
      .insert(shopperRefreshTokens)
      .values([token(`kept-${tag}`, day - second), token(`cleared-${tag}`, day + second)]);

    expect(await clearExpired(ctx.app.db, shopperAuthExpiry)).toEqual({ bankid_orders: 1, shopper_refresh_tokens: 1 });
    const left = await queryRows<{ key: string }>(
      ctx.app.db,
      sql`select order_ref as key from bankid_orders where order_ref like ${`%${tag}`}
          union all select token_hash from shopper_refresh_tokens where token_hash like ${`%${tag}`}`,
    );
    expect(left.map((r) => r.key)).toEqual([`kept-${tag}`, `kept-${tag}`]);
  });
});
