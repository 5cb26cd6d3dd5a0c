import type { Camera, StreamInfo } from "@glide/contracts";
import { Camera as CameraIcon, Copy, Maximize, Minimize } from "lucide-react";
import { type CSSProperties, useEffect, useId, useState } from "react";
import { toast } from "sonner";
import { ApiError } from "../../lib/api.ts";
import { Badge } from "../../ui/badge.tsx";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogBody, DialogContent } from "../../ui/dialog.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { StatusBadge } from "./camera-status.tsx";
import { PtzControls } from "./ptz-controls.tsx";
import { SnapshotView, snapshotSrc } from "./snapshot-view.tsx";
import { useCaptureSnapshot, useStreamInfo } from "./use-cameras.ts";

/** Fills the window: inline, so it wins over the dialog's usual size on every screen. */
const FULLSCREEN: CSSProperties = {
  width: "100vw",
  maxWidth: "none",
  height: "100svh",
  maxHeight: "none",
  borderRadius: 0,
};

interface LivePreviewDialogProps {
  /** The camera to show; closed when null. */
  camera: Camera | null;
  onClose: () => void;
}

export function LivePreviewDialog({ camera, onClose }: LivePreviewDialogProps) {
  const [fullscreen, setFullscreen] = useState(false);
  return (
    <Dialog
      open={camera !== null}
      onOpenChange={(open) => {
        if (open) return;
        setFullscreen(false);
        onClose();
      }}
    >
      <DialogContent
        title={`${camera?.name ?? "Camera"} Live Preview`}
        className="max-w-5xl"
        style={fullscreen ? FULLSCREEN : undefined}
      >
        {camera ? (
          <DialogBody className="grid content-start gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
            <PreviewBody camera={camera} fullscreen={fullscreen} onFullscreen={setFullscreen} />
          </DialogBody>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

interface PreviewBodyProps {
  camera: Camera;
  fullscreen: boolean;
  onFullscreen: (on: boolean) => void;
}

function PreviewBody({ camera, fullscreen, onFullscreen }: PreviewBodyProps) {
  const stream = useStreamInfo(camera.id, true);

  // Said once per failure: the server's words, or that it could not be reached.
  useEffect(() => {
    if (!stream.error) return;
    if (stream.error instanceof ApiError) toast.error("Failed to get stream", { description: stream.error.detail });
    else toast.error("Failed to load stream");
  }, [stream.error]);

  // Wide screens: the stream and its picture on the left, the controls beside them.
  return (
    <>
      <div className="grid min-w-0 content-start gap-4">
        {stream.isPending ? <Spinner label="Loading stream" /> : null}
        {stream.isError ? (
          <p className="rounded-md border border-dashed px-4 py-6 text-center text-muted-foreground">
            No stream available
          </p>
        ) : null}
        {stream.data ? (
          <StreamPanel camera={camera} stream={stream.data} fullscreen={fullscreen} onFullscreen={onFullscreen} />
        ) : null}
        {stream.isPending ? null : <SnapshotView camera={camera} />}
      </div>
      <div className="grid min-w-0 content-start gap-6">
        <PtzControls camera={camera} />
        <HowTo />
      </div>
    </>
  );
}

function StreamPanel({ camera, stream, fullscreen, onFullscreen }: PreviewBodyProps & { stream: StreamInfo }) {
  const capture = useCaptureSnapshot(camera.id);

  const copy = () => {
    if (!navigator.clipboard) {
      toast.error("Could not copy the stream URL; select it and copy it yourself");
      return;
    }
    navigator.clipboard.writeText(stream.stream_url).then(
      () => toast.success("Stream URL copied to clipboard"),
      () => toast.error("Could not copy the stream URL; select it and copy it yourself"),
    );
  };

  const snapshot = () => {
    // Opened now, while the click still counts as the person's: a window opened after the answer would be blocked.
    const tab = window.open("", "_blank");
    capture.mutate(undefined, {
      onSuccess: (taken) => {
        toast.success("Snapshot captured");
        if (!tab) return;
        tab.opener = null;
        tab.location.href = snapshotSrc(taken.snapshot_url);
      },
      onError: (error) => {
        tab?.close();
        if (error instanceof ApiError) toast.error("Failed to get snapshot", { description: error.detail });
        else toast.error("Failed to capture snapshot");
      },
    });
  };

  return (
    <section aria-label="Stream" className="grid gap-3">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="grid gap-1">
          <h3 className="font-semibold">RTSP Stream Available</h3>
          <p className="text-sm text-muted-foreground">
            Browsers cannot play RTSP: open the stream in VLC or a similar player.
          </p>
        </div>
        <Button variant="outline" size="sm" aria-pressed={fullscreen} onClick={() => onFullscreen(!fullscreen)}>
          {fullscreen ? <Minimize aria-hidden="true" /> : <Maximize aria-hidden="true" />}
          {fullscreen ? "Exit Fullscreen" : "Fullscreen"}
        </Button>
      </div>
      <code className="rounded-md border bg-muted px-3 py-2 text-sm break-all" data-testid="stream-url">
        {stream.stream_url}
      </code>
      <div className="flex flex-wrap items-center gap-2">
        <Button variant="outline" size="sm" onClick={copy}>
          <Copy aria-hidden="true" />
          Copy URL
        </Button>
        <Button
          variant="outline"
          size="sm"
          onClick={snapshot}
          disabled={capture.isPending}
          aria-busy={capture.isPending}
        >
          <CameraIcon aria-hidden="true" />
          Snapshot
        </Button>
        <Badge variant="outline">{stream.resolution}</Badge>
        <Badge variant="outline">{stream.fps} FPS</Badge>
        <StatusBadge status={stream.status} />
      </div>
    </section>
  );
}

function HowTo() {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="grid gap-2 text-sm">
      <h3 id={headingId} className="font-semibold">
        How to watch the stream
      </h3>
      <ol className="grid list-decimal gap-1 pl-5 text-muted-foreground">
        <li>Copy the stream URL with Copy URL.</li>
        <li>Open VLC media player.</li>
        <li>Choose Media, then Open Network Stream.</li>
        <li>Paste the URL and press Play; give the system's user name and password if VLC asks.</li>
      </ol>
    </section>
  );
}
