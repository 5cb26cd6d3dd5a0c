import type { Credentials } from "./auth-header.ts";
import { brandOf, DEFAULT_STREAM_PRESETS, fillChannel, type StreamPreset } from "./brands.ts";
import type { CameraNetworks } from "./camera-networks.ts";
import { CameraError, type Where } from "./errors.ts";

/** How to reach a camera system, as the cameras feature stores it (password decrypted). */
export type CameraSystemConnection = {
  connection_type: string;
  brand: string;
  host: string;
  port: number;
  username: string | null;
  password: string | null;
  /** HTTP: the picture path, may hold {channel}. Not used for ONVIF, whose device service is at ONVIF_DEVICE_PATH. */
  api_endpoint: string | null;
};

export type CameraCallOptions = {
  /** Where cameras may be reached (config CAMERA_NETWORKS); every address is checked before it is connected to. */
  networks: CameraNetworks;
  /** The most a call may take, all steps together; 5 s when not given. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** The effective preset of the system's brand (settings camera.brand_presets); the built-in one when not given. */
  streamPreset?: StreamPreset;
  /** The camera's own stream address (cameras.stream_url): a path on its system, or an rtsp:// URL. */
  streamPath?: string | null;
  /** The web port for pictures of a system that connects over RTSP; 80 when not given. */
  snapshotPort?: number;
  /** The largest picture taken; 5 MB when not given. */
  maxSnapshotBytes?: number;
};

export const DEFAULT_TIMEOUT_MS = 5000;
export const DEFAULT_MAX_SNAPSHOT_BYTES = 5 * 1024 * 1024;
/**
 * ONVIF's fixed entry point (ONVIF Core: "http://onvif_host/onvif/device_service").
 * ONVIF requests go there and to the service paths the device announces,
 * never to a path an admin typed, so a system cannot be made to POST to any
 * web service it points at.
 */
export const ONVIF_DEVICE_PATH = "/onvif/device_service";

/**
 * The system's user and password, or none: a user without a stored password
 * (dropped when the address changed) signs in nowhere, so no listener sees
 * even the user name.
 */
export function credentialsOf(system: CameraSystemConnection): Credentials | null {
  return system.username && system.password ? { username: system.username, password: system.password } : null;
}

/** Whether two hosts are the same host as written (a name and its address are not). */
export const sameHost = (a: string, b: string) =>
  a.replace(/^\[(.*)\]$/, "$1").toLowerCase() === b.replace(/^\[(.*)\]$/, "$1").toLowerCase();

export const baseWhere = (host: string, port: number, timeoutMs: number): Omit<Where, "step" | "doing"> => ({
  host,
  port,
  timeoutMs,
});

const hostInUrl = (host: string) => (host.includes(":") && !host.startsWith("[") ? `[${host}]` : host);

export type StreamAddress = { url: string; host: string; port: number; path: string };

/**
 * The RTSP address of a channel on a system that is not asked through
 * ONVIF: the camera's own address when it has one, otherwise the brand
 * preset's path with the channel filled in. An RTSP system's port is its
 * RTSP port; other systems use the preset's port. The URL never carries
 * credentials.
 */
export function streamAddressFor(
  system: CameraSystemConnection,
  channel: number,
  opts: Pick<CameraCallOptions, "streamPath" | "streamPreset"> = {},
): StreamAddress {
  const own = opts.streamPath?.trim();
  if (own && /^rtsps?:\/\//i.test(own)) {
    let url: URL;
    try {
      url = new URL(own);
    } catch {
      throw new CameraError("wrong_path", "path", "The camera's stream URL is not a valid rtsp:// address.");
    }
    const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
    const port = Number(url.port) || 554;
    const path = `${url.pathname}${url.search}`;
    return { url: `rtsp://${hostInUrl(host)}:${port}${path}`, host, port, path };
  }
  const preset = opts.streamPreset ?? DEFAULT_STREAM_PRESETS[brandOf(system.brand)];
  const path = own?.startsWith("/") ? own : fillChannel(preset.stream_format, channel);
  const port = system.connection_type === "rtsp" ? system.port : preset.port;
  const host = system.host.replace(/^\[(.*)\]$/, "$1");
  return { url: `rtsp://${hostInUrl(host)}:${port}${path}`, host, port, path };
}

/**
 * An address a device gave (GetStreamUri, GetSnapshotUri) made safe to use
 * and to show: credentials the device put in it are dropped, and the host
 * is the one the system was configured with, since a device often gives its
 * own LAN address, and following it to another host would hand that host
 * our requests.
 */
export function deviceAddress(given: string, system: CameraSystemConnection, defaultPort: number): URL {
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new CameraError("bad_answer", "onvif", "The device gave an address that is not a valid URL.");
  }
  url.username = "";
  url.password = "";
  url.hostname = hostInUrl(system.host.replace(/^\[(.*)\]$/, "$1"));
  if (!url.port) url.port = String(defaultPort);
  return url;
}
