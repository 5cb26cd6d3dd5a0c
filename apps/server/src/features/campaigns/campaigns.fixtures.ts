import { randomBytes } from "node:crypto";
import { campaignListSchema, campaignSchema, type PriceCampaign } from "@glide/contracts";
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
 * What the campaign tests share: the app, callers, stores and days of
 * pricing/dated-rules.fixtures.ts; a product at 25 kr; a good body; and how
 * many campaigns there are.
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

/** A product whose catalogue price is 25 kr. */
export let product: { id: string; sku: string; name: string };

export const URL = "/api/v1/campaigns";

/** A product made by the platform admin at `price` kr. */
export const productAt = (price: number, name = `Vara ${randomBytes(3).toString("hex")}`) =>
  productWithPrefix("CMP", price, name);

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
export const added = adder(URL, body, campaignSchema);

/** The list as `who` gets it for `query`, checked against its contract, with X-Total-Count. */
export const listed = lister(URL, campaignListSchema);

/** How many campaigns there are: a refused write must leave them as they were. */
export const campaignCount = async () =>
  (await queryRows<{ n: number }>(ctx.app.db, sql`select count(*)::int as n from campaigns`))[0]!.n;

/** Campaigns as the shared tests of pricing/dated-rules.suites.ts make and read them. */
export const CAMPAIGNS: RuleKind<PriceCampaign> = {
  noun: "campaign",
  a: "a campaign",
  url: URL,
  storeAName: "Kampanjbutiken",
  body,
  added,
  listed,
  count: campaignCount,
  change: { price: 15 },
  chainChange: { price: 1 },
  productAt,
  onlyProduct: (id) => ({ product_id: id }),
};

/** Starts the app, makes stores A and B and the product, and signs the three callers in. */
export function useCampaignsApp(): void {
  useDatedRulesApp(CAMPAIGNS.storeAName, async () => {
    product = await productAt(25, "Kaffe 500 g");
  });
}
