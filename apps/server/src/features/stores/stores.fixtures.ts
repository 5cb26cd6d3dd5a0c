import { type Store, storeSchema } from "@glide/contracts";
import { afterAll, beforeAll, expect } from "vitest";
import { auditRowsOf } from "../../test/audit-rows.ts";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";

/**
 * What the store tests share: an app with a platform admin signed in, a way
 * to make a store through the API, and what the audit log holds about one.
 */

export let ctx: TestContext;
export let admin: ReturnType<typeof as>;
export let adminEmail: string;

/** A store made through the API, as the answer's contract reads it. */
export async function create(body: Record<string, unknown>): Promise<Store> {
  const res = await admin.post("/api/v1/stores/", body);
  expect(res.statusCode, res.body).toBe(201);
  return storeSchema.parse(res.json());
}

/** What the audit log holds about one store, oldest first. */
export const auditOf = (storeId: string) => auditRowsOf(ctx.app.db, storeId);

/** Starts the app and signs a platform admin in, for the test file that calls it. */
export function useStoresApp(): void {
  beforeAll(async () => {
    ctx = await createTestContext();
    const session = await signIn(ctx.app);
    adminEmail = session.email;
    admin = as(ctx.app, session.cookie);
  });
  afterAll(() => ctx.close());
}
