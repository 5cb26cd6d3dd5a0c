import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXPIRY_JOBS } from "../app.ts";
import { queryRows } from "../db/client.ts";
import { bankidOrders, customers, shopperRefreshTokens } from "../db/schema/index.ts";
import { createTestContext, signIn, type TestContext } from "../test/harness.ts";
import { clearExpired } from "./housekeeping.ts";
import { countHit } from "./rate-limit.ts";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const count = async (table: string) =>
  (await queryRows<{ n: number }>(ctx.app.db, sql.raw(`select count(*)::int as n from ${table}`)))[0]!.n;

describe("housekeeping", () => {
  it("deletes what has expired and keeps what is still in use", async () => {
    await countHit(ctx.app.db, "old-window", 60_000);
    await countHit(ctx.app.db, "live-window", 60_000);
    await ctx.app.db.execute(
      sql`update rate_limits set reset_at = now() - interval '2 hours' where key = 'old-window'`,
    );
    const stale = await signIn(ctx.app);
    const live = await signIn(ctx.app);
    await ctx.app.db.execute(
      sql`update admin_sessions set last_seen_at = now() - interval '31 minutes' where admin_user_id = ${stale.id}`,
    );

    const [customer] = await ctx.app.db
      .insert(customers)
      .values({ personalNumberHash: "hk", personalNumberSealed: "hk", name: "Hk", birthDate: "1990-01-01" })
      .returning();
    const order = (orderRef: string, startedAt: Date) => ({
      orderRef,
      startedAt,
      autoStartToken: "a",
      qrStartToken: "q",
      qrStartSecret: "s",
      deviceHash: "d",
      endUserIp: "127.0.0.1",
    });
    const day = 24 * 3600 * 1000;
    await ctx.app.db
      .insert(bankidOrders)
      .values([order("old-order", new Date(Date.now() - day - 60_000)), order("new-order", new Date())]);
    const token = (tokenHash: string, expiresAt: Date) => ({
      tokenHash,
      expiresAt,
      customerId: customer!.id,
      familyId: randomUUID(),
    });
    await ctx.app.db
      .insert(shopperRefreshTokens)
      .values([
        token("old-token", new Date(Date.now() - day - 60_000)),
        token("new-token", new Date(Date.now() - 60_000)),
      ]);

    const deleted = await clearExpired(ctx.app.db, EXPIRY_JOBS);
    expect(deleted).toEqual({
      rate_limits: 1,
      admin_sessions: 1,
      bankid_orders: 1,
      shopper_refresh_tokens: 1,
      receipt_mails: 0,
      // None outlived its visit here; what the face sweep deletes is tested in face.lifetime.test.ts.
      face_descriptors: 0,
      // No store was written here: nothing to fold (stores.kept-list.test.ts folds a change log).
      store_list_changes: 0,
    });
    const left = await queryRows<{ key: string }>(
      ctx.app.db,
      sql`select order_ref as key from bankid_orders union all select token_hash from shopper_refresh_tokens`,
    );
    expect(left.map((r) => r.key).sort()).toEqual(["new-order", "new-token"]);
    expect(await count("rate_limits")).toBe(1);
    const sessions = await queryRows<{ admin_user_id: string }>(
      ctx.app.db,
      sql`select admin_user_id from admin_sessions`,
    );
    expect(sessions.map((s) => s.admin_user_id)).toEqual([live.id]);
    expect(await clearExpired(ctx.app.db, EXPIRY_JOBS)).toMatchObject({ rate_limits: 0, admin_sessions: 0 });
  });
});
