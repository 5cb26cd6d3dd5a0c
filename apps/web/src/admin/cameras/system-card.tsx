import type { Camera, CameraSystem } from "@glide/contracts";
import { Pencil, Plus, Server, Trash } from "lucide-react";
import { useId } from "react";
import { pluralize } from "../../lib/format.ts";
import { Button } from "../../ui/button.tsx";
import { Checkbox } from "../../ui/checkbox.tsx";
import { Tooltip } from "../../ui/tooltip.tsx";
import { CameraCard } from "./camera-card.tsx";
import { capital, connectionLabel, typeLabel } from "./camera-options.ts";
import { StatusBadge, StatusIcon } from "./camera-status.tsx";

/** What a camera card can ask of the page. */
export interface CameraActions {
  isSelected: (camera: Camera) => boolean;
  onSelectedChange: (camera: Camera, selected: boolean) => void;
  onEdit: (camera: Camera) => void;
  onView: (camera: Camera) => void;
  onHistory: (camera: Camera) => void;
  onDelete: (camera: Camera) => void;
}

interface SystemCardProps {
  system: CameraSystem;
  /** The cameras the search leaves on screen. */
  cameras: Camera[];
  /** All of the system's cameras, whatever the search. */
  cameraCount: number;
  selected: boolean;
  onSelectedChange: (selected: boolean) => void;
  onEdit: () => void;
  onDelete: () => void;
  onAddCamera: () => void;
  cameraActions: CameraActions;
}

export function CameraGrid({ cameras, actions }: { cameras: Camera[]; actions: CameraActions }) {
  return (
    <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 2xl:grid-cols-3">
      {cameras.map((camera) => (
        <CameraCard
          key={camera.id}
          camera={camera}
          selected={actions.isSelected(camera)}
          onSelectedChange={(on) => actions.onSelectedChange(camera, on)}
          onEdit={() => actions.onEdit(camera)}
          onView={() => actions.onView(camera)}
          onHistory={() => actions.onHistory(camera)}
          onDelete={() => actions.onDelete(camera)}
        />
      ))}
    </div>
  );
}

export function SystemCard(props: SystemCardProps) {
  const { system, cameras, cameraCount, selected, onSelectedChange, onEdit, onDelete, onAddCamera, cameraActions } =
    props;
  const titleId = useId();
  return (
    <article
      aria-labelledby={titleId}
      className="flex min-w-0 flex-col gap-4 rounded-lg border bg-card p-4 text-card-foreground shadow-xs"
    >
      <div className="flex items-start gap-3">
        <Checkbox
          className="mt-1"
          aria-label={`Select system ${system.name}`}
          checked={selected}
          onCheckedChange={(checked) => onSelectedChange(checked === true)}
        />
        <Server aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-muted-foreground" />
        <div className="grid min-w-0 flex-1 gap-1">
          <div className="flex flex-wrap items-center gap-2">
            <h3 id={titleId} className="min-w-0 font-semibold break-words">
              {system.name}
            </h3>
            <StatusIcon status={system.status} />
            <StatusBadge status={system.status} />
          </div>
          <p className="text-sm text-muted-foreground">
            {capital(system.brand)} · {typeLabel(system.type)} · {connectionLabel(system.connection_type)}
          </p>
          <p className="text-sm break-all tabular-nums">
            {system.host}:{system.port}
          </p>
          <p className="text-sm text-muted-foreground">{pluralize(cameraCount, "camera", "cameras")}</p>
        </div>
        <div className="flex shrink-0 gap-1">
          <Tooltip content="Edit system">
            <Button variant="ghost" size="icon" aria-label={`Edit system ${system.name}`} onClick={onEdit}>
              <Pencil aria-hidden="true" />
            </Button>
          </Tooltip>
          <Tooltip content="Delete system">
            <Button
              variant="ghost"
              size="icon"
              className="text-destructive"
              aria-label={`Delete system ${system.name}`}
              onClick={onDelete}
            >
              <Trash aria-hidden="true" />
            </Button>
          </Tooltip>
        </div>
      </div>

      {cameras.length > 0 ? <CameraGrid cameras={cameras} actions={cameraActions} /> : null}
      <div>
        <Button variant="outline" size="sm" onClick={onAddCamera}>
          <Plus aria-hidden="true" />
          Add Camera to System
        </Button>
      </div>
    </article>
  );
}
