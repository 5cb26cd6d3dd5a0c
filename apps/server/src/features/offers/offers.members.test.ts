import { day } from "../pricing/dated-rules.fixtures.ts";
import { describeMembersOnly } from "../pricing/dated-rules.suites.ts";
import { OFFERS, useOffersApp } from "./offers.fixtures.ts";

/** Members-only multi-buy offers through the API, as members-only campaigns: pricing/dated-rules.suites.ts. */
useOffersApp();

describeMembersOnly(
  OFFERS,
  () =>
    `Offer "3 för 2 på frukost" (3 för 2) on Kaffe 500 g, Te 100 g in Erbjudandebutiken from ${day(0)} to ${day(6)}, members only created`,
);
