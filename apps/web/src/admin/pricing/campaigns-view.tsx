import { CAMPAIGNS_PAGE_SIZE } from "@glide/contracts";
import { formatKronor } from "../../lib/format.ts";
import { CampaignDialog } from "./campaign-dialog.tsx";
import { CampaignList } from "./campaign-list.tsx";
import { DatedRulesView } from "./dated-rules-view.tsx";
import { useCampaigns, useDeleteCampaign } from "./use-campaigns.ts";
import { listQueryOf, useDatedRuleParams } from "./use-dated-rule-params.ts";

/**
 * The Campaigns tab: time-bound prices by store and status, searched by
 * product; platform admins keep every campaign, store admins their stores'
 * (and read the chain-wide ones). Filters, search and page live in the URL.
 */
export function CampaignsView() {
  const params = useDatedRuleParams(CAMPAIGNS_PAGE_SIZE.default);
  const list = useCampaigns(listQueryOf(params));
  const remove = useDeleteCampaign();
  return (
    <DatedRulesView
      noun={{ one: "campaign", many: "campaigns" }}
      searchPlaceholder="Search by product name or SKU..."
      params={params}
      list={list}
      remove={remove}
      List={CampaignList}
      Dialog={CampaignDialog}
      deleting={(campaign) => `${campaign.product_name} at ${formatKronor(campaign.price)}`}
      deleteNote="Purchases already made keep the price they were sold at."
    />
  );
}
