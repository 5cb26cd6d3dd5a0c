import { describeAccess } from "../pricing/dated-rules.suites.ts";
import { CAMPAIGNS, useCampaignsApp } from "./campaigns.fixtures.ts";

/**
 * Who may do what with campaigns: platform admins everything; a store admin
 * reads the chain-wide campaigns and their own stores', and writes only their
 * own stores' (never a chain-wide one, never one moved to another store).
 * The tests are the offers' too: pricing/dated-rules.suites.ts.
 */
useCampaignsApp();

describeAccess(CAMPAIGNS);
