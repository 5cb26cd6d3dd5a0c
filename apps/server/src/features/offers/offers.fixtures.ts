import { randomBytes } from "node:crypto";
import { type MultiBuyOffer, multiBuyOfferListSchema, multiBuyOfferSchema } from "@glide/contracts";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect } from "vitest";
import { queryRows } from "../../db/client.ts";
import { stores } from "../../db/schema/index.ts";
import { auditRowsOf } from "../../test/audit-rows.ts";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";
import { homeToday } from "../vat-rates/vat-rate-table.ts";

/**
 * What the offer tests share, as the campaign tests do: an app with a
 * platform admin, a store admin of store A (not of store B) and nobody signed
 * in; two products at 25 and 20 kr; days counted from today in Sweden; the
 * list as the API gives it; and what the audit log holds about an offer.
 */

export let ctx: TestContext;
export let platform: ReturnType<typeof as>;
export let storeAdmin: ReturnType<typeof as>;
export let nobody: ReturnType<typeof as>;
export let platformEmail: string;
export let storeAdminEmail: string;
export let storeA: string;
export let storeB: string;
/** Products whose catalogue prices are 25 kr (Kaffe) and 20 kr (Te). */
export let product: { id: string; sku: string; name: string };
export let other: { id: string; sku: string; name: string };

export const URL = "/api/v1/offers";

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
  const sku = `OFR-${randomBytes(4).toString("hex")}`;
  const res = await platform.post("/api/v1/products/", { sku, name, price });
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json().id as string, sku, name };
}

/** A good body: 3 för 2 over both products in store A for the coming week, twice a visit at most. */
export const body = (change: Record<string, unknown> = {}) => ({
  label: "3 för 2 på frukost",
  kind: "one_free",
  buy: 3,
  product_ids: [product.id, other.id],
  store_id: storeA,
  starts_on: day(0),
  ends_on: day(6),
  limit_per_visit: 2,
  ...change,
});

/** An offer added by `who` (the platform admin unless told). */
export async function added(change: Record<string, unknown> = {}, who = platform): Promise<MultiBuyOffer> {
  const res = await who.post(URL, body(change));
  expect(res.statusCode, res.body).toBe(201);
  return multiBuyOfferSchema.parse(res.json());
}

/** The list as `who` gets it for `query`, checked against its contract, with X-Total-Count. */
export async function listed(query = "", who = platform): Promise<{ items: MultiBuyOffer[]; total: number }> {
  const res = await who.get(`${URL}${query ? `?${query}` : ""}`);
  expect(res.statusCode, res.body).toBe(200);
  return { items: multiBuyOfferListSchema.parse(res.json()), total: Number(res.headers["x-total-count"]) };
}

/** What the audit log holds about one offer, oldest first. */
export const auditOf = (id: string) => auditRowsOf(ctx.app.db, id);

/** How many offers and offer products there are: a refused write must leave them as they were. */
export const offerCount = async () =>
  (
    await queryRows<{ n: string }>(
      ctx.app.db,
      sql`select (select count(*) from offers) || '/' || (select count(*) from offer_products) as n`,
    )
  )[0]!.n;

/** Starts the app, makes stores A and B and the products, and signs the three callers in. */
export function useOffersApp(): void {
  beforeAll(async () => {
    ctx = await createTestContext();
    const session = await signIn(ctx.app);
    platformEmail = session.email;
    platform = as(ctx.app, session.cookie);
    storeA = await storeIn("Europe/Stockholm", "Erbjudandebutiken");
    storeB = await storeIn("Europe/Stockholm", "Grannbutiken");
    const admin = await signIn(ctx.app, "store_admin", [storeA]);
    storeAdminEmail = admin.email;
    storeAdmin = as(ctx.app, admin.cookie);
    nobody = as(ctx.app, null);
    product = await productAt(25, "Kaffe 500 g");
    other = await productAt(20, "Te 100 g");
  });
  afterAll(() => ctx?.close());
}
