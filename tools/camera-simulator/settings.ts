import type { Brand } from "./brands.ts";
import type { AuthScheme } from "./http-auth.ts";
import type { Fault } from "./state.ts";

/**
 * What can be changed while the simulator runs: what `configure` takes
 * (simulator.ts) and what the control API's POST /control reads (control.ts).
 * Its own module, so neither of those two imports the other for it.
 */
export type CameraSimulatorSettings = {
  fault?: Fault;
  delayMs?: number;
  /** ONVIF operations, RTSP methods or "GET" the slow fault delays; null (the default) for all. */
  slowOnly?: string[] | null;
  wrongClockMs?: number;
  brand?: Brand;
  user?: string;
  password?: string;
  httpAuth?: AuthScheme;
  timeNeedsAuth?: boolean;
  sdpHints?: boolean;
};
