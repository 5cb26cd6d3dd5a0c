import type { PriceGroup } from "@glide/contracts";
import { Plus, X } from "lucide-react";
import { useId, useState } from "react";
import { toast } from "sonner";
import { errorMessage } from "../../lib/api.ts";
import { Button } from "../../ui/button.tsx";
import { Label } from "../../ui/label.tsx";
import { useStores } from "../lib/store-list.ts";
import { FilterSelect } from "../shell/filter-controls.tsx";
import { useAssignPriceGroup } from "./use-price-groups.ts";

interface PriceGroupStoresProps {
  group: PriceGroup;
  /** Every group, to say which one a store moves from. */
  groups: PriceGroup[];
  /** Platform admins put stores in and take them out; store admins only read. */
  canEdit: boolean;
}

/** The stores of a group, and (for platform admins) putting a store in or taking it out. */
export function PriceGroupStores({ group, groups, canEdit }: PriceGroupStoresProps) {
  const assign = useAssignPriceGroup();
  const move = (storeId: string, storeName: string, groupId: string | null) =>
    assign.mutate(
      { storeId, groupId },
      {
        onSuccess: () =>
          toast.success(groupId ? `${storeName} is in ${group.name}` : `${storeName} is no longer in ${group.name}`),
        onError: (error) => toast.error(errorMessage(error, "Failed to change the store's price group")),
      },
    );

  return (
    <section aria-labelledby={`${group.id}-stores`} className="grid gap-3 rounded-lg border bg-card p-4">
      <h2 id={`${group.id}-stores`} className="font-medium">
        Stores in {group.name}
      </h2>
      {group.stores.length === 0 ? (
        <p className="text-sm text-muted-foreground">No stores in this group yet.</p>
      ) : (
        <ul aria-label={`Stores in ${group.name}`} className="flex flex-wrap gap-2">
          {group.stores.map((store) => (
            <li key={store.id} className="flex items-center gap-1 rounded-md border py-1 pr-1 pl-3 text-sm">
              {store.name}
              {canEdit ? (
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={`Take ${store.name} out of ${group.name}`}
                  disabled={assign.isPending}
                  onClick={() => move(store.id, store.name, null)}
                >
                  <X aria-hidden="true" />
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {canEdit ? <AddStore group={group} groups={groups} busy={assign.isPending} onAdd={move} /> : null}
    </section>
  );
}

/** A store not in the group, to put in it; one in another group moves, and the choice says from where. */
function AddStore({
  group,
  groups,
  busy,
  onAdd,
}: {
  group: PriceGroup;
  groups: PriceGroup[];
  busy: boolean;
  onAdd: (storeId: string, storeName: string, groupId: string) => void;
}) {
  const selectId = useId();
  const stores = useStores("");
  const [chosen, setChosen] = useState("");
  const groupOf = new Map(groups.flatMap((g) => g.stores.map((s) => [s.id, g.name] as const)));
  const candidates = (stores.data ?? []).filter((s) => !group.stores.some((m) => m.id === s.id));
  const store = candidates.find((s) => s.id === chosen);

  return (
    <form
      className="flex flex-wrap items-end gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        if (!store) return;
        onAdd(store.id, store.name, group.id);
        setChosen("");
      }}
    >
      <div className="grid w-full gap-1.5 sm:w-auto">
        <Label htmlFor={selectId}>Add a store</Label>
        <FilterSelect
          id={selectId}
          className="sm:w-64"
          value={chosen}
          onChange={(event) => setChosen(event.target.value)}
        >
          <option value="">Choose a store</option>
          {candidates.map((s) => {
            const from = groupOf.get(s.id);
            return (
              <option key={s.id} value={s.id}>
                {from ? `${s.name} (now in ${from})` : s.name}
              </option>
            );
          })}
        </FilterSelect>
      </div>
      <Button type="submit" variant="outline" disabled={!store || busy}>
        <Plus aria-hidden="true" />
        Add to group
      </Button>
    </form>
  );
}
