import { randomBytes } from "node:crypto";
import type http from "node:http";
import type net from "node:net";
import { BRAND_PATHS, type Brand, fillChannel } from "./brands.ts";
import { createCameraHttpServer } from "./camera-http.ts";
import { Channel, type ChannelSpec, defaultChannels, type Position, type PtzCommand } from "./channels.ts";
import { createControlServer } from "./control.ts";
import { type AuthScheme, createHttpAuth } from "./http-auth.ts";
import { createRtspServer } from "./rtsp.ts";
import type { CameraSimulatorSettings } from "./settings.ts";
import type { Fault, SimState } from "./state.ts";
import { createTokenChecker } from "./ws-security.ts";

/**
 * One simulated camera system (an NVR or a multi-channel camera) on two
 * ports: HTTP (ONVIF device, media and PTZ services; JPEG pictures) and
 * RTSP (OPTIONS, DESCRIBE). A third, loopback-only port takes the control
 * API (control.ts). Tests start it in-process and use the methods of the
 * object it returns; `main.ts` runs it on its own.
 */

export type CameraSimulatorOptions = {
  /** Where the camera ports listen; the control port always listens on loopback. */
  host?: string;
  httpPort?: number;
  rtspPort?: number;
  /** null: no control port (in-process tests use the methods). */
  controlPort?: number | null;
  brand?: Brand;
  user?: string;
  /** Made up when not given. */
  password?: string;
  channels?: number | ChannelSpec[];
  httpAuth?: AuthScheme;
  /** How long the slow fault holds each answer. */
  delayMs?: number;
  /** How far ahead the device clock runs under the wrong_clock fault. */
  wrongClockMs?: number;
  timeNeedsAuth?: boolean;
  sdpHints?: boolean;
  /** How far WS-Security `Created` may be from the device clock. */
  tokenWindowMs?: number;
};

export async function startCameraSimulator(opts: CameraSimulatorOptions = {}) {
  const host = opts.host ?? "127.0.0.1";
  const specs = Array.isArray(opts.channels) ? opts.channels : defaultChannels(opts.channels ?? 4);
  const state: SimState = {
    brand: opts.brand ?? "hikvision",
    user: opts.user ?? "admin",
    password: opts.password ?? randomBytes(9).toString("base64url"),
    httpAuth: opts.httpAuth ?? "digest",
    fault: "none",
    delayMs: opts.delayMs ?? 3000,
    slowOnly: null,
    slowUntil: 0,
    wrongClockMs: opts.wrongClockMs ?? 2 * 60 * 60_000,
    timeNeedsAuth: opts.timeNeedsAuth ?? false,
    sdpHints: opts.sdpHints ?? true,
    channels: specs.map((spec, i) => new Channel(i + 1, structuredClone(spec))),
    shown: new Map(),
    commands: [],
    refusals: { missing: 0, malformed: 0, user: 0, password: 0, clock: 0, replay: 0 },
    requests: { onvif: [], http: [], rtsp: [] },
    httpPort: 0,
    rtspPort: 0,
  };
  const auth = createHttpAuth({ realm: "Camera Simulator" });
  const checkToken = createTokenChecker({ windowMs: opts.tokenWindowMs ?? 5 * 60_000 });
  const httpServer = createCameraHttpServer(state, auth, checkToken);
  const rtsp = createRtspServer(state, auth);

  const listen = (server: http.Server | net.Server, port: number, where = host) =>
    new Promise<number>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, where, () => {
        server.off("error", reject);
        resolve((server.address() as net.AddressInfo).port);
      });
    });
  const stop = (server: http.Server | net.Server) =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });
  async function stopCameraPorts() {
    const closing = [stop(httpServer), stop(rtsp.server)];
    httpServer.closeAllConnections();
    rtsp.dropConnections();
    await Promise.all(closing);
  }

  state.httpPort = await listen(httpServer, opts.httpPort ?? 0);
  state.rtspPort = await listen(rtsp.server, opts.rtspPort ?? 0);
  const display = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;

  async function configure(settings: CameraSimulatorSettings) {
    const wasRefusing = state.fault === "refuse";
    if (settings.delayMs !== undefined) state.delayMs = settings.delayMs;
    if (settings.slowOnly !== undefined) state.slowOnly = settings.slowOnly;
    // Setting a fault starts it afresh; slowOnly applies to that fault only.
    if (settings.fault !== undefined && settings.slowOnly === undefined) state.slowOnly = null;
    if (settings.wrongClockMs !== undefined) state.wrongClockMs = settings.wrongClockMs;
    if (settings.brand !== undefined) state.brand = settings.brand;
    if (settings.user !== undefined) state.user = settings.user;
    if (settings.password !== undefined) state.password = settings.password;
    if (settings.httpAuth !== undefined) state.httpAuth = settings.httpAuth;
    if (settings.timeNeedsAuth !== undefined) state.timeNeedsAuth = settings.timeNeedsAuth;
    if (settings.sdpHints !== undefined) state.sdpHints = settings.sdpHints;
    if (settings.fault !== undefined) state.fault = settings.fault;
    const refusing = state.fault === "refuse";
    if (refusing && !wasRefusing) await stopCameraPorts();
    if (!refusing && wasRefusing) {
      await listen(httpServer, state.httpPort);
      await listen(rtsp.server, state.rtspPort);
    }
    return summary();
  }

  function position(channel: number): Position {
    const c = state.channels[channel - 1];
    if (!c) throw new Error(`There is no channel ${channel}`);
    return c.position(Date.now());
  }

  function summary() {
    const now = Date.now();
    return {
      brand: state.brand,
      user: state.user,
      http_auth: state.httpAuth,
      fault: state.fault,
      delay_ms: state.delayMs,
      slow_only: state.slowOnly,
      wrong_clock_ms: state.wrongClockMs,
      time_needs_auth: state.timeNeedsAuth,
      sdp_hints: state.sdpHints,
      channels: state.channels.map((c) => ({
        channel: c.number,
        width: c.spec.width,
        height: c.spec.height,
        fps: c.spec.fps,
        ptz: c.spec.ptz,
        stream_path: fillChannel(BRAND_PATHS[state.brand].stream, c.number),
        snapshot_path: fillChannel(BRAND_PATHS[state.brand].snapshot, c.number),
        position: c.position(now),
        moving: c.moving(now),
        presets: c.spec.presets.map((p) => ({ token: p.token, name: p.name })),
        picture: state.shown.has(c.number) ? "shown" : "drawn",
      })),
      refusals: { ...state.refusals },
    };
  }

  let control: ReturnType<typeof createControlServer> | null = null;
  const simulator = {
    httpPort: state.httpPort,
    rtspPort: state.rtspPort,
    httpUrl: `http://${display}:${state.httpPort}`,
    rtspUrl: `rtsp://${display}:${state.rtspPort}`,
    controlUrl: null as string | null,
    get user() {
      return state.user;
    },
    get password() {
      return state.password;
    },
    configure,
    setFault: (fault: Fault, o: { delayMs?: number; slowOnly?: string[] | null } = {}) => configure({ fault, ...o }),
    summary,
    position,
    /** PTZ commands that reached the camera, oldest first (of one channel when given). */
    commands: (channel?: number): PtzCommand[] =>
      state.commands.filter((c) => channel === undefined || c.channel === channel),
    clearCommands() {
      state.commands.length = 0;
    },
    /** Requests seen: ONVIF operations, HTTP "METHOD target", RTSP "METHOD uri". */
    requests: () => ({
      onvif: [...state.requests.onvif],
      http: [...state.requests.http],
      rtsp: [...state.requests.rtsp],
    }),
    refusals: () => ({ ...state.refusals }),
    /** Shows a JPEG on a channel instead of the drawn picture (null: the drawn picture again). */
    showPicture(channel: number, jpeg: Buffer | null) {
      if (!state.channels[channel - 1]) throw new Error(`There is no channel ${channel}`);
      if (jpeg) state.shown.set(channel, jpeg);
      else state.shown.delete(channel);
    },
    async close() {
      await Promise.all([stopCameraPorts(), control ? control.close() : undefined]);
    },
  };

  if (opts.controlPort !== null) {
    control = createControlServer(simulator);
    const port = await listen(control.server, opts.controlPort ?? 0, "127.0.0.1");
    simulator.controlUrl = `http://127.0.0.1:${port}/control`;
  }
  return simulator;
}

export type CameraSimulator = Awaited<ReturnType<typeof startCameraSimulator>>;
