import { brandOf, fillChannel, SNAPSHOT_PATHS } from "./brands.ts";
import type { CameraNetworks } from "./camera-networks.ts";
import {
  baseWhere,
  type CameraCallOptions,
  type CameraSystemConnection,
  credentialsOf,
  DEFAULT_MAX_SNAPSHOT_BYTES,
  DEFAULT_TIMEOUT_MS,
  deviceAddress,
  ONVIF_DEVICE_PATH,
  sameHost,
  streamAddressFor,
} from "./camera-system.ts";
import { type Deadline, resolveHost, withDeadline } from "./deadline.ts";
import { CameraError } from "./errors.ts";
import type { HttpTarget } from "./http-get.ts";
import { channelOf, type OnvifSession, openOnvif } from "./onvif-session.ts";
import { fetchPicture, type Picture } from "./picture.ts";
import { rtspDescribe } from "./rtsp-probe.ts";
import { readSdp } from "./sdp.ts";

/**
 * What the cameras feature asks of a camera: its stream address with size
 * and frame rate, and a picture. ONVIF systems are asked through ONVIF
 * (GetStreamUri, GetSnapshotUri); the others through the brand's paths.
 * Every call is bounded by `timeoutMs` and fails with a CameraError.
 */

export type StreamInfo = {
  /** rtsp:// without credentials. */
  stream_url: string;
  /** "1920x1080", or null when the camera does not say. */
  resolution: string | null;
  fps: number | null;
};

const resolution = (w: number | null, h: number | null) => (w && h ? `${w}x${h}` : null);

function checkChannel(channel: number) {
  if (!Number.isInteger(channel) || channel < 1) {
    throw new CameraError("no_such_channel", "path", "A channel is a whole number from 1.");
  }
}

/** An ONVIF conversation with the system under the deadline, at the address its host was checked to have. */
export async function onvifSession(
  system: CameraSystemConnection,
  deadline: Deadline,
  want: { info: boolean; profiles: boolean },
  networks: CameraNetworks,
): Promise<OnvifSession> {
  const base = baseWhere(system.host, system.port, deadline.timeoutMs);
  const address = await resolveHost(system.host, deadline, base, networks);
  const credentials = credentialsOf(system);
  return openOnvif(
    {
      address,
      port: system.port,
      path: ONVIF_DEVICE_PATH,
      username: credentials?.username ?? null,
      password: credentials?.password ?? null,
    },
    deadline,
    base,
    want,
  );
}

/** The picture address of a channel on a system that is not asked through ONVIF (its address not yet looked up). */
export function pictureTarget(
  system: CameraSystemConnection,
  channel: number,
  opts: Omit<CameraCallOptions, "networks">,
): Omit<HttpTarget, "address"> {
  const template =
    system.connection_type === "http" && system.api_endpoint
      ? system.api_endpoint
      : SNAPSHOT_PATHS[brandOf(system.brand)];
  return {
    secure: false,
    host: system.host.replace(/^\[(.*)\]$/, "$1"),
    port: system.connection_type === "http" ? system.port : (opts.snapshotPort ?? 80),
    path: fillChannel(template, channel),
  };
}

export async function probeStream(
  system: CameraSystemConnection,
  channel: number,
  deadline: Deadline,
  opts: CameraCallOptions,
) {
  const address = streamAddressFor(system, channel, opts);
  const base = baseWhere(address.host, address.port, deadline.timeoutMs);
  const ip = await resolveHost(address.host, deadline, base, opts.networks);
  // The system's password belongs to the system's host: a camera's own rtsp:// address elsewhere gets none.
  const credentials = sameHost(address.host, system.host) ? credentialsOf(system) : null;
  const described = await rtspDescribe(
    { host: address.host, address: ip, port: address.port, path: address.path },
    credentials,
    deadline,
    base,
  );
  return { address, facts: readSdp(described.sdp) };
}

export async function streamInfo(
  system: CameraSystemConnection,
  channel: number,
  opts: CameraCallOptions,
): Promise<StreamInfo> {
  checkChannel(channel);
  return withDeadline(opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, opts.signal, async (deadline) => {
    if (system.connection_type === "onvif") {
      const session = await onvifSession(system, deadline, { info: false, profiles: true }, opts.networks);
      const profile = channelOf(session, channel, system);
      const where = { ...baseWhere(system.host, system.port, deadline.timeoutMs), step: "onvif" as const };
      const media = await session.call<{ uri?: string }>({ ...where, doing: "asking for the stream address" }, (done) =>
        session.cam.getStreamUri({ protocol: "RTSP", profileToken: profile.profileToken }, done),
      );
      if (!media?.uri) throw new CameraError("bad_answer", "onvif", "The device gave no stream address.");
      return {
        stream_url: deviceAddress(String(media.uri), system, 554).toString(),
        resolution: resolution(profile.width, profile.height),
        fps: profile.fps,
      };
    }
    const { address, facts } = await probeStream(system, channel, deadline, opts);
    return { stream_url: address.url, resolution: resolution(facts.width, facts.height), fps: facts.fps };
  });
}

/** One picture of the channel, with its size when the JPEG says. */
export async function snapshotPicture(
  system: CameraSystemConnection,
  channel: number,
  opts: CameraCallOptions,
): Promise<Picture> {
  checkChannel(channel);
  const maxBytes = opts.maxSnapshotBytes ?? DEFAULT_MAX_SNAPSHOT_BYTES;
  return withDeadline(opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, opts.signal, async (deadline) => {
    let target = pictureTarget(system, channel, opts);
    if (system.connection_type === "onvif") {
      const session = await onvifSession(system, deadline, { info: false, profiles: true }, opts.networks);
      const profile = channelOf(session, channel, system);
      const where = { ...baseWhere(system.host, system.port, deadline.timeoutMs), step: "onvif" as const };
      const media = await session.call<{ uri?: string }>(
        { ...where, doing: "asking for the picture address" },
        (done) => session.cam.getSnapshotUri({ profileToken: profile.profileToken }, done),
      );
      if (!media?.uri) throw new CameraError("bad_answer", "onvif", "The device gave no picture address.");
      const url = deviceAddress(String(media.uri), system, 80);
      if (url.protocol !== "http:" && url.protocol !== "https:") {
        throw new CameraError("bad_answer", "onvif", "The device's picture address is not an http:// address.");
      }
      target = {
        secure: url.protocol === "https:",
        host: url.hostname.replace(/^\[(.*)\]$/, "$1"),
        // A URL drops its scheme's own port (http://cam:80/ is http://cam/).
        port: Number(url.port) || (url.protocol === "https:" ? 443 : 80),
        path: `${url.pathname}${url.search}`,
      };
    }
    const base = baseWhere(target.host, target.port, deadline.timeoutMs);
    const address = await resolveHost(target.host, deadline, base, opts.networks);
    return fetchPicture({ ...target, address }, credentialsOf(system), deadline, base, maxBytes);
  });
}

/** The JPEG bytes of one picture of the channel. */
export async function snapshot(
  system: CameraSystemConnection,
  channel: number,
  opts: CameraCallOptions,
): Promise<Buffer> {
  return (await snapshotPicture(system, channel, opts)).jpeg;
}
