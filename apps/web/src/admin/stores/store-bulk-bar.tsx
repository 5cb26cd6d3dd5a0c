import { CircleCheck, CircleOff, Trash } from "lucide-react";
import { Button } from "../../ui/button.tsx";

interface StoreBulkBarProps {
  count: number;
  busy: boolean;
  onActivate: () => void;
  onDeactivate: () => void;
  onDelete: () => void;
}

export function StoreBulkBar({ count, busy, onActivate, onDeactivate, onDelete }: StoreBulkBarProps) {
  return (
    <div className="flex flex-wrap items-center gap-2 rounded-md border bg-muted px-4 py-2">
      <p className="mr-auto text-sm font-medium">{count} selected</p>
      <Button variant="outline" size="sm" disabled={busy} onClick={onActivate}>
        <CircleCheck aria-hidden="true" />
        Activate
      </Button>
      <Button variant="outline" size="sm" disabled={busy} onClick={onDeactivate}>
        <CircleOff aria-hidden="true" />
        Deactivate
      </Button>
      <Button variant="destructive" size="sm" disabled={busy} onClick={onDelete}>
        <Trash aria-hidden="true" />
        Delete
      </Button>
    </div>
  );
}
