import type { PriceGroup } from "@glide/contracts";
import { Pencil, Plus, Trash } from "lucide-react";
import { useId, useState } from "react";
import { toast } from "sonner";
import { errorMessage } from "../../lib/api.ts";
import { pluralize } from "../../lib/format.ts";
import { ErrorAlert } from "../../ui/alert.tsx";
import { ConfirmDialog } from "../../ui/alert-dialog.tsx";
import { Button } from "../../ui/button.tsx";
import { Label } from "../../ui/label.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { useIsPlatformAdmin } from "../auth/admin-context.ts";
import { FilterSelect } from "../shell/filter-controls.tsx";
import { PriceGroupDialog } from "./price-group-dialog.tsx";
import { PriceGroupPrices } from "./price-group-prices.tsx";
import { PriceGroupStores } from "./price-group-stores.tsx";
import { useDeletePriceGroup, usePriceGroups } from "./use-price-groups.ts";

interface PriceGroupsViewProps {
  /** The group in the URL; "" (or one the admin does not see) shows the first. */
  group: string;
  onGroupChange: (groupId: string) => void;
}

type EditorState = { open: boolean; group?: PriceGroup | undefined };

/**
 * The Price groups tab: stores that share prices. A scan in a store of a group
 * pays the store's own price, else the group's, else the catalogue's.
 * Platform admins make groups, put stores in them and set their prices; a
 * store admin reads the groups of their own stores.
 */
export function PriceGroupsView({ group, onGroupChange }: PriceGroupsViewProps) {
  const canEdit = useIsPlatformAdmin();
  const groups = usePriceGroups();
  const selectId = useId();
  const remove = useDeletePriceGroup();
  const [editor, setEditor] = useState<EditorState>({ open: false });
  const [toDelete, setToDelete] = useState<PriceGroup | null>(null);

  if (groups.isPending) return <Spinner label="Loading price groups" />;
  if (groups.isError) return <ErrorAlert>{errorMessage(groups.error, "Failed to load the price groups")}</ErrorAlert>;
  const current = groups.data.find((g) => g.id === group) ?? groups.data[0];

  const confirmDelete = () => {
    if (!toDelete) return;
    remove.mutate(toDelete.id, {
      onSuccess: () => {
        toast.success(`Price group ${toDelete.name} deleted`);
        onGroupChange("");
      },
      onError: (error) => toast.error(errorMessage(error, "Failed to delete the price group")),
    });
  };

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        {current ? (
          <div className="grid w-full gap-1.5 sm:w-auto">
            <Label htmlFor={selectId}>Price group</Label>
            <FilterSelect
              id={selectId}
              className="sm:w-64"
              value={current.id}
              onChange={(event) => onGroupChange(event.target.value)}
            >
              {groups.data.map((g) => (
                <option key={g.id} value={g.id}>
                  {`${g.name} (${pluralize(g.stores.length, "store", "stores")}, ${pluralize(g.price_count, "price", "prices")})`}
                </option>
              ))}
            </FilterSelect>
          </div>
        ) : null}
        {canEdit ? (
          <div className="flex flex-wrap gap-2">
            {current ? (
              <>
                <Button variant="outline" onClick={() => setEditor({ open: true, group: current })}>
                  <Pencil aria-hidden="true" />
                  Rename
                </Button>
                <Button variant="outline" className="text-destructive" onClick={() => setToDelete(current)}>
                  <Trash aria-hidden="true" />
                  Delete
                </Button>
              </>
            ) : null}
            <Button onClick={() => setEditor({ open: true })}>
              <Plus aria-hidden="true" />
              New price group
            </Button>
          </div>
        ) : null}
      </div>

      {current ? (
        <>
          <PriceGroupStores group={current} groups={groups.data} canEdit={canEdit} />
          <PriceGroupPrices key={current.id} group={current} canEdit={canEdit} />
        </>
      ) : (
        <p className="rounded-lg border bg-card py-12 text-center text-muted-foreground">
          {canEdit ? "No price groups yet" : "None of your stores is in a price group"}
        </p>
      )}

      <PriceGroupDialog
        open={editor.open}
        onOpenChange={(open) => setEditor((last) => ({ ...last, open }))}
        group={editor.group}
        onSaved={(saved) => onGroupChange(saved.id)}
      />
      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => !open && setToDelete(null)}
        title="Delete this price group?"
        description={
          toDelete
            ? `${toDelete.name} and its ${pluralize(toDelete.price_count, "price", "prices")} will be deleted; its stores pay their own or the catalogue's prices from the next scan.`
            : undefined
        }
        confirmLabel="Delete"
        destructive
        onConfirm={confirmDelete}
      />
    </div>
  );
}
