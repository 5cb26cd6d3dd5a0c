import { connectionTestSchema } from "@glide/contracts";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { CameraSimulator } from "../../../../../tools/camera-simulator/simulator.ts";
import { leaksPassword, reach, SIM_PASSWORD, startSimulator, systemFor } from "../../test/camera-simulator.ts";
import { CameraError, snapshotPicture, streamInfo, testConnection } from "./index.ts";
import { isJpeg } from "./picture.ts";

let sim: CameraSimulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());
afterEach(async () => {
  await sim.configure({ fault: "none", password: SIM_PASSWORD, timeNeedsAuth: false, brand: "hikvision" });
});

const onvif = (overrides = {}) => systemFor(sim, "onvif", overrides);

async function failure(call: Promise<unknown>): Promise<CameraError> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CameraError);
  expect(leaksPassword(error)).toBe(false);
  return error as CameraError;
}

describe("ONVIF connection test", () => {
  it("succeeds and says what the device is, in the contract's shape", async () => {
    const result = await testConnection(onvif(), reach);
    expect(connectionTestSchema.parse(result)).toEqual(result);
    expect(result).toMatchObject({
      status: "success",
      step: "onvif",
      device: { manufacturer: "Glide", model: "Camera Simulator 4ch", firmware: "1.4.0" },
    });
    expect(result.message).toContain("4 channels, 3 with PTZ");
    expect(result.message).not.toMatch(/clock/i);
    expect(leaksPassword(result)).toBe(false);
    expect(sim.refusals().password).toBe(0);
  });

  it("fails at the sign-in with a wrong password, and the password shows nowhere", async () => {
    const result = await testConnection(onvif({ password: "not-the-password" }), reach);
    expect(result).toMatchObject({ status: "failed", step: "authenticate", device: null });
    expect(result.message).toMatch(/wrong user name or password/i);
    expect(result.message).not.toContain("not-the-password");
  });

  it("fails at the sign-in after the camera's password was changed, and works with the new one", async () => {
    await sim.configure({ password: "Changed-on-the-camera-1" });
    expect((await testConnection(onvif(), reach)).step).toBe("authenticate");
    const result = await testConnection(onvif({ password: "Changed-on-the-camera-1" }), reach);
    expect(result.status).toBe("success");
  });

  it("asks at the device service path and the paths the device announces, never at a path the system names", async () => {
    const before = sim.requests().http.length;
    const result = await testConnection(onvif({ api_endpoint: "/control/payment_intents" }), reach);
    expect(result.status).toBe("success");
    const paths = sim.requests().http.slice(before);
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.every((p) => /^POST \/onvif\/\w+_service$/.test(p))).toBe(true);
    expect(paths).toContain("POST /onvif/device_service");
  });

  it("says 'not an ONVIF device' when pointed at the RTSP port", async () => {
    const result = await testConnection(onvif({ port: sim.rtspPort }), reach);
    expect(result).toMatchObject({ status: "failed", step: "onvif" });
    expect(result.message).toMatch(/not as an ONVIF device/);
    expect(result.duration_ms).toBeLessThan(1000);
  });

  it("says the connection was refused when the camera is down", async () => {
    await sim.setFault("refuse");
    const result = await testConnection(onvif(), reach);
    expect(result).toMatchObject({ status: "failed", step: "connect" });
    expect(result.message).toMatch(/refused the connection/);
  });

  it("says the address was not found for an unknown host name", async () => {
    const result = await testConnection(onvif({ host: "camera.invalid" }), reach);
    expect(result).toMatchObject({ status: "failed", step: "address" });
    expect(result.message).toContain('"camera.invalid" was not found');
  });

  it("gives up on a slow camera at the time limit, and names the step", async () => {
    await sim.setFault("slow", { delayMs: 3000 });
    const started = Date.now();
    const result = await testConnection(onvif(), { ...reach, timeoutMs: 700 });
    const took = Date.now() - started;
    expect(result).toMatchObject({ status: "failed", step: "clock" });
    expect(result.message).toMatch(/No answer from 127\.0\.0\.1:\d+ within 0\.7 s while reading the device's clock/);
    expect(took).toBeGreaterThanOrEqual(650);
    expect(took).toBeLessThan(1200);
    expect(result.duration_ms).toBeLessThan(1200);
  });

  it("waits for a slow camera that answers within the limit", async () => {
    await sim.setFault("slow", { delayMs: 150 });
    const result = await testConnection(onvif(), { ...reach, timeoutMs: 5000 });
    expect(result.status).toBe("success");
    expect(result.duration_ms).toBeGreaterThanOrEqual(4 * 150);
  });

  it("never hangs on a camera that reads and never answers", async () => {
    await sim.setFault("hang");
    const result = await testConnection(onvif(), { ...reach, timeoutMs: 500 });
    expect(result).toMatchObject({ status: "failed" });
    expect(result.message).toMatch(/No answer .* within 0\.5 s/);
    expect(result.duration_ms).toBeLessThan(1000);
  });

  it("corrects for a camera whose clock is 2 h ahead, and reports the skew", async () => {
    await sim.setFault("wrong_clock");
    const result = await testConnection(onvif(), reach);
    expect(result.status).toBe("success");
    expect(result.message).toMatch(/Clock skew: the camera's clock is (1 h 59 min|2 h 0 min) ahead of this server's/);
    expect(sim.refusals().clock).toBe(0);
  });

  it("reports the clock when the camera refuses the clock and will not tell its time unsigned", async () => {
    await sim.configure({ fault: "wrong_clock", timeNeedsAuth: true });
    const result = await testConnection(onvif(), reach);
    expect(result).toMatchObject({ status: "failed", step: "clock" });
    expect(result.message).toMatch(/clock differs too much/);
  });

  it("passes when the camera wants sign-in to tell its time and its clock is right", async () => {
    await sim.configure({ timeNeedsAuth: true });
    expect((await testConnection(onvif(), reach)).status).toBe("success");
  });
});

describe("ONVIF stream and picture", () => {
  it("gives the stream address from GetStreamUri without credentials, with size and rate", async () => {
    const info = await streamInfo(onvif(), 2, reach);
    expect(info).toEqual({
      stream_url: `rtsp://127.0.0.1:${sim.rtspPort}/Streaming/Channels/201`,
      resolution: "1280x720",
      fps: 30,
    });
    expect(leaksPassword(info)).toBe(false);
    expect(sim.requests().onvif).toContain("GetStreamUri");
  });

  it("follows the brand the device has (its own stream path)", async () => {
    await sim.configure({ brand: "dahua" });
    const info = await streamInfo(onvif(), 3, reach);
    expect(info.stream_url).toBe(`rtsp://127.0.0.1:${sim.rtspPort}/cam/realmonitor?channel=3&subtype=0`);
    expect(info).toMatchObject({ resolution: "2560x1440", fps: 20 });
  });

  it("uses the host the system was given, not the one the device names", async () => {
    const info = await streamInfo(onvif({ host: "localhost" }), 1, reach);
    expect(info.stream_url).toBe(`rtsp://localhost:${sim.rtspPort}/Streaming/Channels/101`);
  });

  it("fetches the picture at the address GetSnapshotUri gives, with Digest", async () => {
    const picture = await snapshotPicture(onvif(), 1, reach);
    expect(isJpeg(picture.jpeg)).toBe(true);
    expect(picture).toMatchObject({ width: 640, height: 360 });
    expect(sim.requests().http).toContain("GET /onvif/snapshot/1.jpg");
  });

  it("names the channels there are when asked for one that is not", async () => {
    const error = await failure(streamInfo(onvif(), 9, reach));
    expect(error).toMatchObject({ failure: "no_such_channel", step: "path", status: 502 });
    expect(error.message).toContain("has 4 channels; there is no channel 9");
  });

  it("fails a wrong password with a typed error, not a result", async () => {
    const error = await failure(snapshotPicture(onvif({ password: "nope-nope" }), 1, reach));
    expect(error).toMatchObject({ failure: "wrong_credentials", code: "camera_wrong_credentials" });
  });

  it("fails a camera that is down as refused, and a silent one as timed out (504)", async () => {
    await sim.setFault("refuse");
    expect(await failure(streamInfo(onvif(), 1, reach))).toMatchObject({ failure: "refused", status: 502 });
    await sim.setFault("hang");
    const error = await failure(streamInfo(onvif(), 1, { ...reach, timeoutMs: 400 }));
    expect(error).toMatchObject({ failure: "timed_out", status: 504 });
  });
});
