import type { FastifyInstance } from "fastify";
import type { cameraSystems } from "../../db/schema/index.ts";
import { CameraNetworks, literalAddress, refusalText } from "../../platform/cameras/index.ts";
import { fieldError } from "../../platform/errors.ts";

/**
 * Where a camera may be, and what a stored password belongs to. Addresses
 * are checked when they are saved (here) and again whenever one is connected
 * to (platform/cameras), since a host name may lead elsewhere later.
 */

const built = new WeakMap<readonly string[], CameraNetworks>();

/** The camera networks of the configuration (CAMERA_NETWORKS), built once per app. */
export function networksOf(app: FastifyInstance): CameraNetworks {
  const cidrs = app.config.cameraNetworks;
  let networks = built.get(cidrs);
  if (!networks) {
    networks = new CameraNetworks(cidrs);
    built.set(cidrs, networks);
  }
  return networks;
}

/** A host that names its address must be one cameras may be at; a host name is checked when it is looked up. */
export function checkHost(field: "host" | "stream_url", host: string, networks: CameraNetworks): void {
  const address = literalAddress(host);
  if (!address) return;
  const verdict = networks.judge(address);
  if (!verdict.allowed) throw fieldError(field, refusalText(host, verdict.reason));
}

/** A camera's own rtsp:// address is held to the same rule as a system's host. */
export function checkStreamUrl(url: string | null | undefined, networks: CameraNetworks): void {
  if (!url || url.startsWith("/")) return;
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    throw fieldError("stream_url", "Stream URL is not a valid rtsp:// address");
  }
  checkHost("stream_url", host, networks);
}

type SystemRow = typeof cameraSystems.$inferSelect;
type AddressChange = { host?: string; port?: number; connection_type?: string; username?: string | null };

/**
 * Whether an edit takes the system's stored password somewhere it was not
 * stored for: another host, port, connection type (an ONVIF digest's password
 * would go out as HTTP Basic) or user. Like a browser's saved password, it
 * belongs to its address; such an edit drops it unless it gives one.
 */
export function movesCredential(row: SystemRow, input: AddressChange): boolean {
  const bare = (host: string) => host.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  return (
    (input.host !== undefined && bare(input.host) !== bare(row.host)) ||
    (input.port !== undefined && input.port !== row.port) ||
    (input.connection_type !== undefined && input.connection_type !== row.connectionType) ||
    (input.username !== undefined && input.username !== row.username)
  );
}
