import type { ConnectionTest } from "@glide/contracts";
import { onvifSession, pictureTarget, probeStream } from "./camera-client.ts";
import type { CameraNetworks } from "./camera-networks.ts";
import {
  baseWhere,
  type CameraCallOptions,
  type CameraSystemConnection,
  credentialsOf,
  DEFAULT_MAX_SNAPSHOT_BYTES,
  DEFAULT_TIMEOUT_MS,
} from "./camera-system.ts";
import { type Deadline, openSocket, resolveHost, withDeadline } from "./deadline.ts";
import { CameraError, type ConnectionStep } from "./errors.ts";
import { fetchPicture } from "./picture.ts";

/**
 * "Test Connection": talks to the system the way its connection type says
 * and reports the step that failed in an operator's words, or what the
 * device said about itself. Never takes longer than `timeoutMs` (5 s): a
 * slow or silent device is a failed test, not a hung request.
 */

export type ConnectionTestOptions = CameraCallOptions & {
  /** The channel whose stream or picture is tried; 1 when not given. */
  channel?: number;
};

/** Clock differences below this are normal (the device tells its time to the second). */
export const CLOCK_SKEW_NOTE_MS = 30_000;

type Outcome = { step: ConnectionStep; message: string; device: ConnectionTest["device"] };

/** "2 h 5 min", "3 min 20 s", "45 s". */
export function describeDuration(ms: number): string {
  const s = Math.round(Math.abs(ms) / 1000);
  const [h, m, sec] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  if (h > 0) return `${h} h ${m} min`;
  if (m > 0) return sec ? `${m} min ${sec} s` : `${m} min`;
  return `${sec} s`;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The address and connect steps on their own, so that each fails in its own words; the checked address. */
async function connectFirst(host: string, port: number, deadline: Deadline, networks: CameraNetworks) {
  const base = baseWhere(host, port, deadline.timeoutMs);
  const ip = await resolveHost(host, deadline, base, networks);
  (await openSocket(ip, deadline, { ...base, step: "connect", doing: "connecting" })).destroy();
  return ip;
}

async function testOnvif(
  system: CameraSystemConnection,
  deadline: Deadline,
  opts: ConnectionTestOptions,
): Promise<Outcome> {
  await connectFirst(system.host, system.port, deadline, opts.networks);
  const session = await onvifSession(system, deadline, { info: true, profiles: true }, opts.networks);
  const info = session.info ?? {};
  const text = (v: unknown) => (v === undefined || v === null || v === "" ? null : String(v));
  const device = {
    manufacturer: text(info.manufacturer),
    model: text(info.model),
    firmware: text(info.firmwareVersion),
  };
  const name = [device.manufacturer, device.model].filter(Boolean).join(" ") || "an ONVIF device";
  const channels = session.channels.length;
  const withPtz = session.channels.filter((c) => c.ptz).length;
  let message =
    `Connected to ${name}${device.firmware ? ` (firmware ${device.firmware})` : ""}: ` +
    `${plural(channels, "channel", "channels")}, ${withPtz} with PTZ.`;
  if (Math.abs(session.clockSkewMs) >= CLOCK_SKEW_NOTE_MS) {
    const way = session.clockSkewMs > 0 ? "ahead of" : "behind";
    message +=
      ` Clock skew: the camera's clock is ${describeDuration(session.clockSkewMs)} ${way} this server's.` +
      " Requests are signed with the camera's time so they still work, but set its clock (NTP) so its recordings carry the right time.";
  }
  return { step: "onvif", message, device };
}

async function testRtsp(system: CameraSystemConnection, deadline: Deadline, opts: ConnectionTestOptions) {
  const channel = opts.channel ?? 1;
  const { address, facts } = await probeStream(system, channel, deadline, opts);
  const size = facts.width && facts.height ? ` ${facts.width}x${facts.height}` : "";
  const rate = facts.fps ? ` at ${facts.fps} fps` : "";
  const message = `Connected: channel ${channel} streams ${facts.codec ?? "video"}${size}${rate} (${address.path}).`;
  return { step: "path" as const, message, device: null };
}

async function testHttp(system: CameraSystemConnection, deadline: Deadline, opts: ConnectionTestOptions) {
  const channel = opts.channel ?? 1;
  const target = pictureTarget(system, channel, opts);
  const address = await connectFirst(target.host, target.port, deadline, opts.networks);
  const base = baseWhere(target.host, target.port, deadline.timeoutMs);
  const maxBytes = opts.maxSnapshotBytes ?? DEFAULT_MAX_SNAPSHOT_BYTES;
  const picture = await fetchPicture({ ...target, address }, credentialsOf(system), deadline, base, maxBytes);
  const size = picture.width && picture.height ? ` ${picture.width}x${picture.height}` : "";
  const kb = Math.max(1, Math.round(picture.jpeg.length / 1024));
  const message = `Connected: channel ${channel} gave a${size} JPEG picture (${kb} KB) from ${target.path}.`;
  return { step: "path" as const, message, device: null };
}

export async function testConnection(
  system: CameraSystemConnection,
  opts: ConnectionTestOptions,
): Promise<ConnectionTest> {
  const started = performance.now();
  const done = (status: "success" | "failed", o: Outcome): ConnectionTest => ({
    status,
    message: o.message,
    step: o.step,
    duration_ms: Math.round(performance.now() - started),
    device: o.device,
  });
  try {
    const outcome = await withDeadline(opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, opts.signal, (deadline) => {
      switch (system.connection_type) {
        case "onvif":
          return testOnvif(system, deadline, opts);
        case "rtsp":
          return testRtsp(system, deadline, opts);
        case "http":
          return testHttp(system, deadline, opts);
        default:
          throw new CameraError(
            "bad_answer",
            "connect",
            `Unknown connection type "${system.connection_type}"; use rtsp, http or onvif.`,
          );
      }
    });
    return done("success", outcome);
  } catch (err) {
    if (err instanceof CameraError) return done("failed", { step: err.step, message: err.message, device: null });
    return done("failed", { step: "connect", message: "The connection test could not be run.", device: null });
  }
}
