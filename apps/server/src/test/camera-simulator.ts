import {
  type CameraSimulator,
  type CameraSimulatorOptions,
  startCameraSimulator,
} from "../../../../tools/camera-simulator/simulator.ts";
import { CameraNetworks } from "../platform/cameras/camera-networks.ts";
import type { CameraSystemConnection } from "../platform/cameras/camera-system.ts";

/**
 * For the tests of the camera clients: a camera simulator started in-process, and
 * the connection data of a system that points at it. The password is long
 * and unusual, so a test can look for it in anything we return.
 */

export const SIM_PASSWORD = "Pw-9f2c81d7e4Secret";

/** The simulator runs on loopback, which cameras may reach only when allowed, as DEV_TOOLS does. */
export const reach = { networks: new CameraNetworks(["127.0.0.0/8", "::1/128"]) };

/** A camera simulator in-process, with our password and no control port; `opts` override. */
export async function startSimulator(opts: CameraSimulatorOptions = {}): Promise<CameraSimulator> {
  return startCameraSimulator({ password: SIM_PASSWORD, controlPort: null, delayMs: 3000, ...opts });
}

/** The connection data of a camera system that points at `sim`, by the connection type given. */
export function systemFor(
  sim: CameraSimulator,
  connection_type: "onvif" | "rtsp" | "http",
  overrides: Partial<CameraSystemConnection> = {},
): CameraSystemConnection {
  return {
    connection_type,
    brand: "hikvision",
    host: "127.0.0.1",
    port: connection_type === "rtsp" ? sim.rtspPort : sim.httpPort,
    username: sim.user,
    password: SIM_PASSWORD,
    api_endpoint: null,
    ...overrides,
  };
}

/** Whether the password shows anywhere in a value (a result, an error's message or fields). */
export function leaksPassword(value: unknown): boolean {
  const text =
    value instanceof Error
      ? JSON.stringify({ ...value, message: value.message, stack: value.stack })
      : JSON.stringify(value ?? null);
  return text.includes(SIM_PASSWORD);
}
