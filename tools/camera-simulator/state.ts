import type { Brand } from "./brands.ts";
import type { Channel, PtzCommand } from "./channels.ts";
import type { AuthScheme } from "./http-auth.ts";
import type { TokenRefusal } from "./ws-security.ts";

/**
 * Faults a test or a demo switches on at run time:
 * - slow: a sluggish device that handles one request at a time: each
 *   request (HTTP and RTSP; only the operations in `slowOnly` when set)
 *   waits `delayMs`, and none is handled before the one that came before it;
 * - refuse: both camera ports stop listening (connections are refused);
 * - wrong_clock: the device clock runs `wrongClockMs` ahead, so WS-Security
 *   tokens signed with the client's own clock are refused;
 * - hang: requests are read and never answered.
 */
export const FAULTS = ["none", "slow", "refuse", "wrong_clock", "hang"] as const;
export type Fault = (typeof FAULTS)[number];

export type SimState = {
  brand: Brand;
  user: string;
  password: string;
  /** How the picture URLs ask for credentials. */
  httpAuth: AuthScheme;
  fault: Fault;
  delayMs: number;
  /** ONVIF operations, RTSP methods or "GET" (pictures) the slow fault delays; null: all of them. */
  slowOnly: string[] | null;
  /** When the last request held by the slow fault is handled; later ones wait for it. */
  slowUntil: number;
  wrongClockMs: number;
  /** GetSystemDateAndTime needs a signed request too, as on some devices. */
  timeNeedsAuth: boolean;
  /** Whether the SDP carries a=framerate and a=x-dimensions besides the SPS. */
  sdpHints: boolean;
  channels: Channel[];
  /** A JPEG a channel shows instead of its drawn store wall (a face for the face check), by channel number. */
  shown: Map<number, Buffer>;
  commands: PtzCommand[];
  /** Refused WS-Security tokens by reason, for tests. */
  refusals: Record<TokenRefusal, number>;
  /** Requests that reached each side, for tests. */
  requests: { onvif: string[]; http: string[]; rtsp: string[] };
  httpPort: number;
  rtspPort: number;
};

/** The device's clock: the host's, moved when the wrong_clock fault is on. */
export const deviceNow = (state: SimState) => Date.now() + (state.fault === "wrong_clock" ? state.wrongClockMs : 0);

export const channelOf = (state: SimState, n: number) => state.channels[n - 1];

/** Appends to a log that keeps only its newest entries, so a long demo does not grow without end. */
export function remember<T>(log: T[], entry: T, keep = 500) {
  log.push(entry);
  if (log.length > keep) log.splice(0, log.length - keep);
}

/** Under the slow fault: waits until this request's turn (its own delay, and after the one before it). */
export function slowTurn(state: SimState, what: string): Promise<void> | null {
  if (state.fault !== "slow") return null;
  const own = state.slowOnly === null || state.slowOnly.includes(what) ? state.delayMs : 0;
  const at = Math.max(Date.now() + own, state.slowUntil);
  state.slowUntil = at;
  return new Promise((resolve) => setTimeout(resolve, at - Date.now()));
}
