import type { Camera } from "@glide/contracts";
import { Eye, History, Pencil, Trash, TriangleAlert } from "lucide-react";
import { useId } from "react";
import { Button } from "../../ui/button.tsx";
import { Checkbox } from "../../ui/checkbox.tsx";
import { capital, deviceReport } from "./camera-options.ts";
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
      <DeviceReport camera={camera} />
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

/**
 * What the device said its stream is at the last probe, beside the configured
 * resolution and FPS above; a difference is flagged, since the configured
 * values are only what someone typed.
 */
function DeviceReport({ camera }: { camera: Camera }) {
  const report = deviceReport(camera);
  if (!report) return null;
  if (!report.differs) {
    return (
      <p className="text-muted-foreground" data-device-report="agrees">
        {report.text}
      </p>
    );
  }
  return (
    <p
      data-device-report="differs"
      className="flex items-start gap-1.5 rounded-md border border-amber-300 bg-amber-50 px-2 py-1 text-amber-900 dark:border-amber-700 dark:bg-amber-950/40 dark:text-amber-100"
    >
      <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <span>
        {report.text}
        <span className="sr-only">, not what is configured</span>
      </span>
    </p>
  );
}
