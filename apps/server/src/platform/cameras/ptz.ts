import type { PtzAction } from "@glide/contracts";
import { onvifSession } from "./camera-client.ts";
import { baseWhere, type CameraCallOptions, type CameraSystemConnection, DEFAULT_TIMEOUT_MS } from "./camera-system.ts";
import { withDeadline } from "./deadline.ts";
import { CameraError, PresetNotFoundError, PtzNotSupportedError, type Where } from "./errors.ts";
import { channelOf, type OnvifChannel, type OnvifSession } from "./onvif-session.ts";

/**
 * Pan, tilt and zoom through ONVIF. A move is a ContinuousMove at a velocity
 * of speed/100 (positive is right, up and in), held for a short moment and
 * always ended by an explicit Stop: some cameras ignore the move's Timeout,
 * which is still sent so that a camera that honours it stops on its own if
 * the Stop never arrives. Presets are numbered for the console: by their
 * token when every token is a number (as most devices give them), otherwise
 * 1, 2, … in token order.
 */

export type PtzRequest = { action: PtzAction; speed?: number; preset?: number };
export type PtzOptions = CameraCallOptions & {
  /** How long a move runs before its Stop; 400 ms when not given. */
  moveMs?: number;
};
export type PtzPreset = { number: number; name: string; token: string };

export const DEFAULT_MOVE_MS = 400;
/** The move's own Timeout, for cameras that honour it: the stop that comes anyway if ours is lost. */
export const MOVE_SAFETY_TIMEOUT_MS = 2000;

const VELOCITY: Record<string, { x?: number; y?: number; zoom?: number }> = {
  pan_left: { x: -1, y: 0 },
  pan_right: { x: 1, y: 0 },
  tilt_up: { x: 0, y: 1 },
  tilt_down: { x: 0, y: -1 },
  zoom_in: { zoom: 1 },
  zoom_out: { zoom: -1 },
};

/** The channel's PTZ profile, or PtzNotSupportedError. */
async function ptzChannel(
  system: CameraSystemConnection,
  channel: number,
  session: OnvifSession,
): Promise<OnvifChannel> {
  const profile = channelOf(session, channel, system);
  if (!profile.ptz || !session.cam.uri?.ptz) {
    throw new PtzNotSupportedError(`Camera channel ${channel} is a fixed camera: it cannot pan, tilt or zoom.`);
  }
  return profile;
}

function requireOnvif(system: CameraSystemConnection) {
  if (system.connection_type !== "onvif") {
    throw new PtzNotSupportedError(
      `Pan, tilt and zoom need an ONVIF connection; this camera's system connects over ${system.connection_type.toUpperCase()}.`,
    );
  }
}

async function presetsOf(session: OnvifSession, profile: OnvifChannel, where: Where): Promise<PtzPreset[]> {
  await session.call(where, (done) => session.cam.getPresets({ profileToken: profile.profileToken }, done));
  const found = Object.values(session.cam.presets ?? {}) as unknown as { $?: { token?: unknown }; name?: unknown }[];
  const presets = found
    .map((p) => ({ token: String(p.$?.token ?? ""), name: p.name === undefined ? "" : String(p.name) }))
    .filter((p) => p.token !== "");
  const numbered = presets.every((p) => /^[1-9]\d{0,5}$/.test(p.token));
  const sorted = presets.sort((a, b) => a.token.localeCompare(b.token, "en", { numeric: true }));
  return sorted.map((p, i) => {
    const number = numbered ? Number(p.token) : i + 1;
    return { number, name: p.name || `Preset ${number}`, token: p.token };
  });
}

export async function ptzPresets(
  system: CameraSystemConnection,
  channel: number,
  opts: CameraCallOptions,
): Promise<{ number: number; name: string }[]> {
  requireOnvif(system);
  return withDeadline(opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, opts.signal, async (deadline) => {
    const session = await onvifSession(system, deadline, { info: false, profiles: true }, opts.networks);
    const profile = await ptzChannel(system, channel, session);
    const where: Where = {
      ...baseWhere(system.host, system.port, deadline.timeoutMs),
      step: "onvif",
      doing: "reading the presets",
    };
    return (await presetsOf(session, profile, where)).map(({ number, name }) => ({ number, name }));
  });
}

export async function ptz(
  system: CameraSystemConnection,
  channel: number,
  request: PtzRequest,
  opts: PtzOptions,
): Promise<void> {
  requireOnvif(system);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return withDeadline(timeoutMs, opts.signal, async (deadline) => {
    const session = await onvifSession(system, deadline, { info: false, profiles: true }, opts.networks);
    const profile = await ptzChannel(system, channel, session);
    const base = baseWhere(system.host, system.port, timeoutMs);
    const profileToken = profile.profileToken;
    const stop = () =>
      session.call({ ...base, step: "onvif", doing: "stopping the camera (Stop)" }, (done) =>
        session.cam.stop({ profileToken, panTilt: true, zoom: true }, done),
      );

    if (request.action === "stop") {
      await stop();
      return;
    }
    if (request.action === "goto_preset") {
      const where: Where = { ...base, step: "onvif", doing: "reading the presets" };
      const presets = await presetsOf(session, profile, where);
      const preset = presets.find((p) => p.number === request.preset);
      if (!preset) {
        throw new PresetNotFoundError(`Camera channel ${channel} has no preset ${request.preset ?? ""}`.trim());
      }
      await session.call({ ...base, step: "onvif", doing: "going to the preset" }, (done) =>
        session.cam.gotoPreset({ profileToken, preset: preset.token }, done),
      );
      return;
    }

    const direction = VELOCITY[request.action];
    if (!direction) throw new CameraError("bad_answer", "onvif", `Unknown PTZ action ${request.action}.`);
    const speed = Math.min(100, Math.max(1, Math.round(request.speed ?? 50))) / 100;
    const zooming = direction.zoom !== undefined;
    const move = {
      profileToken,
      ...(zooming ? { zoom: direction.zoom! * speed, onlySendZoom: true } : {}),
      ...(!zooming ? { x: direction.x! * speed, y: direction.y! * speed, onlySendPanTilt: true } : {}),
      timeout: MOVE_SAFETY_TIMEOUT_MS,
    };
    try {
      await session.call({ ...base, step: "onvif", doing: "moving the camera (ContinuousMove)" }, (done) =>
        session.cam.continuousMove(move, done),
      );
      await deadline.sleep(opts.moveMs ?? DEFAULT_MOVE_MS, { ...base, step: "onvif", doing: "moving the camera" });
    } catch (err) {
      // The move may have reached the camera even if its answer did not reach us: stop it all the same.
      if (err instanceof CameraError && ["timed_out", "connection_lost", "bad_answer"].includes(err.failure)) {
        await withDeadline(Math.max(timeoutMs, DEFAULT_TIMEOUT_MS), undefined, async (own) => {
          const again = await onvifSession(system, own, { info: false, profiles: false }, opts.networks);
          await again.call({ ...base, step: "onvif", doing: "stopping the camera (Stop)" }, (done) =>
            again.cam.stop({ profileToken, panTilt: true, zoom: true }, done),
          );
        }).catch(() => undefined);
      }
      throw err;
    }
    await stop();
  });
}
