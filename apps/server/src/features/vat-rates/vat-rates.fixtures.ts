import { type VatRate, type VatRateList, vatRateListSchema, vatRateSchema } from "@glide/contracts";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect } from "vitest";
import { queryRows } from "../../db/client.ts";
import { stores } from "../../db/schema/index.ts";
import { auditRowsOf } from "../../test/audit-rows.ts";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";

/**
 * What the VAT rate tests share: an app with a platform admin, a store admin
 * (of a store of their own) and nobody signed in; the table as the API lists
 * it; and what the audit log holds about a period.
 */

export let ctx: TestContext;
export let platform: ReturnType<typeof as>;
export let storeAdmin: ReturnType<typeof as>;
export let nobody: ReturnType<typeof as>;
export let platformEmail: string;

export const URL = "/api/v1/vat-rates";

/** The table as the API lists it (of one country, or all), checked against its contract. */
export async function listed(country?: string): Promise<VatRateList> {
  const res = await platform.get(country ? `${URL}?country=${country}` : URL);
  expect(res.statusCode, res.body).toBe(200);
  return vatRateListSchema.parse(res.json());
}

/** A period added by the platform admin. */
export async function added(body: Record<string, unknown>): Promise<VatRate> {
  const res = await platform.post(URL, body);
  expect(res.statusCode, res.body).toBe(201);
  return vatRateSchema.parse(res.json());
}

/** What the audit log holds about one period, oldest first. */
export const auditOf = (id: string) => auditRowsOf(ctx.app.db, id);

/** How many periods the table holds: a refused write must leave it as it was. */
export const periodCount = async () =>
  (await queryRows<{ n: number }>(ctx.app.db, sql`select count(*)::int as n from vat_rates`))[0]!.n;

/** Starts the app and signs the three callers in, for the test file that calls it. */
export function useVatRatesApp(): void {
  beforeAll(async () => {
    ctx = await createTestContext();
    const session = await signIn(ctx.app);
    platformEmail = session.email;
    platform = as(ctx.app, session.cookie);
    const [store] = await ctx.app.db.insert(stores).values({ name: "Momsbutiken" }).returning({ id: stores.id });
    storeAdmin = as(ctx.app, (await signIn(ctx.app, "store_admin", [store!.id])).cookie);
    nobody = as(ctx.app, null);
  });
  afterAll(() => ctx?.close());
}
