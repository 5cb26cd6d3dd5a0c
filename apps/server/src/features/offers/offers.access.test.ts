import { describeAccess } from "../pricing/dated-rules.suites.ts";
import { OFFERS, useOffersApp } from "./offers.fixtures.ts";

/**
 * Who may do what with offers, as with campaigns: platform admins everything;
 * a store admin reads the chain-wide offers and their own stores', and writes
 * only their own stores' (never a chain-wide one, never one moved away).
 * The tests are the campaigns' too: pricing/dated-rules.suites.ts.
 */
useOffersApp();

describeAccess(OFFERS);
