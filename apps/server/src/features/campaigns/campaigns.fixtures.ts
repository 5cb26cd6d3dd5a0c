import { randomBytes } from "node:crypto";
import { campaignListSchema, campaignSchema, type PriceCampaign } from "@glide/contracts";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect } from "vitest";
import { queryRows } from "../../db/client.ts";
import { stores } from "../../db/schema/index.ts";
import { auditRowsOf } from "../../test/audit-rows.ts";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";
import { homeToday } from "../vat-rates/vat-rate-table.ts";

/**
 * What the campaign tests share: an app with a platform admin, a store admin
 * of store A (not of store B) and nobody signed in; a product at 25 kr; days
 * counted from today in Sweden; the list as the API gives it; and what the
 * audit log holds about a campaign.
 */

export let ctx: TestContext;
export let platform: ReturnType<typeof as>;
export let storeAdmin: ReturnType<typeof as>;
export let nobody: ReturnType<typeof as>;
export let platformEmail: string;
export let storeAdminEmail: string;
export let storeA: string;
export let storeB: string;
/** A product whose catalogue price is 25 kr. */
export let product: { id: string; sku: string; name: string };

export const URL = "/api/v1/campaigns";

/** Today in Sweden moved by `days` (negative: before), as YYYY-MM-DD. */
export function day(days: number, from = homeToday()): string {
  const date = new Date(`${from}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** A store of its own, in a time zone of its own; made in the database, as the store tests own the API. */
export async function storeIn(timezone: string, name = `Butik ${randomBytes(3).toString("hex")}`): Promise<string> {
  const [store] = await ctx.app.db.insert(stores).values({ name, timezone }).returning({ id: stores.id });
  return store!.id;
}

/** A product made by the platform admin at `price` kr. */
export async function productAt(price: number, name = `Vara ${randomBytes(3).toString("hex")}`) {
  const sku = `CMP-${randomBytes(4).toString("hex")}`;
  const res = await platform.post("/api/v1/products/", { sku, name, price });
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json().id as string, sku, name };
}

/** A good body: the 25 kr product at 19.90 kr in store A for the coming week. */
export const body = (change: Record<string, unknown> = {}) => ({
  product_id: product.id,
  store_id: storeA,
  price: 19.9,
  starts_on: day(0),
  ends_on: day(6),
  ...change,
});

/** A campaign added by `who` (the platform admin unless told). */
export async function added(change: Record<string, unknown> = {}, who = platform): Promise<PriceCampaign> {
  const res = await who.post(URL, body(change));
  expect(res.statusCode, res.body).toBe(201);
  return campaignSchema.parse(res.json());
}

/** The list as `who` gets it for `query`, checked against its contract, with X-Total-Count. */
export async function listed(query = "", who = platform): Promise<{ items: PriceCampaign[]; total: number }> {
  const res = await who.get(`${URL}${query ? `?${query}` : ""}`);
  expect(res.statusCode, res.body).toBe(200);
  return { items: campaignListSchema.parse(res.json()), total: Number(res.headers["x-total-count"]) };
}

/** What the audit log holds about one campaign, oldest first. */
export const auditOf = (id: string) => auditRowsOf(ctx.app.db, id);

/** How many campaigns there are: a refused write must leave them as they were. */
export const campaignCount = async () =>
  (await queryRows<{ n: number }>(ctx.app.db, sql`select count(*)::int as n from campaigns`))[0]!.n;

/** Starts the app, makes stores A and B and the product, and signs the three callers in. */
export function useCampaignsApp(): void {
  beforeAll(async () => {
    ctx = await createTestContext();
    const session = await signIn(ctx.app);
    platformEmail = session.email;
    platform = as(ctx.app, session.cookie);
    storeA = await storeIn("Europe/Stockholm", "Kampanjbutiken");
    storeB = await storeIn("Europe/Stockholm", "Grannbutiken");
    const admin = await signIn(ctx.app, "store_admin", [storeA]);
    storeAdminEmail = admin.email;
    storeAdmin = as(ctx.app, admin.cookie);
    nobody = as(ctx.app, null);
    product = await productAt(25, "Kaffe 500 g");
  });
  afterAll(() => ctx?.close());
}
