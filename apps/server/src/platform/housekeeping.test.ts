import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../db/client.ts";
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

    const deleted = await clearExpired(ctx.app.db);
    expect(deleted).toMatchObject({ rate_limits: 1, admin_sessions: 1 });
    expect(await count("rate_limits")).toBe(1);
    const sessions = await queryRows<{ admin_user_id: string }>(
      ctx.app.db,
      sql`select admin_user_id from admin_sessions`,
    );
    expect(sessions.map((s) => s.admin_user_id)).toEqual([live.id]);
    expect(await clearExpired(ctx.app.db)).toMatchObject({ rate_limits: 0, admin_sessions: 0 });
  });
});
