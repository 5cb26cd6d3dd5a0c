import type { Camera } from "@glide/contracts";
import { Eye, History, Pencil, Trash } from "lucide-react";
import { useId } from "react";
import { Button } from "../../ui/button.tsx";
import { Checkbox } from "../../ui/checkbox.tsx";
import { capital } from "./camera-options.ts";
import { StatusBadge, StatusIcon } from "./camera-status.tsx";

interface CameraCardProps {
  camera: Camera;
  selected: boolean;
  onSelectedChange: (selected: boolean) => void;
  onEdit: () => void;
  onView: () => void;
  onHistory: () => void;
  onDelete: () => void;
}

export function CameraCard(props: CameraCardProps) {
  const { camera, selected, onSelectedChange, onEdit, onView, onHistory, onDelete } = props;
  const titleId = useId();
  return (
    <article
      aria-labelledby={titleId}
      className="flex min-w-0 flex-col gap-3 rounded-md border bg-background p-3 text-sm"
    >
      <div className="flex items-start gap-2">
        <Checkbox
          className="mt-0.5"
          aria-label={`Select camera ${camera.name}`}
          checked={selected}
          onCheckedChange={(checked) => onSelectedChange(checked === true)}
        />
        <StatusIcon status={camera.status} className="mt-0.5" />
        <h4 id={titleId} className="min-w-0 flex-1 font-medium break-words">
          {camera.name}
        </h4>
        <StatusBadge status={camera.status} />
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-muted-foreground">
        <dt>Zone</dt>
        <dd className="text-foreground">{capital(camera.location_zone)}</dd>
        <dt>Resolution</dt>
        <dd className="text-foreground tabular-nums">{camera.resolution}</dd>
        <dt>FPS</dt>
        <dd className="text-foreground tabular-nums">{camera.fps}</dd>
      </dl>
      {camera.is_active ? null : <p className="text-muted-foreground">Not active</p>}
      <div className="flex flex-wrap gap-1.5">
        <Button variant="outline" size="sm" onClick={onEdit}>
          <Pencil aria-hidden="true" />
          Edit
        </Button>
        <Button variant="outline" size="sm" onClick={onView}>
          <Eye aria-hidden="true" />
          View
        </Button>
        <Button variant="ghost" size="sm" onClick={onHistory}>
          <History aria-hidden="true" />
          History
        </Button>
        <Button variant="ghost" size="sm" className="text-destructive" onClick={onDelete}>
          <Trash aria-hidden="true" />
          Delete
        </Button>
      </div>
    </article>
  );
}
