import {
  type CampaignInput,
  type campaignListQuerySchema,
  campaignListSchema,
  campaignSchema,
  type PriceCampaign,
} from "@glide/contracts";
import type { z } from "zod";
import { datedRuleHooks } from "./use-dated-rules.ts";

export type CampaignListQuery = Partial<z.output<typeof campaignListQuerySchema>>;

const campaigns = datedRuleHooks<PriceCampaign, CampaignInput, CampaignListQuery>({
  key: "campaigns",
  path: "/api/v1/campaigns",
  schema: campaignSchema,
  listSchema: campaignListSchema,
});

export const campaignKeys = campaigns.keys;
/** One page of campaigns, the latest first day first, with the number of all matches. */
export const useCampaigns = campaigns.useList;
export const useCreateCampaign = campaigns.useCreate;
export const useUpdateCampaign = campaigns.useUpdate;
export const useDeleteCampaign = campaigns.useDelete;
