import { CAMPAIGN_STATUSES, type CampaignStatus, PAGE_SIZES } from "@glide/contracts";
import { useListParams } from "../../lib/use-list-params.ts";

export const DATED_RULE_PAGE_SIZES: readonly number[] = PAGE_SIZES;

/**
 * The Campaigns and Offers tabs' list in the URL beside the tab
 * (?tab=campaigns&store=&status=&search=&page=&size=), so a reload or a shared
 * link shows the same list. An unknown status reads as all.
 */
export function useDatedRuleParams(defaultPageSize: number) {
  const { params, write, setFilter, clearFilters, ...list } = useListParams(DATED_RULE_PAGE_SIZES, defaultPageSize);
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

/** The list hook's query for the URL's filters, search and page. */
export function listQueryOf(params: ReturnType<typeof useDatedRuleParams>) {
  return {
    store_id: params.storeId || undefined,
    status: params.status || undefined,
    search: params.query.trim() || undefined,
    limit: params.pageSize,
    offset: (params.page - 1) * params.pageSize,
  };
}
