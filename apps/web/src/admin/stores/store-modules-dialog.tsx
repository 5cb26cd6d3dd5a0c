import type { Store, StoreModule } from "@glide/contracts";
import { toast } from "sonner";
import { errorMessage } from "../../lib/api.ts";
import { formatKrPerMonth, humanize } from "../../lib/format.ts";
import { ErrorAlert } from "../../ui/alert.tsx";
import { Badge } from "../../ui/badge.tsx";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogBody, DialogClose, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { Switch } from "../../ui/switch.tsx";
import { useStoreModules, useToggleStoreModule } from "./use-store-modules.ts";

interface StoreModulesDialogProps {
  store: Store | null;
  onOpenChange: (open: boolean) => void;
}

export function StoreModulesDialog({ store, onOpenChange }: StoreModulesDialogProps) {
  return (
    <Dialog open={store !== null} onOpenChange={onOpenChange}>
      <DialogContent title="Manage Modules" description={store?.name} className="max-w-xl">
        <DialogBody>{store ? <ModuleList storeId={store.id} /> : null}</DialogBody>
        <DialogFooter>
          <DialogClose asChild>
            <Button>Done</Button>
          </DialogClose>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function ModuleList({ storeId }: { storeId: string }) {
  const modules = useStoreModules(storeId);
  const toggle = useToggleStoreModule(storeId);

  if (modules.isPending) return <Spinner />;
  if (modules.isError) return <ErrorAlert>{errorMessage(modules.error, "Failed to load modules")}</ErrorAlert>;
  if (modules.data.length === 0) return <p className="text-sm text-muted-foreground">No modules available.</p>;

  const onToggle = (module: StoreModule, enabled: boolean) => {
    toggle.mutate(
      { moduleId: module.module_id, enabled },
      { onError: (error) => toast.error(errorMessage(error, "Failed to update module")) },
    );
  };

  return (
    <ul className="grid gap-3">
      {modules.data.map((module) => {
        const name = humanize(module.name);
        const busy = toggle.isPending && toggle.variables?.moduleId === module.module_id;
        return (
          <li key={module.module_id} className="flex items-start justify-between gap-4 rounded-md border p-4">
            <div className="grid min-w-0 gap-1">
              <p className="font-medium">{name}</p>
              <p className="text-sm text-muted-foreground">{module.description}</p>
              <div className="flex flex-wrap items-center gap-2 text-sm">
                <Badge variant="outline">{module.category}</Badge>
                <span className="tabular-nums">{formatKrPerMonth(module.price_per_month)}</span>
              </div>
            </div>
            <Switch
              aria-label={`Enable ${name}`}
              checked={module.enabled}
              disabled={busy}
              onCheckedChange={(checked) => onToggle(module, checked)}
            />
          </li>
        );
      })}
    </ul>
  );
}
