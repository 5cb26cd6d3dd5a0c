import type { Camera, CameraSystem } from "@glide/contracts";
import { useState } from "react";

const toggled = (set: ReadonlySet<string>, id: string, on: boolean): ReadonlySet<string> => {
  const next = new Set(set);
  if (on) next.add(id);
  else next.delete(id);
  return next;
};

/**
 * The systems and cameras ticked for a bulk delete. Only those on screen
 * (`shown…`) count: a search that hides a ticked one leaves it out.
 */
export function useSelection(shownSystems: readonly CameraSystem[], shownCameras: readonly Camera[]) {
  const [systems, setSystems] = useState<ReadonlySet<string>>(new Set());
  const [cameras, setCameras] = useState<ReadonlySet<string>>(new Set());
  return {
    systems,
    cameras,
    systemIds: shownSystems.filter((system) => systems.has(system.id)).map((system) => system.id),
    cameraIds: shownCameras.filter((camera) => cameras.has(camera.id)).map((camera) => camera.id),
    setSystem: (id: string, on: boolean) => setSystems((prev) => toggled(prev, id, on)),
    setCamera: (id: string, on: boolean) => setCameras((prev) => toggled(prev, id, on)),
    clear: () => {
      setSystems(new Set());
      setCameras(new Set());
    },
    /** After a delete: the deleted, and the cameras that went with a deleted system, are no longer ticked. */
    forget: (systemIds: readonly string[], cameraIds: readonly string[], allCameras: readonly Camera[]) => {
      const goneSystems = new Set(systemIds);
      const goneCameras = new Set([
        ...cameraIds,
        ...allCameras.filter((c) => c.camera_system_id && goneSystems.has(c.camera_system_id)).map((c) => c.id),
      ]);
      setSystems((prev) => new Set([...prev].filter((id) => !goneSystems.has(id))));
      setCameras((prev) => new Set([...prev].filter((id) => !goneCameras.has(id))));
    },
  };
}
