import type { CameraSystem } from "@glide/contracts";
import clsx from "clsx";
import { ChevronRight, MapPin, Plus } from "lucide-react";
import { useId } from "react";
import { pluralize } from "../../lib/format.ts";
import { Badge } from "../../ui/badge.tsx";
import { Button } from "../../ui/button.tsx";
import { type StoreGroup as Group, onlineSummary } from "./camera-groups.ts";
import { type CameraActions, CameraGrid, SystemCard } from "./system-card.tsx";

/** What a system card can ask of the page. */
export interface SystemActions {
  isSelected: (system: CameraSystem) => boolean;
  onSelectedChange: (system: CameraSystem, selected: boolean) => void;
  onEdit: (system: CameraSystem) => void;
  onDelete: (system: CameraSystem) => void;
  onAddCamera: (system: CameraSystem) => void;
}

interface StoreGroupProps {
  group: Group;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Absent for the Unassigned group, which has no store to add to. */
  onAddSystem?: () => void;
  systemActions: SystemActions;
  cameraActions: CameraActions;
}

function SummaryBadge({ group }: { group: Group }) {
  const summary = onlineSummary(group.all.systems, group.all.cameras);
  if (!summary) return null;
  const variant = summary.online === summary.total ? "success" : summary.online === 0 ? "destructive" : "secondary";
  return (
    <Badge variant={variant} title={`${summary.online} of ${summary.total} systems and cameras online`}>
      {summary.label}
    </Badge>
  );
}

export function StoreGroup(props: StoreGroupProps) {
  const { group, open, onOpenChange, onAddSystem, systemActions, cameraActions } = props;
  const headingId = useId();
  const panelId = useId();
  const place = [group.store?.address, group.store?.city].filter(Boolean).join(", ");
  const cameraCount = (system: CameraSystem) =>
    group.all.cameras.filter((camera) => camera.camera_system_id === system.id).length;

  return (
    <section aria-labelledby={headingId} className="rounded-lg border bg-muted/40">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2 p-3 sm:p-4">
        <h2 id={headingId} className="min-w-0 flex-1 basis-56">
          <button
            type="button"
            aria-expanded={open}
            aria-controls={panelId}
            onClick={() => onOpenChange(!open)}
            className="flex w-full min-w-0 items-start gap-2 rounded-md text-left focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
          >
            <ChevronRight
              aria-hidden="true"
              className={clsx("mt-1 size-4 shrink-0 transition-transform", open && "rotate-90")}
            />
            <span className="grid min-w-0 gap-0.5">
              <span className="text-lg font-semibold break-words">{group.name}</span>
              {place ? (
                <span className="flex items-center gap-1 text-sm font-normal text-muted-foreground">
                  <MapPin aria-hidden="true" className="size-3.5 shrink-0" />
                  <span className="break-words">{place}</span>
                </span>
              ) : null}
            </span>
          </button>
        </h2>
        <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
          <span>{pluralize(group.all.systems.length, "system", "systems")}</span>
          <span aria-hidden="true">·</span>
          <span>{pluralize(group.all.cameras.length, "camera", "cameras")}</span>
          <SummaryBadge group={group} />
        </div>
        {onAddSystem ? (
          <Button variant="outline" size="sm" onClick={onAddSystem}>
            <Plus aria-hidden="true" />
            Add System to Store
          </Button>
        ) : null}
      </div>

      <div id={panelId} hidden={!open} className="grid gap-4 border-t p-3 sm:p-4">
        {open ? (
          <>
            {group.systems.map(({ system, cameras }) => (
              <SystemCard
                key={system.id}
                system={system}
                cameras={cameras}
                cameraCount={cameraCount(system)}
                selected={systemActions.isSelected(system)}
                onSelectedChange={(on) => systemActions.onSelectedChange(system, on)}
                onEdit={() => systemActions.onEdit(system)}
                onDelete={() => systemActions.onDelete(system)}
                onAddCamera={() => systemActions.onAddCamera(system)}
                cameraActions={cameraActions}
              />
            ))}
            {group.systems.length === 0 && group.standalone.length === 0 ? (
              <p className="text-sm text-muted-foreground">No camera systems in this store yet.</p>
            ) : null}
            {group.standalone.length > 0 ? (
              <section aria-label={`Standalone Cameras of ${group.name}`} className="grid gap-3">
                <h3 className="font-semibold">Standalone Cameras</h3>
                <CameraGrid cameras={group.standalone} actions={cameraActions} />
              </section>
            ) : null}
          </>
        ) : null}
      </div>
    </section>
  );
}
