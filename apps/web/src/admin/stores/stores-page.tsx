import type { Store } from "@glide/contracts";
import { Plus, Search } from "lucide-react";
import { type ReactNode, useState } from "react";
import { toast } from "sonner";
import { errorMessage } from "../../lib/api.ts";
import { pluralize } from "../../lib/format.ts";
import { useSearchParam } from "../../lib/use-search-param.ts";
import { ErrorAlert } from "../../ui/alert.tsx";
import { ConfirmDialog } from "../../ui/alert-dialog.tsx";
import { Button } from "../../ui/button.tsx";
import { Input } from "../../ui/input.tsx";
import { useIsPlatformAdmin } from "../auth/admin-context.ts";
import { useStores } from "../lib/store-list.ts";
import { PageHeader } from "../shell/page-header.tsx";
import { StoreBulkBar } from "./store-bulk-bar.tsx";
import { StoreCard } from "./store-card.tsx";
import { StoreDialog } from "./store-dialog.tsx";
import { StoreModulesDialog } from "./store-modules-dialog.tsx";
import { type BulkResult, useDeleteStores, useSetStoresActive } from "./use-stores.ts";

type EditorState = { mode: "closed" } | { mode: "create" } | { mode: "edit"; store: Store };

/** Toasts for a bulk action: how many worked, and the first server reason for any that did not. */
function reportBulk({ succeeded, failed }: BulkResult, done: string, failedVerb: string) {
  if (succeeded > 0) toast.success(`${pluralize(succeeded, "store", "stores")} ${done}`);
  if (failed.length > 0) {
    const reason = errorMessage(failed[0], "Request failed");
    toast.error(`Failed to ${failedVerb} ${pluralize(failed.length, "store", "stores")}: ${reason}`);
  }
}

export default function StoresPage() {
  const canManage = useIsPlatformAdmin();
  // `query` follows the typed text once typing pauses, so one request is sent per search.
  const [search, setSearch, query] = useSearchParam("search");
  const stores = useStores(query);
  const setActive = useSetStoresActive();
  const deleteStores = useDeleteStores();

  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [editor, setEditor] = useState<EditorState>({ mode: "closed" });
  const [modulesFor, setModulesFor] = useState<Store | null>(null);
  const [toDelete, setToDelete] = useState<{ stores: Store[]; bulk: boolean } | null>(null);

  const list = stores.data ?? [];
  // Only stores on screen count as selected; a new search does not act on hidden ones.
  const selectedIds = list.filter((store) => selected.has(store.id)).map((store) => store.id);
  const allSelected = list.length > 0 && selectedIds.length === list.length;

  const setOne = (id: string, on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const bulkActive = (isActive: boolean) =>
    setActive.mutate(
      { ids: selectedIds, isActive },
      {
        onSuccess: (result) => {
          reportBulk(result, isActive ? "activated" : "deactivated", "update");
          setSelected(new Set());
        },
      },
    );

  const confirmDelete = () => {
    if (!toDelete) return;
    const ids = toDelete.stores.map((store) => store.id);
    deleteStores.mutate(ids, {
      onSuccess: (result) => {
        reportBulk(result, "deleted", "delete");
        setSelected((prev) => new Set([...prev].filter((id) => !ids.includes(id))));
      },
    });
  };

  const term = query.trim();
  let body: ReactNode;
  if (stores.isPending) {
    body = <p className="py-12 text-center text-muted-foreground">Loading stores...</p>;
  } else if (stores.isError && list.length === 0) {
    body = (
      <div className="grid justify-items-start gap-3">
        <ErrorAlert>{errorMessage(stores.error, "Failed to load stores")}</ErrorAlert>
        <Button variant="outline" onClick={() => void stores.refetch()}>
          Try again
        </Button>
      </div>
    );
  } else if (list.length === 0) {
    body = (
      <p className="py-12 text-center text-muted-foreground">
        {term ? "No stores found matching your search" : "No stores yet. Create your first store!"}
      </p>
    );
  } else {
    body = (
      <div
        className={`grid grid-cols-1 gap-4 lg:grid-cols-2 2xl:grid-cols-3 ${stores.isPlaceholderData ? "opacity-60" : ""}`}
        aria-busy={stores.isFetching}
      >
        {list.map((store) => (
          <StoreCard
            key={store.id}
            store={store}
            canManage={canManage}
            selected={selected.has(store.id)}
            onSelectedChange={(on) => setOne(store.id, on)}
            onEdit={() => setEditor({ mode: "edit", store })}
            onModules={() => setModulesFor(store)}
            onDelete={() => setToDelete({ stores: [store], bulk: false })}
          />
        ))}
      </div>
    );
  }

  return (
    <div className="grid grid-cols-1 gap-4">
      <PageHeader
        title="Stores"
        actions={
          canManage ? (
            <Button onClick={() => setEditor({ mode: "create" })}>
              <Plus aria-hidden="true" />
              Create Store
            </Button>
          ) : null
        }
      />

      <div className="flex flex-wrap items-center gap-2">
        <div className="relative min-w-0 flex-1 sm:max-w-sm">
          <Search
            aria-hidden="true"
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          />
          <Input
            type="search"
            aria-label="Search stores"
            placeholder="Search stores..."
            className="pl-9"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
          />
        </div>
        {canManage && list.length > 0 ? (
          <Button
            variant="outline"
            onClick={() => setSelected(allSelected ? new Set() : new Set(list.map((store) => store.id)))}
          >
            {allSelected ? "Deselect All" : "Select All"}
          </Button>
        ) : null}
      </div>

      {canManage && selectedIds.length > 0 ? (
        <StoreBulkBar
          count={selectedIds.length}
          busy={setActive.isPending || deleteStores.isPending}
          onActivate={() => bulkActive(true)}
          onDeactivate={() => bulkActive(false)}
          onDelete={() => setToDelete({ stores: list.filter((store) => selected.has(store.id)), bulk: true })}
        />
      ) : null}

      {body}

      <StoreDialog
        open={editor.mode !== "closed"}
        onOpenChange={(open) => {
          if (!open) setEditor({ mode: "closed" });
        }}
        store={editor.mode === "edit" ? editor.store : undefined}
      />
      <StoreModulesDialog store={modulesFor} onOpenChange={(open) => !open && setModulesFor(null)} />
      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => !open && setToDelete(null)}
        title={
          toDelete?.bulk
            ? `Delete ${pluralize(toDelete.stores.length, "store", "stores")}?`
            : "Are you sure you want to delete this store?"
        }
        description={
          toDelete?.bulk
            ? "The selected stores will be removed. This cannot be undone."
            : `${toDelete?.stores[0]?.name ?? "The store"} will be removed. This cannot be undone.`
        }
        confirmLabel="Delete"
        destructive
        onConfirm={confirmDelete}
      />
    </div>
  );
}
