import { PAGE_SIZES, type PriceGroup, type StorePrice } from "@glide/contracts";
import { Download, Plus, Upload } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { apiUrl, errorMessage } from "../../lib/api.ts";
import { useListParams } from "../../lib/use-list-params.ts";
import { ConfirmDialog } from "../../ui/alert-dialog.tsx";
import { Button, buttonClass } from "../../ui/button.tsx";
import { useSidebar } from "../../ui/sidebar.tsx";
import { MatchCount, SearchField } from "../shell/filter-controls.tsx";
import { PagedList } from "../shell/paged-list.tsx";
import { StorePriceDialog } from "./store-price-dialog.tsx";
import { StorePriceImportDialog } from "./store-price-import-dialog.tsx";
import { StorePriceList } from "./store-price-list.tsx";
import { priceGroupPricesPath } from "./use-price-groups.ts";
import { type PriceOwner, useRemoveStorePrice, useStorePrices } from "./use-store-prices.ts";

const DEFAULT_PAGE_SIZE = 20;
type EditorState = { open: boolean; item?: StorePrice | undefined };

/**
 * A price group's prices, with the Store prices tab's list, dialogs and CSV
 * (the same components, for a group). Platform admins change them; a store
 * admin reads and exports the group of their store.
 */
export function PriceGroupPrices({ group, canEdit }: { group: PriceGroup; canEdit: boolean }) {
  const owner: PriceOwner = { path: priceGroupPricesPath(group.id), name: group.name, noun: "group price" };
  const { isMobile } = useSidebar();
  const params = useListParams(PAGE_SIZES, DEFAULT_PAGE_SIZE);
  const prices = useStorePrices(owner.path, {
    search: params.query.trim(),
    limit: params.pageSize,
    offset: (params.page - 1) * params.pageSize,
  });
  const remove = useRemoveStorePrice();
  const [editor, setEditor] = useState<EditorState>({ open: false });
  const [importing, setImporting] = useState(false);
  const [toRemove, setToRemove] = useState<StorePrice | null>(null);

  const confirmRemove = () => {
    if (!toRemove) return;
    remove.mutate(
      { path: owner.path, productId: toRemove.product_id },
      {
        onSuccess: () => toast.success(`Group price of ${toRemove.name} removed`),
        onError: (error) => toast.error(errorMessage(error, "Failed to remove the group price")),
      },
    );
  };

  return (
    <section aria-labelledby={`${group.id}-prices`} className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={`${group.id}-prices`} className="font-medium">
          Prices of {group.name}
        </h2>
        <div className="flex flex-wrap gap-2">
          <a href={apiUrl(`${owner.path}/export`)} download className={buttonClass("outline")}>
            <Download aria-hidden="true" />
            Export CSV
          </a>
          {canEdit ? (
            <>
              <Button variant="outline" onClick={() => setImporting(true)}>
                <Upload aria-hidden="true" />
                Import CSV
              </Button>
              <Button onClick={() => setEditor({ open: true })}>
                <Plus aria-hidden="true" />
                Add group price
              </Button>
            </>
          ) : null}
        </div>
      </div>
      <p className="text-sm text-muted-foreground">
        A scan in a store of the group pays the store's own price, else the group's, else the catalogue's, from the next
        scan on. A campaign below it still applies.
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <SearchField
          label="Search group prices"
          placeholder="Name or SKU"
          value={params.search}
          onChange={params.setSearch}
        />
        <MatchCount total={prices.data?.total} one="group price" many="group prices" />
      </div>
      <PagedList
        query={prices}
        paging={params}
        pageSizes={PAGE_SIZES}
        loadingLabel="Loading group prices"
        errorLabel="Failed to load the group prices"
      >
        {(items, busy) => (
          <StorePriceList
            items={items}
            label={`Prices of ${group.name}`}
            phone={isMobile}
            busy={busy}
            priceHeading="Group price"
            empty={params.query.trim() ? "No group price matches the search" : "No prices in this group yet"}
            onEdit={canEdit ? (item) => setEditor({ open: true, item }) : undefined}
            onRemove={canEdit ? setToRemove : undefined}
          />
        )}
      </PagedList>

      {canEdit ? (
        <>
          <StorePriceDialog
            open={editor.open}
            onOpenChange={(open) => setEditor((last) => ({ ...last, open }))}
            owner={owner}
            item={editor.item}
          />
          <StorePriceImportDialog open={importing} onOpenChange={setImporting} owner={owner} />
          <ConfirmDialog
            open={toRemove !== null}
            onOpenChange={(open) => !open && setToRemove(null)}
            title="Remove this group price?"
            description={
              toRemove
                ? `${toRemove.name} will cost the catalogue's price in ${group.name}'s stores (unless a store has its own) from the next scan.`
                : undefined
            }
            confirmLabel="Remove"
            destructive
            onConfirm={confirmRemove}
          />
        </>
      ) : null}
    </section>
  );
}
