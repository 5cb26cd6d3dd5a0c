import type { PriceGroup } from "@glide/contracts";
import { PriceListEditor } from "./price-list-editor.tsx";
import { priceGroupPricesPath } from "./use-price-groups.ts";
import type { PriceOwner } from "./use-store-prices.ts";

/**
 * A price group's prices, with the Store prices tab's list, dialogs and CSV
 * (the same editor, for a group). Platform admins change them; a store
 * admin reads and exports the group of their store.
 */
export function PriceGroupPrices({ group, canEdit }: { group: PriceGroup; canEdit: boolean }) {
  const owner: PriceOwner = { path: priceGroupPricesPath(group.id), name: group.name, noun: "group price" };
  return (
    <section aria-labelledby={`${group.id}-prices`} className="grid gap-4">
      <PriceListEditor
        owner={owner}
        canEdit={canEdit}
        title={
          <h2 id={`${group.id}-prices`} className="font-medium">
            Prices of {group.name}
          </h2>
        }
        words={{
          priceHeading: "Group price",
          emptyText: "No prices in this group yet",
          intro:
            "A scan in a store of the group pays the store's own price, else the group's, else the catalogue's, from the next scan on. A campaign below it still applies.",
          removeDescription: (name) =>
            `${name} will cost the catalogue's price in ${group.name}'s stores (unless a store has its own) from the next scan.`,
        }}
      />
    </section>
  );
}
