import { useId } from "react";
import { errorMessage } from "../../lib/api.ts";
import { ErrorAlert } from "../../ui/alert.tsx";
import { Label } from "../../ui/label.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { useStores } from "../lib/store-list.ts";
import { FilterSelect } from "../shell/filter-controls.tsx";
import { PriceListEditor } from "./price-list-editor.tsx";
import { type PriceOwner, storePricesPath } from "./use-store-prices.ts";

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
  const owner: PriceOwner = { path: storePricesPath(store.id), name: store.name, noun: "store price" };
  return (
    <div className="grid gap-4">
      <PriceListEditor
        owner={owner}
        canEdit
        title={
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
        }
        words={{
          emptyText: "No prices of its own in this store yet",
          intro:
            "A product's price in this store, over the catalogue's. A scan in the store uses the store's price from the next scan on; carts already filled keep theirs. Products without a price here cost the store's price group's price, else the catalogue's.",
          removeDescription: (name) =>
            `${name} will cost the catalogue's price in ${store.name} from the next scan. Carts already filled keep theirs.`,
        }}
      />
    </div>
  );
}
