import { Trash, X } from "lucide-react";
import { pluralize } from "../../lib/format.ts";
import { Button } from "../../ui/button.tsx";

interface CameraBulkBarProps {
  systems: number;
  cameras: number;
  busy: boolean;
  onDeleteSystems: () => void;
  onDeleteCameras: () => void;
  onClear: () => void;
}

/** Shown while anything is selected: delete the selected systems or cameras, or clear the selection. */
export function CameraBulkBar({
  systems,
  cameras,
  busy,
  onDeleteSystems,
  onDeleteCameras,
  onClear,
}: CameraBulkBarProps) {
  const parts = [
    systems > 0 ? pluralize(systems, "system", "systems") : null,
    cameras > 0 ? pluralize(cameras, "camera", "cameras") : null,
  ].filter(Boolean);
  return (
    <section aria-label="Selection" className="flex flex-wrap items-center gap-2 rounded-md border bg-muted px-4 py-2">
      <p className="mr-auto text-sm font-medium" aria-live="polite">
        {parts.join(" and ")} selected
      </p>
      {systems > 0 ? (
        <Button variant="destructive" size="sm" disabled={busy} onClick={onDeleteSystems}>
          <Trash aria-hidden="true" />
          Delete Systems
        </Button>
      ) : null}
      {cameras > 0 ? (
        <Button variant="destructive" size="sm" disabled={busy} onClick={onDeleteCameras}>
          <Trash aria-hidden="true" />
          Delete Cameras
        </Button>
      ) : null}
      <Button variant="outline" size="sm" onClick={onClear}>
        <X aria-hidden="true" />
        Clear Selection
      </Button>
    </section>
  );
}
