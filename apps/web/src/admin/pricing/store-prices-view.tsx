import { PAGE_SIZES, type StorePrice } from "@glide/contracts";
import { Download, Plus, Upload } from "lucide-react";
import { useId, useState } from "react";
import { toast } from "sonner";
import { apiUrl, errorMessage } from "../../lib/api.ts";
import { useListParams } from "../../lib/use-list-params.ts";
import { ErrorAlert } from "../../ui/alert.tsx";
import { ConfirmDialog } from "../../ui/alert-dialog.tsx";
import { Button, buttonClass } from "../../ui/button.tsx";
import { Label } from "../../ui/label.tsx";
import { useSidebar } from "../../ui/sidebar.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { useStores } from "../lib/store-list.ts";
import { FilterSelect, MatchCount, SearchField } from "../shell/filter-controls.tsx";
import { PagedList } from "../shell/paged-list.tsx";
import { StorePriceDialog } from "./store-price-dialog.tsx";
import { StorePriceImportDialog } from "./store-price-import-dialog.tsx";
import { StorePriceList } from "./store-price-list.tsx";
import { type PriceOwner, storePricesPath, useRemoveStorePrice, useStorePrices } from "./use-store-prices.ts";

const DEFAULT_PAGE_SIZE = 20;

interface StorePricesViewProps {
  /** The store in the URL; "" (or one the admin does not see) shows their first store. */
  store: string;
  onStoreChange: (storeId: string) => void;
}

/**
 * The Store prices tab: one store's own prices over the catalogue's. Every
 * admin who sees the store changes them (store admins see only their own).
 */
export function StorePricesView({ store, onStoreChange }: StorePricesViewProps) {
  const stores = useStores("");
  if (stores.isPending) return <Spinner label="Loading stores" />;
  if (stores.isError) return <ErrorAlert>{errorMessage(stores.error, "Failed to load the stores")}</ErrorAlert>;
  const current = stores.data.find((s) => s.id === store) ?? stores.data[0];
  if (!current) {
    return <p className="rounded-lg border bg-card py-12 text-center text-muted-foreground">No stores to price yet</p>;
  }
  return <StorePrices store={current} stores={stores.data} onStoreChange={onStoreChange} />;
}

type Store = { id: string; name: string };
type EditorState = { open: boolean; item?: StorePrice | undefined };

function StorePrices({
  store,
  stores,
  onStoreChange,
}: {
  store: Store;
  stores: Store[];
  onStoreChange: (id: string) => void;
}) {
  const storeSelectId = useId();
  const { isMobile } = useSidebar();
  const params = useListParams(PAGE_SIZES, DEFAULT_PAGE_SIZE);
  const owner: PriceOwner = { path: storePricesPath(store.id), name: store.name, noun: "store price" };
  const prices = useStorePrices(owner.path, {
    search: params.query.trim(),
    limit: params.pageSize,
    offset: (params.page - 1) * params.pageSize,
  });
  const remove = useRemoveStorePrice();
  // The override stays while the dialog closes, so its words do not change as it fades.
  const [editor, setEditor] = useState<EditorState>({ open: false });
  const [importing, setImporting] = useState(false);
  const [toRemove, setToRemove] = useState<StorePrice | null>(null);

  const confirmRemove = () => {
    if (!toRemove) return;
    remove.mutate(
      { path: owner.path, productId: toRemove.product_id },
      {
        onSuccess: () => toast.success(`Store price of ${toRemove.name} removed`),
        onError: (error) => toast.error(errorMessage(error, "Failed to remove the store price")),
      },
    );
  };

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="grid w-full gap-1.5 sm:w-auto">
          <Label htmlFor={storeSelectId}>Store</Label>
          <FilterSelect
            id={storeSelectId}
            className="sm:w-56"
            value={store.id}
            onChange={(event) => onStoreChange(event.target.value)}
          >
            {stores.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </FilterSelect>
        </div>
        <div className="flex flex-wrap gap-2">
          <a href={apiUrl(`${owner.path}/export`)} download className={buttonClass("outline")}>
            <Download aria-hidden="true" />
            Export CSV
          </a>
          <Button variant="outline" onClick={() => setImporting(true)}>
            <Upload aria-hidden="true" />
            Import CSV
          </Button>
          <Button onClick={() => setEditor({ open: true })}>
            <Plus aria-hidden="true" />
            Add store price
          </Button>
        </div>
      </div>
      <p className="text-sm text-muted-foreground">
        A product's price in this store, over the catalogue's. A scan in the store uses the store's price from the next
        scan on; carts already filled keep theirs. Products without a price here cost the store's price group's price,
        else the catalogue's.
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <SearchField
          label="Search store prices"
          placeholder="Name or SKU"
          value={params.search}
          onChange={params.setSearch}
        />
        <MatchCount total={prices.data?.total} one="store price" many="store prices" />
      </div>

      <PagedList
        query={prices}
        paging={params}
        pageSizes={PAGE_SIZES}
        loadingLabel="Loading store prices"
        errorLabel="Failed to load the store prices"
      >
        {(items, busy) => (
          <StorePriceList
            items={items}
            label={`Prices of ${store.name}`}
            phone={isMobile}
            busy={busy}
            empty={params.query.trim() ? "No store price matches the search" : "No prices of its own in this store yet"}
            onEdit={(item) => setEditor({ open: true, item })}
            onRemove={setToRemove}
          />
        )}
      </PagedList>

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
        title="Remove this store price?"
        description={
          toRemove
            ? `${toRemove.name} will cost the catalogue's price in ${store.name} from the next scan. Carts already filled keep theirs.`
            : undefined
        }
        confirmLabel="Remove"
        destructive
        onConfirm={confirmRemove}
      />
    </div>
  );
}
