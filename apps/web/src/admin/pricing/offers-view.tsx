import { CAMPAIGN_STATUSES, MULTI_BUY_OFFERS_PAGE_SIZE, type MultiBuyOffer, multiBuyDealText } from "@glide/contracts";
import { Plus } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { errorMessage } from "../../lib/api.ts";
import { ConfirmDialog } from "../../ui/alert-dialog.tsx";
import { Button } from "../../ui/button.tsx";
import { useSidebar } from "../../ui/sidebar.tsx";
import { useAdmin } from "../auth/admin-context.ts";
import { useDateFormat } from "../settings/use-date-format.ts";
import { ClearFilters, FilterSelect, MatchCount, SearchField, StoreFilter } from "../shell/filter-controls.tsx";
import { PagedList } from "../shell/paged-list.tsx";
import { mayChange, RULE_STATUS, storesOf } from "./dated-rule.ts";
import { OfferDialog } from "./offer-dialog.tsx";
import { OfferList } from "./offer-list.tsx";
import { DATED_RULE_PAGE_SIZES, useDatedRuleParams } from "./use-dated-rule-params.ts";
import { useDeleteOffer, useOffers } from "./use-offers.ts";

type EditorState = { mode: "closed" } | { mode: "create" } | { mode: "edit"; offer: MultiBuyOffer };

/**
 * The Offers tab: multi-buy offers by store and status, searched by label or
 * product; platform admins keep every offer, store admins their stores' (and
 * read the chain-wide ones), as on the Campaigns tab. Filters, search and
 * page live in the URL.
 */
export function OffersView() {
  const admin = useAdmin();
  const { isMobile } = useSidebar();
  const dates = useDateFormat();
  const params = useDatedRuleParams(MULTI_BUY_OFFERS_PAGE_SIZE.default);
  const list = useOffers({
    store_id: params.storeId || undefined,
    status: params.status || undefined,
    search: params.query.trim() || undefined,
    limit: params.pageSize,
    offset: (params.page - 1) * params.pageSize,
  });
  const remove = useDeleteOffer();
  const [editor, setEditor] = useState<EditorState>({ mode: "closed" });
  const [toDelete, setToDelete] = useState<MultiBuyOffer | null>(null);
  const canAdd = admin.role === "platform_admin" || admin.store_ids.length > 0;
  const canChange = (offer: MultiBuyOffer) => mayChange(admin, offer);

  const confirmDelete = () => {
    if (!toDelete) return;
    remove.mutate(toDelete.id, {
      onSuccess: () => toast.success("Offer deleted"),
      onError: (error) => toast.error(errorMessage(error, "Failed to delete the offer")),
    });
  };
  const filtered = Boolean(params.search || params.storeId || params.status);

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-end gap-2">
        <SearchField
          label="Search offers"
          placeholder="Search by label, product name or SKU..."
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
        <MatchCount total={list.data?.total} one="offer" many="offers" />
        {canAdd ? (
          <Button onClick={() => setEditor({ mode: "create" })}>
            <Plus aria-hidden="true" />
            New offer
          </Button>
        ) : null}
      </div>

      <PagedList
        query={list}
        paging={params}
        pageSizes={DATED_RULE_PAGE_SIZES}
        loadingLabel="Loading offers"
        errorLabel="Failed to load the offers"
      >
        {(offers, busy) => (
          <OfferList
            offers={offers}
            phone={isMobile}
            busy={busy}
            empty={filtered ? "No offers match these filters" : "No offers yet"}
            canChange={canChange}
            showActions={canAdd}
            onEdit={(offer) => setEditor({ mode: "edit", offer })}
            onDelete={setToDelete}
          />
        )}
      </PagedList>

      <OfferDialog
        open={editor.mode !== "closed"}
        onOpenChange={(open) => !open && setEditor({ mode: "closed" })}
        offer={editor.mode === "edit" ? editor.offer : undefined}
      />
      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => !open && setToDelete(null)}
        title="Delete this offer?"
        description={
          toDelete
            ? `${toDelete.label} (${multiBuyDealText(toDelete)}) in ${storesOf(toDelete)}, ${dates.day(toDelete.starts_on)} to ${dates.day(toDelete.ends_on)}, will be removed.`
            : undefined
        }
        confirmLabel="Delete"
        destructive
        onConfirm={confirmDelete}
      />
    </div>
  );
}
