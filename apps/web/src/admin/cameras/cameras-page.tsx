import type { Camera, CameraSystem } from "@glide/contracts";
import { Plus, Search } from "lucide-react";
import { type ReactNode, useEffect, useMemo, useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { useSearchParam } from "../../lib/use-search-param.ts";
import { ErrorAlert } from "../../ui/alert.tsx";
import { Button } from "../../ui/button.tsx";
import { Input } from "../../ui/input.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { useStores } from "../lib/store-list.ts";
import { PageHeader } from "../shell/page-header.tsx";
import { CameraBulkBar } from "./camera-bulk-bar.tsx";
import { CameraDialog, type CameraEditor } from "./camera-dialog.tsx";
import { groupByStore, UNASSIGNED } from "./camera-groups.ts";
import { CameraHistoryDialog } from "./camera-history-dialog.tsx";
import { DeleteConfirm, type Deletion } from "./delete-confirm.tsx";
import { LivePreviewDialog } from "./live-preview-dialog.tsx";
import { StoreGroup } from "./store-group.tsx";
import { SystemDialog, type SystemEditor } from "./system-dialog.tsx";
import {
  useCameraSettings,
  useCameraSystems,
  useCameras,
  useDeleteCameras,
  useDeleteSystems,
  useProbeWatch,
} from "./use-cameras.ts";
import { useCollapsedGroups } from "./use-collapsed-groups.ts";
import { useSelection } from "./use-selection.ts";

export default function CamerasPage() {
  // Filtered here as it is typed: the lists are already loaded (spec §9: no debounce).
  const [search, setSearch] = useSearchParam("search");
  const probe = useProbeWatch();
  const systems = useCameraSystems(probe.pollMs);
  const cameras = useCameras(probe.pollMs);
  const stores = useStores("");
  const settings = useCameraSettings();
  const collapsed = useCollapsedGroups();
  const deleteSystems = useDeleteSystems();
  const deleteCameras = useDeleteCameras();

  const [systemEditor, setSystemEditor] = useState<SystemEditor>({ mode: "closed" });
  const [cameraEditor, setCameraEditor] = useState<CameraEditor>({ mode: "closed" });
  const [previewing, setPreviewing] = useState<Camera | null>(null);
  const [historyOf, setHistoryOf] = useState<Camera | null>(null);
  const [deletion, setDeletion] = useState<Deletion | null>(null);

  const systemList = systems.data ?? [];
  const cameraList = cameras.data ?? [];
  const { settle } = probe;
  useEffect(() => settle([...(systems.data ?? []), ...(cameras.data ?? [])]), [settle, systems.data, cameras.data]);

  // What the server probes after a save: a system with its active cameras, or an active camera with its system.
  const checkedBefore = (id: string | null) =>
    [...systemList, ...cameraList].find((row) => row.id === id)?.last_checked_at ?? null;
  const onSystemSaved = (saved: CameraSystem) =>
    probe.start([
      { id: saved.id, last_checked_at: checkedBefore(saved.id) },
      ...cameraList.filter((camera) => camera.camera_system_id === saved.id && camera.is_active),
    ]);
  const onCameraSaved = (saved: Camera) => {
    if (!saved.is_active) return;
    probe.start([
      { id: saved.id, last_checked_at: checkedBefore(saved.id) },
      ...(saved.camera_system_id
        ? [{ id: saved.camera_system_id, last_checked_at: checkedBefore(saved.camera_system_id) }]
        : []),
    ]);
  };
  const storeList = stores.data ?? [];
  const storeOptions = useMemo(() => storeList.map((store) => ({ value: store.id, label: store.name })), [storeList]);
  const groups = useMemo(
    () => groupByStore(storeList, systemList, cameraList, search),
    [storeList, systemList, cameraList, search],
  );

  // Only what the search leaves on screen counts as selected: a bulk delete never reaches hidden rows.
  const shownSystems = groups.flatMap((group) => group.systems.map((entry) => entry.system));
  const shownCameras = groups.flatMap((group) => [
    ...group.systems.flatMap((entry) => entry.cameras),
    ...group.standalone,
  ]);
  const selection = useSelection(shownSystems, shownCameras);

  const loads = [systems, cameras, stores, settings];
  const failed = loads.find((load) => load.isError);
  // The server's reason, when it gave one, under the spec's message.
  const failedDetail = failed ? errorMessage(failed.error, "") : "";
  const loading = systems.isPending || cameras.isPending || stores.isPending;
  const term = search.trim();

  const systemActions = {
    isSelected: (system: CameraSystem) => selection.systems.has(system.id),
    onSelectedChange: (system: CameraSystem, on: boolean) => selection.setSystem(system.id, on),
    onEdit: (system: CameraSystem) => setSystemEditor({ mode: "edit", system }),
    onDelete: (system: CameraSystem) => setDeletion({ kind: "system", systems: [system], cameras: [] }),
    onAddCamera: (system: CameraSystem) => setCameraEditor({ mode: "create", system }),
  };
  const cameraActions = {
    isSelected: (camera: Camera) => selection.cameras.has(camera.id),
    onSelectedChange: (camera: Camera, on: boolean) => selection.setCamera(camera.id, on),
    onEdit: (camera: Camera) => setCameraEditor({ mode: "edit", camera }),
    onView: (camera: Camera) => setPreviewing(camera),
    onHistory: (camera: Camera) => setHistoryOf(camera),
    onDelete: (camera: Camera) => setDeletion({ kind: "camera", systems: [], cameras: [camera] }),
  };

  const nothing = systemList.length + cameraList.length === 0;
  // A list that could not be read is not shown as empty stores.
  const ready = !loading && !(failed && nothing);
  // Nothing at all yet: the empty state offers the first system, above the stores' groups (each can take one too).
  const showEmpty = ready && (groups.length === 0 || (!term && nothing));
  let body: ReactNode = null;
  if (loading && !failed) body = <Spinner label="Loading cameras" />;
  else if (ready) {
    body = (
      <>
        {showEmpty ? (
          <div className="grid justify-items-center gap-2 rounded-lg border border-dashed px-4 py-12 text-center">
            <p className="text-lg font-semibold">No cameras found</p>
            {term ? (
              <p className="text-muted-foreground">Try adjusting your search</p>
            ) : (
              <>
                <p className="text-muted-foreground">Get started by adding a camera system</p>
                <Button className="mt-2" onClick={() => setSystemEditor({ mode: "create" })}>
                  <Plus aria-hidden="true" />
                  Add Your First System
                </Button>
              </>
            )}
          </div>
        ) : null}
        {groups.length > 0 ? (
          <div className="grid gap-4" aria-busy={systems.isFetching || cameras.isFetching}>
            {groups.map((group) => (
              <StoreGroup
                key={group.id}
                group={group}
                open={collapsed.isOpen(group.id)}
                onOpenChange={(open) => collapsed.setOpen(group.id, open)}
                onAddSystem={
                  group.id === UNASSIGNED ? undefined : () => setSystemEditor({ mode: "create", storeId: group.id })
                }
                systemActions={systemActions}
                cameraActions={cameraActions}
              />
            ))}
          </div>
        ) : null}
      </>
    );
  }

  return (
    <div className="grid min-w-0 grid-cols-1 gap-4">
      <PageHeader
        title="Camera Management"
        actions={
          <>
            <Button onClick={() => setSystemEditor({ mode: "create" })}>
              <Plus aria-hidden="true" />
              Add System
            </Button>
            <Button variant="outline" onClick={() => setCameraEditor({ mode: "create" })}>
              <Plus aria-hidden="true" />
              Add Camera
            </Button>
          </>
        }
      />

      <div className="relative min-w-0 sm:max-w-md">
        <Search
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
        />
        <Input
          type="search"
          aria-label="Search cameras"
          placeholder="Search stores, systems, and cameras..."
          className="pl-9"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
      </div>

      {selection.systemIds.length + selection.cameraIds.length > 0 ? (
        <CameraBulkBar
          systems={selection.systemIds.length}
          cameras={selection.cameraIds.length}
          busy={deleteSystems.isPending || deleteCameras.isPending}
          onDeleteSystems={() =>
            setDeletion({
              kind: "systems",
              systems: shownSystems.filter((s) => selection.systems.has(s.id)),
              cameras: [],
            })
          }
          onDeleteCameras={() =>
            setDeletion({
              kind: "cameras",
              systems: [],
              cameras: shownCameras.filter((c) => selection.cameras.has(c.id)),
            })
          }
          onClear={selection.clear}
        />
      ) : null}

      {failed ? (
        <div className="grid justify-items-start gap-3">
          <ErrorAlert>
            Failed to load camera data
            {failedDetail ? <span className="block text-muted-foreground">{failedDetail}</span> : null}
          </ErrorAlert>
          <Button
            variant="outline"
            onClick={() => {
              for (const load of loads) if (load.isError) void load.refetch();
            }}
          >
            Try again
          </Button>
        </div>
      ) : null}

      {body}

      <SystemDialog
        editor={systemEditor}
        onClose={() => setSystemEditor({ mode: "closed" })}
        stores={storeOptions}
        onSaved={onSystemSaved}
      />
      <CameraDialog
        editor={cameraEditor}
        onClose={() => setCameraEditor({ mode: "closed" })}
        systems={systemList}
        cameras={cameraList}
        stores={storeOptions}
        onSaved={onCameraSaved}
      />
      <LivePreviewDialog camera={previewing} onClose={() => setPreviewing(null)} />
      <CameraHistoryDialog camera={historyOf} onClose={() => setHistoryOf(null)} />
      <DeleteConfirm
        deletion={deletion}
        allCameras={cameraList}
        deleteSystems={deleteSystems}
        deleteCameras={deleteCameras}
        onClose={() => setDeletion(null)}
        onDeleted={(systemIds, cameraIds) => selection.forget(systemIds, cameraIds, cameraList)}
      />
    </div>
  );
}
