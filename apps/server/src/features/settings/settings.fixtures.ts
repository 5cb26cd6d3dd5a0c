import { errorSchema, SETTING_DEFINITIONS } from "@glide/contracts";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";

/**
 * What the settings tests share: an app with two stores, a platform admin
 * and an admin of one store, every setting back to its built-in value before
 * each test, and the request that changes one.
 */

export let ctx: TestContext;
export let platform: ReturnType<typeof as>;
export let platformCookie: string;
export let storeAdmin: ReturnType<typeof as>;
export let storeAdminEmail: string;
export let mine: string;
export let theirs: string;

/** Every setting's built-in value, per category and key. */
export const DEFAULTS = SETTING_DEFINITIONS as unknown as Record<string, Record<string, { value: unknown }>>;

/** Changes one global setting. */
export const put = (category: string, key: string, value: unknown, who = platform) =>
  who.put(`/api/v1/settings/${category}/${key}`, { value });

/** Checks the status and returns the error body. */
export async function expectError(res: Awaited<ReturnType<typeof put>>, status: number) {
  expect(res.statusCode, res.body).toBe(status);
  return errorSchema.parse(res.json());
}

/**
 * Starts the app with two stores and a platform and a store admin signed in,
 * and puts every setting back to its built-in value before each test, for the
 * test file that calls it.
 */
export function useSettingsApp(): void {
  beforeAll(async () => {
    ctx = await createTestContext();
    platformCookie = (await signIn(ctx.app)).cookie;
    platform = as(ctx.app, platformCookie);
    mine = (await platform.post("/api/v1/stores/", { name: "Min butik" })).json().id;
    theirs = (await platform.post("/api/v1/stores/", { name: "Annans butik" })).json().id;
    const sa = await signIn(ctx.app, "store_admin", [mine]);
    storeAdmin = as(ctx.app, sa.cookie);
    storeAdminEmail = sa.email;
  });
  afterAll(() => ctx.close());

  /** Every global value back to its built-in one, and no store overrides, so each test starts alike. */
  beforeEach(async () => {
    for (const [category, keys] of Object.entries(DEFAULTS)) {
      for (const [key, def] of Object.entries(keys)) {
        await ctx.app.db.execute(
          sql`update settings set value = ${JSON.stringify(def.value)}::jsonb where category = ${category} and key = ${key}`,
        );
      }
    }
    await ctx.app.db.execute(sql`update stores set custom_settings = '{}'::jsonb`);
    await ctx.app.db.execute(sql`delete from setting_changes`);
    for (const store of [null, mine, theirs]) await ctx.app.settings.changed(store);
  });
}
