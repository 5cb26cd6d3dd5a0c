import { randomBytes } from "node:crypto";
import { type MultiBuyOffer, multiBuyOfferListSchema, multiBuyOfferSchema } from "@glide/contracts";
import { sql } from "drizzle-orm";
import { queryRows } from "../../db/client.ts";
import {
  adder,
  ctx,
  day,
  lister,
  productWithPrefix,
  storeA,
  useDatedRulesApp,
} from "../pricing/dated-rules.fixtures.ts";
import type { RuleKind } from "../pricing/dated-rules.suites.ts";

/**
 * What the offer tests share, as the campaign tests do: the app, callers,
 * stores and days of pricing/dated-rules.fixtures.ts; two products at 25 and
 * 20 kr; a good body; and how many offers and offer products there are.
 */

export {
  auditOf,
  ctx,
  day,
  nobody,
  platform,
  platformEmail,
  storeA,
  storeAdmin,
  storeAdminEmail,
  storeB,
  storeIn,
} from "../pricing/dated-rules.fixtures.ts";

/** Products whose catalogue prices are 25 kr (Kaffe) and 20 kr (Te). */
export let product: { id: string; sku: string; name: string };
export let other: { id: string; sku: string; name: string };

export const URL = "/api/v1/offers";

/** A product made by the platform admin at `price` kr. */
export const productAt = (price: number, name = `Vara ${randomBytes(3).toString("hex")}`) =>
  productWithPrefix("OFR", price, name);

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
export const added = adder(URL, body, multiBuyOfferSchema);

/** The list as `who` gets it for `query`, checked against its contract, with X-Total-Count. */
export const listed = lister(URL, multiBuyOfferListSchema);

/** How many offers and offer products there are: a refused write must leave them as they were. */
export const offerCount = async () =>
  (
    await queryRows<{ n: string }>(
      ctx.app.db,
      sql`select (select count(*) from offers) || '/' || (select count(*) from offer_products) as n`,
    )
  )[0]!.n;

/** Offers as the shared tests of pricing/dated-rules.suites.ts make and read them. */
export const OFFERS: RuleKind<MultiBuyOffer> = {
  noun: "offer",
  a: "an offer",
  url: URL,
  storeAName: "Erbjudandebutiken",
  body,
  added,
  listed,
  count: offerCount,
  change: { buy: 4 },
  chainChange: { buy: 5 },
  productAt,
  onlyProduct: (id) => ({ product_ids: [id] }),
};

/** Starts the app, makes stores A and B and the products, and signs the three callers in. */
export function useOffersApp(): void {
  useDatedRulesApp(OFFERS.storeAName, async () => {
    product = await productAt(25, "Kaffe 500 g");
    other = await productAt(20, "Te 100 g");
  });
}
