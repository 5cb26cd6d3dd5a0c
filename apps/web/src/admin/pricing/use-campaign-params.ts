import { CAMPAIGN_STATUSES, CAMPAIGNS_PAGE_SIZE, type CampaignStatus, PAGE_SIZES } from "@glide/contracts";
import { useListParams } from "../../lib/use-list-params.ts";

export const CAMPAIGN_PAGE_SIZES: readonly number[] = PAGE_SIZES;

/**
 * The Campaigns tab's list in the URL beside the tab (?tab=campaigns&store=&status=&search=&page=&size=),
 * so a reload or a shared link shows the same campaigns. An unknown status reads as all.
 */
export function useCampaignParams() {
  const { params, write, setFilter, clearFilters, ...list } = useListParams(
    CAMPAIGN_PAGE_SIZES,
    CAMPAIGNS_PAGE_SIZE.default,
  );
  const status = params.get("status");
  return {
    ...list,
    storeId: params.get("store") ?? "",
    status: ((CAMPAIGN_STATUSES as readonly string[]).includes(status ?? "") ? status : "") as CampaignStatus | "",
    setStoreId: (value: string) => setFilter("store", value),
    setStatus: (value: string) => setFilter("status", value),
    clearFilters: () => clearFilters(["store", "status"]),
  };
}

export type CampaignParams = ReturnType<typeof useCampaignParams>;
