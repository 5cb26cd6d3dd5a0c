import type { Camera, CameraSystem } from "@glide/contracts";
import { toast } from "sonner";
import { errorMessage } from "../../lib/api.ts";
import { pluralize } from "../../lib/format.ts";
import { ConfirmDialog } from "../../ui/alert-dialog.tsx";
import type { BulkResult, useDeleteCameras, useDeleteSystems } from "./use-cameras.ts";

/** What is about to be deleted: one system or camera from its card, or the selection from the bulk bar. */
export interface Deletion {
  kind: "system" | "systems" | "camera" | "cameras";
  systems: CameraSystem[];
  cameras: Camera[];
}

interface DeleteConfirmProps {
  deletion: Deletion | null;
  /** Every camera, to say how many go with the systems. */
  allCameras: readonly Camera[];
  deleteSystems: ReturnType<typeof useDeleteSystems>;
  deleteCameras: ReturnType<typeof useDeleteCameras>;
  onClose: () => void;
  onDeleted: (systemIds: string[], cameraIds: string[]) => void;
}

const reason = (result: BulkResult) => ({ description: errorMessage(result.failed[0], "Request failed") });

function texts(deletion: Deletion, allCameras: readonly Camera[]) {
  const ids = new Set(deletion.systems.map((system) => system.id));
  const going = allCameras.filter((camera) => camera.camera_system_id && ids.has(camera.camera_system_id)).length;
  const count = going > 0 ? ` (${pluralize(going, "camera", "cameras")})` : "";
  switch (deletion.kind) {
    case "system":
      return {
        title: "Delete this camera system?",
        description: `${deletion.systems[0]?.name ?? "The system"} will be deleted, and all its cameras with it${count}. This cannot be undone.`,
      };
    case "systems":
      return {
        title: `Delete ${pluralize(deletion.systems.length, "camera system", "camera systems")}?`,
        description: `All their cameras are deleted too${count}. This cannot be undone.`,
      };
    case "camera":
      return {
        title: "Are you sure you want to delete this camera?",
        description: `${deletion.cameras[0]?.name ?? "The camera"} will be deleted. This cannot be undone.`,
      };
    case "cameras":
      return {
        title: `Delete ${pluralize(deletion.cameras.length, "camera", "cameras")}?`,
        description: "The selected cameras will be deleted. This cannot be undone.",
      };
  }
}

/** Asks first; then one DELETE per item in parallel, and the spec's toasts for what worked and what did not. */
export function DeleteConfirm(props: DeleteConfirmProps) {
  const { deletion, allCameras, deleteSystems, deleteCameras, onClose, onDeleted } = props;
  const shown = deletion ? texts(deletion, allCameras) : null;

  const confirm = () => {
    if (!deletion) return;
    const { kind } = deletion;
    if (kind === "system" || kind === "systems") {
      const ids = deletion.systems.map((system) => system.id);
      deleteSystems.mutate(ids, {
        onSuccess: (result) => {
          if (kind === "system") {
            if (result.failed.length > 0) toast.error("Failed to delete system", reason(result));
            else toast.success("Camera system deleted successfully");
          } else {
            if (result.succeeded > 0)
              toast.success(`${pluralize(result.succeeded, "camera system", "camera systems")} deleted successfully`);
            if (result.failed.length > 0) toast.error("Failed to delete some systems", reason(result));
          }
          onDeleted(ids, []);
        },
      });
      return;
    }
    const ids = deletion.cameras.map((camera) => camera.id);
    deleteCameras.mutate(ids, {
      onSuccess: (result) => {
        if (kind === "camera") {
          if (result.failed.length > 0) toast.error("Failed to delete camera", reason(result));
          else toast.success("Camera deleted successfully");
        } else {
          if (result.succeeded > 0)
            toast.success(`${pluralize(result.succeeded, "camera", "cameras")} deleted successfully`);
          if (result.failed.length > 0) toast.error("Failed to delete some cameras", reason(result));
        }
        onDeleted([], ids);
      },
    });
  };

  return (
    <ConfirmDialog
      open={deletion !== null}
      onOpenChange={(open) => !open && onClose()}
      title={shown?.title}
      description={shown?.description}
      confirmLabel="Delete"
      destructive
      onConfirm={confirm}
    />
  );
}
