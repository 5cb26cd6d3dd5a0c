import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { CameraSimulator } from "../../../../../tools/camera-simulator/simulator.ts";
import { leaksPassword, reach, SIM_PASSWORD, startSimulator, systemFor } from "../../test/camera-simulator.ts";
import { CameraError, PresetNotFoundError, PtzNotSupportedError, ptz, ptzPresets } from "./index.ts";
import { MOVE_SAFETY_TIMEOUT_MS } from "./ptz.ts";

let sim: CameraSimulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());
beforeEach(async () => {
  await sim.configure({ fault: "none", password: SIM_PASSWORD });
  // Every test starts from a known position: channel 1's first preset.
  await ptz(systemFor(sim, "onvif"), 1, { action: "goto_preset", preset: 1 }, reach);
  sim.clearCommands();
});

const onvif = (overrides = {}) => systemFor(sim, "onvif", overrides);

async function rejection(call: Promise<unknown>): Promise<Error> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  expect(leaksPassword(error)).toBe(false);
  return error as Error;
}

describe("moves", () => {
  const cases = [
    { action: "pan_right", speed: 50, velocity: { x: 0.5, y: 0 } },
    { action: "pan_left", speed: 50, velocity: { x: -0.5, y: 0 } },
    { action: "tilt_up", speed: 80, velocity: { x: 0, y: 0.8 } },
    { action: "tilt_down", speed: 20, velocity: { x: 0, y: -0.2 } },
    { action: "zoom_in", speed: 100, velocity: { zoom: 1 } },
    { action: "zoom_out", speed: 1, velocity: { zoom: -0.01 } },
  ] as const;

  for (const c of cases) {
    it(`${c.action} at speed ${c.speed} reaches the camera as velocity ${JSON.stringify(c.velocity)}, then a Stop`, async () => {
      await ptz(onvif(), 1, { action: c.action, speed: c.speed }, { ...reach, moveMs: 100 });
      const commands = sim.commands(1);
      expect(commands.map((x) => x.op)).toEqual(["ContinuousMove", "Stop"]);
      expect(commands[0]).toMatchObject({ velocity: c.velocity, timeoutMs: MOVE_SAFETY_TIMEOUT_MS });
      expect(commands[1]).toMatchObject({ panTilt: true, zoom: true });
      expect(commands[1]!.at - commands[0]!.at).toBeGreaterThanOrEqual(90);
    });
  }

  it("moves the camera the right way and holds it there after the Stop", async () => {
    const before = sim.position(1);
    await ptz(onvif(), 1, { action: "pan_right", speed: 100 }, { ...reach, moveMs: 300 });
    const after = sim.position(1);
    expect(after.pan - before.pan).toBeGreaterThan(0.2);
    expect(after.pan - before.pan).toBeLessThan(0.9);
    expect(after.tilt).toBeCloseTo(before.tilt, 5);
    await new Promise((r) => setTimeout(r, 150));
    expect(sim.position(1).pan).toBeCloseTo(after.pan, 5);

    await ptz(onvif(), 1, { action: "tilt_down", speed: 100 }, { ...reach, moveMs: 300 });
    expect(sim.position(1).tilt).toBeLessThan(after.tilt - 0.2);
  });

  it("takes the default speed of 50 when none is given", async () => {
    await ptz(onvif(), 2, { action: "pan_left" }, { ...reach, moveMs: 50 });
    expect(sim.commands(2)[0]).toMatchObject({ op: "ContinuousMove", velocity: { x: -0.5, y: 0 } });
  });

  it("stop sends a Stop and nothing else", async () => {
    await ptz(onvif(), 1, { action: "stop" }, reach);
    expect(sim.commands(1).map((c) => c.op)).toEqual(["Stop"]);
  });

  it("still stops the camera when the move's answer does not arrive in time", async () => {
    // A sluggish camera that takes 800 ms over the move, and handles what comes next after it.
    await sim.setFault("slow", { delayMs: 800, slowOnly: ["ContinuousMove"] });
    const error = await rejection(ptz(onvif(), 1, { action: "pan_right", speed: 40 }, { ...reach, timeoutMs: 500 }));
    expect(error).toBeInstanceOf(CameraError);
    expect((error as CameraError).failure).toBe("timed_out");
    expect(sim.commands(1)).toMatchObject([{ op: "ContinuousMove", velocity: { x: 0.4, y: 0 } }, { op: "Stop" }]);
    expect(sim.summary().channels[0]!.moving).toEqual({ panTilt: false, zoom: false });
  });
});

describe("presets", () => {
  it("numbers presets by their token when the tokens are numbers", async () => {
    expect(await ptzPresets(onvif(), 1, reach)).toEqual([
      { number: 1, name: "Entrance" },
      { number: 2, name: "Checkout" },
      { number: 3, name: "Storage door" },
    ]);
  });

  it("numbers presets 1, 2, … in token order when the tokens are names", async () => {
    expect(await ptzPresets(onvif(), 2, reach)).toEqual([
      { number: 1, name: "Aisle" },
      { number: 2, name: "Shelves" },
    ]);
  });

  it("gives an empty list for a PTZ camera without presets", async () => {
    expect(await ptzPresets(onvif(), 3, reach)).toEqual([]);
  });

  it("goes to a preset by its number", async () => {
    await ptz(onvif(), 1, { action: "goto_preset", preset: 2 }, reach);
    expect(sim.commands(1)).toMatchObject([{ op: "GotoPreset", preset: "2" }]);
    expect(sim.position(1)).toEqual({ pan: 0.4, tilt: -0.2, zoom: 0.3 });

    await ptz(onvif(), 2, { action: "goto_preset", preset: 2 }, reach);
    expect(sim.commands(2)).toMatchObject([{ op: "GotoPreset", preset: "shelves" }]);
  });

  it("refuses a preset number the camera does not have, with a 404", async () => {
    const error = await rejection(ptz(onvif(), 1, { action: "goto_preset", preset: 7 }, reach));
    expect(error).toBeInstanceOf(PresetNotFoundError);
    expect(error).toMatchObject({ status: 404, code: "preset_not_found" });
    expect(sim.commands(1)).toEqual([]);
  });
});

describe("cameras that cannot pan, tilt or zoom", () => {
  it("a fixed channel gives PtzNotSupportedError (409) for moves and presets, and reaches no PTZ service", async () => {
    const move = await rejection(ptz(onvif(), 4, { action: "pan_left", speed: 50 }, reach));
    expect(move).toBeInstanceOf(PtzNotSupportedError);
    expect(move).toMatchObject({ status: 409, code: "ptz_not_supported" });
    expect(move.message).toContain("channel 4 is a fixed camera");
    expect(await rejection(ptzPresets(onvif(), 4, reach))).toBeInstanceOf(PtzNotSupportedError);
    expect(sim.commands()).toEqual([]);
  });

  it("a system that connects over RTSP or HTTP gives PtzNotSupportedError without calling it", async () => {
    const before = sim.requests().onvif.length;
    for (const type of ["rtsp", "http"] as const) {
      const error = await rejection(ptz(systemFor(sim, type), 1, { action: "tilt_up", speed: 10 }, reach));
      expect(error).toBeInstanceOf(PtzNotSupportedError);
      expect(error.message).toContain(`connects over ${type.toUpperCase()}`);
    }
    expect(sim.requests().onvif.length).toBe(before);
  });

  it("a wrong password is a camera error, not a PTZ one", async () => {
    const error = await rejection(ptz(onvif({ password: "wrong-one" }), 1, { action: "pan_left" }, reach));
    expect(error).toBeInstanceOf(CameraError);
    expect((error as CameraError).failure).toBe("wrong_credentials");
    expect(sim.commands()).toEqual([]);
  });
});
