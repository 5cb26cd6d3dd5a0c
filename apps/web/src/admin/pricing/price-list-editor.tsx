import { PAGE_SIZES, type StorePrice } from "@glide/contracts";
import { Download, Plus, Upload } from "lucide-react";
import { type ReactNode, useState } from "react";
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
import { type PriceOwner, useRemoveStorePrice, useStorePrices } from "./use-store-prices.ts";

const DEFAULT_PAGE_SIZE = 20;
type EditorState = { open: boolean; item?: StorePrice | undefined };

/** What differs between a store's price list and a price group's. */
export interface PriceListWords {
  /** The price column's heading, when not "Store price". */
  priceHeading?: string;
  /** The list with nothing in it and no search. */
  emptyText: string;
  /** Under the actions: how the price is used. */
  intro: string;
  /** The remove confirmation's words for a product. */
  removeDescription: (productName: string) => string;
}

/**
 * A price list of its owner (a store, a price group) with its actions: the
 * search, the paged list, CSV export, and for those who may change it CSV
 * import, add, edit and remove. `title` stands left of the actions.
 */
export function PriceListEditor({
  owner,
  title,
  words,
  canEdit,
}: {
  owner: PriceOwner;
  title: ReactNode;
  words: PriceListWords;
  canEdit: boolean;
}) {
  const { isMobile } = useSidebar();
  const params = useListParams(PAGE_SIZES, DEFAULT_PAGE_SIZE);
  const prices = useStorePrices(owner.path, {
    search: params.query.trim(),
    limit: params.pageSize,
    offset: (params.page - 1) * params.pageSize,
  });
  const remove = useRemoveStorePrice();
  // The price stays while the dialog closes, so its words do not change as it fades.
  const [editor, setEditor] = useState<EditorState>({ open: false });
  const [importing, setImporting] = useState(false);
  const [toRemove, setToRemove] = useState<StorePrice | null>(null);
  // "store price", "group price": the buttons, the search, the count and the toasts.
  const noun = owner.noun;
  const Noun = noun.charAt(0).toUpperCase() + noun.slice(1);

  const confirmRemove = () => {
    if (!toRemove) return;
    remove.mutate(
      { path: owner.path, productId: toRemove.product_id },
      {
        onSuccess: () => toast.success(`${Noun} of ${toRemove.name} removed`),
        onError: (error) => toast.error(errorMessage(error, `Failed to remove the ${noun}`)),
      },
    );
  };

  return (
    <>
      <div className="flex flex-wrap items-end justify-between gap-3">
        {title}
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
                Add {noun}
              </Button>
            </>
          ) : null}
        </div>
      </div>
      <p className="text-sm text-muted-foreground">{words.intro}</p>
      <div className="flex flex-wrap items-center gap-3">
        <SearchField
          label={`Search ${noun}s`}
          placeholder="Name or SKU"
          value={params.search}
          onChange={params.setSearch}
        />
        <MatchCount total={prices.data?.total} one={noun} many={`${noun}s`} />
      </div>
      <PagedList
        query={prices}
        paging={params}
        pageSizes={PAGE_SIZES}
        loadingLabel={`Loading ${noun}s`}
        errorLabel={`Failed to load the ${noun}s`}
      >
        {(items, busy) => (
          <StorePriceList
            items={items}
            label={`Prices of ${owner.name}`}
            phone={isMobile}
            busy={busy}
            {...(words.priceHeading ? { priceHeading: words.priceHeading } : {})}
            empty={params.query.trim() ? `No ${noun} matches the search` : words.emptyText}
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
            title={`Remove this ${noun}?`}
            description={toRemove ? words.removeDescription(toRemove.name) : undefined}
            confirmLabel="Remove"
            destructive
            onConfirm={confirmRemove}
          />
        </>
      ) : null}
    </>
  );
}
