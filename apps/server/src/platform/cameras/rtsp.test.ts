import { connectionTestSchema } from "@glide/contracts";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { BRAND_PATHS, BRANDS } from "../../../../../tools/camera-simulator/brands.ts";
import type { CameraSimulator } from "../../../../../tools/camera-simulator/simulator.ts";
import { leaksPassword, reach, SIM_PASSWORD, startSimulator, systemFor } from "../../test/camera-simulator.ts";
import { challenging, startRtspListener } from "../../test/recording-listener.ts";
import { CameraError, DEFAULT_STREAM_PRESETS, streamAddressFor, streamInfo, testConnection } from "./index.ts";

let sim: CameraSimulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());
afterEach(async () => {
  await sim.configure({ fault: "none", password: SIM_PASSWORD, brand: "hikvision", sdpHints: true });
});

const rtsp = (overrides = {}) => systemFor(sim, "rtsp", overrides);

describe("RTSP connection test", () => {
  it("sends OPTIONS, then DESCRIBE with Digest, and reports the stream", async () => {
    const result = await testConnection(rtsp(), reach);
    expect(connectionTestSchema.parse(result)).toEqual(result);
    expect(result).toMatchObject({ status: "success", step: "path", device: null });
    expect(result.message).toBe("Connected: channel 1 streams H264 1920x1080 at 25 fps (/Streaming/Channels/101).");
    const url = `rtsp://127.0.0.1:${sim.rtspPort}/Streaming/Channels/101`;
    expect(sim.requests().rtsp.slice(-3)).toEqual([`OPTIONS ${url}`, `DESCRIBE ${url}`, `DESCRIBE ${url}`]);
    expect(leaksPassword(result)).toBe(false);
  });

  it("tries the channel asked for", async () => {
    const result = await testConnection(rtsp(), { ...reach, channel: 2 });
    expect(result.message).toContain("channel 2 streams H264 1280x720 at 30 fps (/Streaming/Channels/201)");
  });

  it("fails at the sign-in with a wrong password", async () => {
    const result = await testConnection(rtsp({ password: "wrong-password" }), reach);
    expect(result).toMatchObject({ status: "failed", step: "authenticate" });
    expect(result.message).toMatch(/^Wrong user name or password/);
  });

  it("says a user name and password are needed when none is set", async () => {
    const result = await testConnection(rtsp({ username: null, password: null }), reach);
    expect(result).toMatchObject({ status: "failed", step: "authenticate" });
    expect(result.message).toContain("none is set for this system");
  });

  it("says the path is wrong for another brand's path, and for a channel the device lacks", async () => {
    const other = await testConnection(rtsp({ brand: "axis" }), reach);
    expect(other).toMatchObject({ status: "failed", step: "path" });
    expect(other.message).toContain("There is no stream at /axis-media/media.amp?camera=1");
    const missing = await testConnection(rtsp(), { ...reach, channel: 5 });
    expect(missing.message).toContain("There is no stream at /Streaming/Channels/501");
  });

  it("says the connection was refused when the camera is down", async () => {
    await sim.setFault("refuse");
    const result = await testConnection(rtsp(), reach);
    expect(result).toMatchObject({ status: "failed", step: "connect" });
    expect(result.message).toContain(`127.0.0.1:${sim.rtspPort} refused the connection`);
  });

  it("gives up on a slow camera within the limit, at the step it had reached", async () => {
    await sim.setFault("slow", { delayMs: 2000 });
    const result = await testConnection(rtsp(), { ...reach, timeoutMs: 600 });
    expect(result).toMatchObject({ status: "failed", step: "connect" });
    expect(result.message).toMatch(/within 0\.6 s while asking for the RTSP methods/);
    expect(result.duration_ms).toBeLessThan(1000);
  });

  it("waits for a slow camera that answers within the limit", async () => {
    await sim.setFault("slow", { delayMs: 200 });
    const result = await testConnection(rtsp(), { ...reach, timeoutMs: 3000 });
    expect(result.status).toBe("success");
    expect(result.duration_ms).toBeGreaterThanOrEqual(600);
  });

  it("says it is not RTSP when the port is the web port", async () => {
    const result = await testConnection(rtsp({ port: sim.httpPort }), reach);
    expect(result).toMatchObject({ status: "failed", step: "connect" });
    expect(result.message).toContain("answers, but not in RTSP");
  });
});

describe("stream info over RTSP", () => {
  it("gives the brand preset's address without credentials, with size and rate from the SDP", async () => {
    const info = await streamInfo(rtsp(), 3, reach);
    expect(info).toEqual({
      stream_url: `rtsp://127.0.0.1:${sim.rtspPort}/Streaming/Channels/301`,
      resolution: "2560x1440",
      fps: 20,
    });
    expect(leaksPassword(info)).toBe(false);
  });

  it("reads size and rate from the SPS when the SDP does not state them", async () => {
    await sim.configure({ sdpHints: false });
    expect(await streamInfo(rtsp(), 2, reach)).toMatchObject({ resolution: "1280x720", fps: 30 });
    expect(await streamInfo(rtsp(), 1, reach)).toMatchObject({ resolution: "1920x1080", fps: 25 });
  });

  it("uses the camera's own path, or its own rtsp:// URL without credentials", async () => {
    const own = await streamInfo(rtsp(), 1, { ...reach, streamPath: "/Streaming/Channels/401" });
    expect(own).toMatchObject({ resolution: "1920x1080", fps: 15 });
    const standalone = await streamInfo(rtsp(), 1, {
      ...reach,
      streamPath: `rtsp://someone:secret@127.0.0.1:${sim.rtspPort}/Streaming/Channels/201`,
    });
    expect(standalone.stream_url).toBe(`rtsp://127.0.0.1:${sim.rtspPort}/Streaming/Channels/201`);
  });

  it("gives the system's password only to the system's own host, never to a camera's rtsp:// address elsewhere", async () => {
    const stranger = await startRtspListener(challenging("basic"));
    try {
      const elsewhere = streamInfo(rtsp(), 1, { ...reach, streamPath: `rtsp://localhost:${stranger.port}/live` });
      await expect(elsewhere).rejects.toMatchObject({ failure: "wrong_credentials" });
      expect(stranger.heard.map((h) => h.method)).toEqual(["OPTIONS", "DESCRIBE"]);
      expect(stranger.sawCredential()).toBe(false);
      // On the system's own host, as written, it signs in.
      const own = await streamInfo(rtsp(), 1, {
        ...reach,
        streamPath: `rtsp://127.0.0.1:${sim.rtspPort}/Streaming/Channels/101`,
      });
      expect(own.resolution).toBe("1920x1080");
    } finally {
      await stranger.close();
    }
  });

  it("throws a typed error for a wrong password and for a wrong path", async () => {
    const wrong = await streamInfo(rtsp({ password: "nope-nope" }), 1, reach).catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(CameraError);
    expect(wrong).toMatchObject({ failure: "wrong_credentials", status: 502 });
    const path = await streamInfo(rtsp({ brand: "generic" }), 1, reach).catch((e: unknown) => e);
    expect(path).toMatchObject({ failure: "wrong_path", step: "path" });
  });

  it("follows every brand's preset path, which is the path the device of that brand serves", async () => {
    for (const brand of BRANDS) {
      expect(DEFAULT_STREAM_PRESETS[brand].stream_format).toBe(BRAND_PATHS[brand].stream);
      await sim.configure({ brand });
      const info = await streamInfo(rtsp({ brand }), 2, reach);
      expect(info.resolution).toBe("1280x720");
    }
  });

  it("uses the preset's port for systems that do not connect over RTSP", () => {
    const http = systemFor(sim, "http", { brand: "dahua" });
    expect(streamAddressFor(http, 2).url).toBe("rtsp://127.0.0.1:554/cam/realmonitor?channel=2&subtype=0");
    const custom = streamAddressFor(http, 2, { streamPreset: { port: 8554, stream_format: "/live/{channel}" } });
    expect(custom.url).toBe("rtsp://127.0.0.1:8554/live/2");
  });
});
