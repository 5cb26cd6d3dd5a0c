import type { Camera } from "@glide/contracts";
import type { ReactNode } from "react";
import { errorMessage } from "../../lib/api.ts";
import { ErrorAlert } from "../../ui/alert.tsx";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogBody, DialogClose, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { useDateFormat } from "../settings/use-date-format.ts";
import { StatusBadge, StatusIcon } from "./camera-status.tsx";
import { useCameraHistory } from "./use-cameras.ts";

interface CameraHistoryDialogProps {
  /** The camera whose history to show; closed when null. */
  camera: Camera | null;
  onClose: () => void;
}

/** When the camera went online or offline, and why, newest first. */
export function CameraHistoryDialog({ camera, onClose }: CameraHistoryDialogProps) {
  return (
    <Dialog open={camera !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        title={`${camera?.name ?? "Camera"} History`}
        description="Status changes, newest first"
        className="max-w-lg"
      >
        <DialogBody>{camera ? <HistoryList camera={camera} /> : null}</DialogBody>
        <DialogFooter>
          <DialogClose asChild>
            <Button>Close</Button>
          </DialogClose>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function HistoryList({ camera }: { camera: Camera }) {
  const history = useCameraHistory(camera.id, true);
  const dates = useDateFormat();
  const changes = history.data ?? [];
  let body: ReactNode;
  if (history.isPending) body = <Spinner label="Loading history" />;
  else if (history.isError) body = <ErrorAlert>{errorMessage(history.error, "Failed to load the history")}</ErrorAlert>;
  else if (changes.length === 0)
    body = <p className="py-6 text-center text-muted-foreground">No status changes recorded yet</p>;
  else
    body = (
      <ol aria-label="Status changes" className="grid gap-2">
        {changes.map((change) => (
          <li key={`${change.changed_at}-${change.status}`} className="flex items-start gap-3 rounded-md border p-3">
            <StatusIcon status={change.status} className="mt-0.5" />
            <div className="grid min-w-0 flex-1 gap-1">
              <div className="flex flex-wrap items-center gap-2">
                <StatusBadge status={change.status} />
                <time dateTime={change.changed_at} className="text-sm tabular-nums text-muted-foreground">
                  {dates.dateTime(change.changed_at, { seconds: true })}
                </time>
              </div>
              {change.message ? <p className="text-sm break-words">{change.message}</p> : null}
            </div>
          </li>
        ))}
      </ol>
    );
  return (
    <div className="grid gap-3">
      <p className="text-sm">
        Now: <StatusBadge status={camera.status} />
      </p>
      {body}
    </div>
  );
}
