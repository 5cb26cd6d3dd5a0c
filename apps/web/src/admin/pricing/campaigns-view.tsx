import { CAMPAIGN_STATUSES, CAMPAIGNS_PAGE_SIZE, type PriceCampaign } from "@glide/contracts";
import { Plus } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { errorMessage } from "../../lib/api.ts";
import { formatKronor } from "../../lib/format.ts";
import { ConfirmDialog } from "../../ui/alert-dialog.tsx";
import { Button } from "../../ui/button.tsx";
import { useSidebar } from "../../ui/sidebar.tsx";
import { useAdmin } from "../auth/admin-context.ts";
import { useDateFormat } from "../settings/use-date-format.ts";
import { ClearFilters, FilterSelect, MatchCount, SearchField, StoreFilter } from "../shell/filter-controls.tsx";
import { PagedList } from "../shell/paged-list.tsx";
import { CampaignDialog } from "./campaign-dialog.tsx";
import { CampaignList } from "./campaign-list.tsx";
import { mayChange, RULE_STATUS, storesOf } from "./dated-rule.ts";
import { useCampaigns, useDeleteCampaign } from "./use-campaigns.ts";
import { DATED_RULE_PAGE_SIZES, useDatedRuleParams } from "./use-dated-rule-params.ts";

type EditorState = { mode: "closed" } | { mode: "create" } | { mode: "edit"; campaign: PriceCampaign };

/**
 * The Campaigns tab: time-bound prices by store and status, searched by
 * product; platform admins keep every campaign, store admins their stores'
 * (and read the chain-wide ones). Filters, search and page live in the URL.
 */
export function CampaignsView() {
  const admin = useAdmin();
  const { isMobile } = useSidebar();
  const dates = useDateFormat();
  const params = useDatedRuleParams(CAMPAIGNS_PAGE_SIZE.default);
  const list = useCampaigns({
    store_id: params.storeId || undefined,
    status: params.status || undefined,
    search: params.query.trim() || undefined,
    limit: params.pageSize,
    offset: (params.page - 1) * params.pageSize,
  });
  const remove = useDeleteCampaign();
  const [editor, setEditor] = useState<EditorState>({ mode: "closed" });
  const [toDelete, setToDelete] = useState<PriceCampaign | null>(null);
  const canAdd = admin.role === "platform_admin" || admin.store_ids.length > 0;
  const canChange = (campaign: PriceCampaign) => mayChange(admin, campaign);

  const confirmDelete = () => {
    if (!toDelete) return;
    remove.mutate(toDelete.id, {
      onSuccess: () => toast.success("Campaign deleted"),
      onError: (error) => toast.error(errorMessage(error, "Failed to delete the campaign")),
    });
  };
  const filtered = Boolean(params.search || params.storeId || params.status);

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-end gap-2">
        <SearchField
          label="Search campaigns"
          placeholder="Search by product name or SKU..."
          value={params.search}
          onChange={params.setSearch}
        />
        <StoreFilter value={params.storeId} onChange={params.setStoreId} />
        <FilterSelect
          aria-label="Status"
          className="sm:w-40"
          value={params.status}
          onChange={(event) => params.setStatus(event.target.value)}
        >
          <option value="">All statuses</option>
          {CAMPAIGN_STATUSES.map((status) => (
            <option key={status} value={status}>
              {RULE_STATUS[status].label}
            </option>
          ))}
        </FilterSelect>
        <ClearFilters active={filtered} onClear={params.clearFilters} />
        <MatchCount total={list.data?.total} one="campaign" many="campaigns" />
        {canAdd ? (
          <Button onClick={() => setEditor({ mode: "create" })}>
            <Plus aria-hidden="true" />
            New campaign
          </Button>
        ) : null}
      </div>

      <PagedList
        query={list}
        paging={params}
        pageSizes={DATED_RULE_PAGE_SIZES}
        loadingLabel="Loading campaigns"
        errorLabel="Failed to load the campaigns"
      >
        {(campaigns, busy) => (
          <CampaignList
            campaigns={campaigns}
            phone={isMobile}
            busy={busy}
            empty={filtered ? "No campaigns match these filters" : "No campaigns yet"}
            canChange={canChange}
            showActions={canAdd}
            onEdit={(campaign) => setEditor({ mode: "edit", campaign })}
            onDelete={setToDelete}
          />
        )}
      </PagedList>

      <CampaignDialog
        open={editor.mode !== "closed"}
        onOpenChange={(open) => !open && setEditor({ mode: "closed" })}
        campaign={editor.mode === "edit" ? editor.campaign : undefined}
      />
      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => !open && setToDelete(null)}
        title="Delete this campaign?"
        description={
          toDelete
            ? `${toDelete.product_name} at ${formatKronor(toDelete.price)} in ${storesOf(toDelete)}, ${dates.day(toDelete.starts_on)} to ${dates.day(toDelete.ends_on)}, will be removed. Purchases already made keep the price they were sold at.`
            : undefined
        }
        confirmLabel="Delete"
        destructive
        onConfirm={confirmDelete}
      />
    </div>
  );
}
