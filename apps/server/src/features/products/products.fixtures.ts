import {
  calendarDay,
  gtinCheckDigit,
  type Product,
  productSchema,
  SWEDISH_VAT_RATES,
  type VatCategory,
  vatRateOn,
} from "@glide/contracts";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect } from "vitest";
import { queryRows } from "../../db/client.ts";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";
import { ADMIN_COOKIE } from "../admin-auth/admin-auth.hooks.ts";

/**
 * What the product tests share: an app with a platform admin signed in, fresh
 * SKUs and barcodes, a product made through the API, the audit log of one,
 * and a CSV upload.
 */

export let ctx: TestContext;
export let admin: ReturnType<typeof as>;
export let cookie: string;
export let adminEmail: string;

/** A 13-digit barcode: the 12 digits given and their check digit. */
export const ean = (body12: string) => `${body12}${gtinCheckDigit(body12)}`;
export let seq = 0;
/** A SKU no other test uses. */
export const sku = () => `T-${++seq}-${Math.random().toString(36).slice(2, 7)}`;

/** A category's rate today in Sweden, in percent, as the migration seeds the rate table (food is 6 % in 2026–2027). */
export const percentToday = (category: VatCategory): number =>
  vatRateOn(SWEDISH_VAT_RATES, "SE", category, calendarDay(new Date(), "Europe/Stockholm"))! / 100;

/** A product made through the API, as the answer's contract reads it. */
export async function create(body: Record<string, unknown>): Promise<Product> {
  const res = await admin.post("/api/v1/products/", { sku: sku(), name: "Vara", price: 10, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return productSchema.parse(res.json());
}

export type AuditRow = {
  actor_email: string;
  action: string;
  entity_type: string;
  summary: string;
  before: unknown;
  after: unknown;
};
/** What the audit log holds about one product, oldest first. */
export const auditOf = (productId: string) =>
  queryRows<AuditRow>(
    ctx.app.db,
    sql`select actor_email, action, entity_type, summary, before, after from audit_log
        where entity_id = ${productId} order by id`,
  );

/** Uploads a CSV file to the product import. */
export const csvPost = (csv: string, query = "") =>
  ctx.app.inject({
    method: "POST",
    url: `/api/v1/products/import${query}`,
    payload: csv,
    headers: { "content-type": "text/csv" },
    cookies: { [ADMIN_COOKIE]: cookie },
  });

/** Starts the app and signs a platform admin in, for the test file that calls it. */
export function useProductsApp(): void {
  beforeAll(async () => {
    ctx = await createTestContext();
    ({ cookie, email: adminEmail } = await signIn(ctx.app));
    admin = as(ctx.app, cookie);
  });
  afterAll(() => ctx.close());
}
