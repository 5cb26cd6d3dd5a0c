import { day } from "../pricing/dated-rules.fixtures.ts";
import { describeMembersOnly } from "../pricing/dated-rules.suites.ts";
import { CAMPAIGNS, product, useCampaignsApp } from "./campaigns.fixtures.ts";

/** Members-only campaigns through the API, as members-only offers: pricing/dated-rules.suites.ts. */
useCampaignsApp();

describeMembersOnly(
  CAMPAIGNS,
  () =>
    `Campaign Kaffe 500 g (${product.sku}) at 19.90 kr in Kampanjbutiken from ${day(0)} to ${day(6)}, members only created`,
);
