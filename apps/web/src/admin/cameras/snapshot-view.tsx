import type { Camera } from "@glide/contracts";
import { ImageOff } from "lucide-react";
import { apiUrl, errorMessage } from "../../lib/api.ts";
import { Spinner } from "../../ui/spinner.tsx";
import { useDateFormat } from "../settings/use-date-format.ts";
import { SNAPSHOT_REFRESH_MS, useLiveSnapshot } from "./use-cameras.ts";

/** The server's snapshot address is a path on our own origin; the configured API base goes in front. */
export function snapshotSrc(url: string): string {
  return /^https?:\/\//i.test(url) ? url : apiUrl(url);
}

/** The camera's picture, renewed every few seconds while the preview is open. */
export function SnapshotView({ camera }: { camera: Camera }) {
  const snapshot = useLiveSnapshot(camera.id, true);
  const dates = useDateFormat();
  if (snapshot.isPending) return <Spinner label="Loading picture" />;
  if (!snapshot.data) {
    return (
      <p className="flex items-center justify-center gap-2 rounded-md border border-dashed px-4 py-6 text-sm text-muted-foreground">
        <ImageOff aria-hidden="true" className="size-4" />
        {snapshot.error
          ? `No picture from the camera: ${errorMessage(snapshot.error, "it could not be reached")}`
          : "No picture from the camera"}
      </p>
    );
  }
  return (
    <figure className="grid gap-1">
      <img
        src={snapshotSrc(snapshot.data.snapshot_url)}
        alt={`Snapshot from ${camera.name}`}
        className="max-h-[70svh] w-full rounded-md border bg-black object-contain"
      />
      <figcaption className="text-xs text-muted-foreground">
        Taken {dates.time(snapshot.data.taken_at, { seconds: true })} · renewed every {SNAPSHOT_REFRESH_MS / 1000} s
        {snapshot.isError ? " · the last renewal failed" : ""}
      </figcaption>
    </figure>
  );
}
