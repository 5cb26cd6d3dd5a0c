import {
  type CameraInput,
  type CameraSystemInput,
  type ConnectionTestInput,
  cameraSchema,
  cameraSettingsSchema,
  cameraSystemSchema,
  connectionTestSchema,
  type PtzCommand,
  ptzPresetSchema,
  snapshotSchema,
  statusChangeSchema,
  streamInfoSchema,
} from "@glide/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useState } from "react";
import { ApiError, api } from "../../lib/api.ts";
import { resetDashboard } from "../dashboard/use-dashboard.ts";
import { settingKeys } from "../settings/use-settings.ts";

export const cameraKeys = {
  all: ["cameras"] as const,
  /** The screen's data: both lists are reloaded together after any change (spec §4). */
  lists: () => [...cameraKeys.all, "list"] as const,
  systems: () => [...cameraKeys.lists(), "systems"] as const,
  cameras: () => [...cameraKeys.lists(), "cameras"] as const,
  camera: (id: string) => [...cameraKeys.all, "camera", id] as const,
  stream: (id: string) => [...cameraKeys.camera(id), "stream"] as const,
  snapshot: (id: string) => [...cameraKeys.camera(id), "snapshot"] as const,
  presets: (id: string) => [...cameraKeys.camera(id), "presets"] as const,
  history: (id: string) => [...cameraKeys.camera(id), "history"] as const,
};

/**
 * Kept under the settings' effective values, so a changed setting or store
 * override drops the camera screen's lists and defaults too.
 */
const cameraSettingsKey = (storeId?: string) =>
  [...settingKeys.all, "effective", "camera-screen", storeId ?? "global"] as const;

const systemsPath = "/api/v1/cameras/systems";
const camerasPath = "/api/v1/cameras/cameras";
const systemPath = (id: string) => `${systemsPath}/${encodeURIComponent(id)}`;
const cameraPath = (id: string) => `${camerasPath}/${encodeURIComponent(id)}`;

/** `pollMs`: read again this often while a save's probe is awaited (useProbeWatch). */
export function useCameraSystems(pollMs: number | false = false) {
  return useQuery({
    queryKey: cameraKeys.systems(),
    queryFn: ({ signal }) => api.get(systemsPath, cameraSystemSchema.array(), { signal }),
    refetchInterval: pollMs,
  });
}

export function useCameras(pollMs: number | false = false) {
  return useQuery({
    queryKey: cameraKeys.cameras(),
    queryFn: ({ signal }) => api.get(camerasPath, cameraSchema.array(), { signal }),
    refetchInterval: pollMs,
  });
}

/** How often the lists are read while a probe is awaited, and for how long at most (its 5 s limit, and some). */
const PROBE_POLL_MS = 750;
const PROBE_WATCH_MS = 8_000;

type Checked = { id: string; last_checked_at: string | null };

/**
 * The server probes a system (with its cameras) or a camera right after it is
 * saved. Until every row it probes has been checked since the save, the lists
 * are read again every PROBE_POLL_MS, so the cards show the probe's answer
 * instead of the status from before the save.
 */
export function useProbeWatch() {
  const [watched, setWatched] = useState<Map<string, string | null> | null>(null);

  useEffect(() => {
    if (!watched) return;
    const timer = setTimeout(() => setWatched(null), PROBE_WATCH_MS);
    return () => clearTimeout(timer);
  }, [watched]);

  /** Watches the saved rows, each with when it was last checked before the save. */
  const start = useCallback((rows: readonly Checked[]) => {
    setWatched(new Map(rows.map((row) => [row.id, row.last_checked_at])));
  }, []);

  /** Stops once every watched row was checked again (or is gone). */
  const settle = useCallback(
    (rows: readonly Checked[]) => {
      if (!watched) return;
      const now = new Map(rows.map((row) => [row.id, row.last_checked_at]));
      const done = [...watched].every(([id, before]) => !now.has(id) || now.get(id) !== before);
      if (done) setWatched(null);
    },
    [watched],
  );

  return { pollMs: watched ? PROBE_POLL_MS : (false as const), start, settle };
}

/** The dropdowns and defaults of the dialogs: a store's effective settings, or the global ones. */
export function useCameraSettings(storeId?: string) {
  return useQuery({
    queryKey: cameraSettingsKey(storeId),
    queryFn: ({ signal }) =>
      api.get("/api/v1/settings/camera", cameraSettingsSchema, { signal, query: { store_id: storeId } }),
    staleTime: 5 * 60_000,
  });
}

/** Every change reloads both lists (a deleted system takes its cameras) and the dashboard's counts. */
function useReload() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: cameraKeys.lists() }), resetDashboard(queryClient)]);
}

export function useSaveSystem() {
  const reload = useReload();
  return useMutation({
    mutationFn: ({ id, input }: { id?: string; input: CameraSystemInput }) =>
      id ? api.put(systemPath(id), input, cameraSystemSchema) : api.post(systemsPath, input, cameraSystemSchema),
    onSuccess: reload,
  });
}

export function useSaveCamera() {
  const reload = useReload();
  return useMutation({
    mutationFn: ({ id, input }: { id?: string; input: CameraInput }) =>
      id ? api.put(cameraPath(id), input, cameraSchema) : api.post(camerasPath, input, cameraSchema),
    onSuccess: reload,
  });
}

export interface BulkResult {
  succeeded: number;
  failed: unknown[];
}

/** One DELETE per id, in parallel. Already gone (404, e.g. a camera of a system deleted alongside) counts as done. */
async function deleteAll(ids: readonly string[], pathOf: (id: string) => string): Promise<BulkResult> {
  const results = await Promise.allSettled(
    ids.map((id) =>
      api.send("DELETE", pathOf(id)).catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 404) return;
        throw error;
      }),
    ),
  );
  const failed = results.flatMap((result) => (result.status === "rejected" ? [result.reason] : []));
  return { succeeded: results.length - failed.length, failed };
}

export function useDeleteSystems() {
  const reload = useReload();
  return useMutation({
    mutationFn: (ids: readonly string[]) => deleteAll(ids, systemPath),
    onSettled: reload,
  });
}

export function useDeleteCameras() {
  const reload = useReload();
  return useMutation({
    mutationFn: (ids: readonly string[]) => deleteAll(ids, cameraPath),
    onSettled: reload,
  });
}

/** POST …/systems/test: the settings as typed, tried against the device before they are saved; nothing is stored. */
export function useTestConnection() {
  return useMutation({
    mutationFn: (input: ConnectionTestInput) => api.post(`${systemsPath}/test`, input, connectionTestSchema),
  });
}

/** The stream's address and format; asked each time the preview opens. */
export function useStreamInfo(id: string, enabled: boolean) {
  return useQuery({
    queryKey: cameraKeys.stream(id),
    queryFn: ({ signal }) => api.get(`${cameraPath(id)}/stream`, streamInfoSchema, { signal }),
    enabled,
    staleTime: 0,
    retry: false,
  });
}

/** How often the preview's picture is renewed while the dialog is open. */
export const SNAPSHOT_REFRESH_MS = 5_000;

export function useLiveSnapshot(id: string, enabled: boolean) {
  return useQuery({
    queryKey: cameraKeys.snapshot(id),
    queryFn: ({ signal }) => api.get(`${cameraPath(id)}/snapshot`, snapshotSchema, { signal }),
    enabled,
    staleTime: 0,
    retry: false,
    // A refusal (409: the camera has no snapshot address) will not change by asking again.
    refetchInterval: (query) =>
      enabled && !(query.state.error instanceof ApiError && query.state.error.status < 500)
        ? SNAPSHOT_REFRESH_MS
        : false,
    refetchIntervalInBackground: false,
  });
}

/** The Snapshot button: a fresh picture, which also becomes the preview's. */
export function useCaptureSnapshot(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.get(`${cameraPath(id)}/snapshot`, snapshotSchema),
    onSuccess: (snapshot) => queryClient.setQueryData(cameraKeys.snapshot(id), snapshot),
  });
}

export function usePtzPresets(id: string, enabled: boolean) {
  return useQuery({
    queryKey: cameraKeys.presets(id),
    queryFn: ({ signal }) => api.get(`${cameraPath(id)}/ptz/presets`, ptzPresetSchema.array(), { signal }),
    enabled,
    retry: false,
  });
}

export function usePtzCommand(id: string) {
  return useMutation({
    mutationFn: (command: PtzCommand) => api.send("POST", `${cameraPath(id)}/ptz`, command),
  });
}

/** The camera's status changes, newest first. */
export function useCameraHistory(id: string, enabled: boolean) {
  return useQuery({
    queryKey: cameraKeys.history(id),
    queryFn: ({ signal }) => api.get(`${cameraPath(id)}/history`, statusChangeSchema.array(), { signal }),
    enabled,
    staleTime: 0,
  });
}
