import { RESOLUTIONS } from "@glide/contracts";
import jpeg from "jpeg-js";
import { describe, expect, it } from "vitest";
import { describeSdp, levelFor, sequenceParameterSet } from "../../../../../tools/camera-simulator/h264.ts";
import { createHttpAuth } from "../../../../../tools/camera-simulator/http-auth.ts";
import { authorization, parseChallenges, pickChallenge } from "./auth-header.ts";
import type { CameraSystemConnection } from "./camera-system.ts";
import { deviceAddress } from "./camera-system.ts";
import { describeDuration } from "./connection-test.ts";
import { networkFailure, type Where } from "./errors.ts";
import { parseSps } from "./h264-sps.ts";
import { channelsOf } from "./onvif-session.ts";
import { jpegSize } from "./picture.ts";
import { readSdp } from "./sdp.ts";

/** Bits for hand-made parameter sets (the other side of what the simulator writes). */
function bits(fields: [number, number | "ue"][]): Buffer {
  const out: number[] = [];
  const u = (n: number, v: number) => {
    for (let i = n - 1; i >= 0; i--) out.push(Math.floor(v / 2 ** i) % 2);
  };
  for (const [v, how] of fields) {
    if (how === "ue") {
      const len = Math.floor(Math.log2(v + 1));
      u(len, 0);
      u(len + 1, v + 1);
    } else u(how, v);
  }
  out.push(1);
  while (out.length % 8) out.push(0);
  return Buffer.from(
    Array.from({ length: out.length / 8 }, (_, i) => Number.parseInt(out.slice(i * 8, i * 8 + 8).join(""), 2)),
  );
}

describe("H.264 SPS", () => {
  for (const resolution of RESOLUTIONS) {
    for (const fps of [15, 25, 30, 60]) {
      it(`reads back ${resolution} at ${fps} fps from the SPS the simulator writes`, () => {
        const [width, height] = resolution.split("x").map(Number) as [number, number];
        const sps = parseSps(sequenceParameterSet(width, height, fps));
        expect(sps).toEqual({ profile: 100, level: levelFor(width, height, fps), width, height, fps });
      });
    }
  }

  it("skips the emulation prevention bytes a real SPS carries", () => {
    const nal = sequenceParameterSet(1920, 1080, 25);
    expect(nal.includes(Buffer.from([0, 0, 3]))).toBe(true);
    expect(parseSps(nal)).toMatchObject({ width: 1920, height: 1080 });
  });

  it("reads a Baseline SPS of an interlaced 720x576 stream, without timing", () => {
    // profile 66 has no chroma fields; frame_mbs_only_flag 0 doubles the map units; no VUI.
    const rbsp = bits([
      [66, 8],
      [0xc0, 8],
      [30, 8],
      [0, "ue"],
      [0, "ue"],
      [0, "ue"],
      [0, "ue"],
      [1, "ue"],
      [0, 1],
      [44, "ue"],
      [17, "ue"],
      [0, 1],
      [1, 1],
      [1, 1],
      [0, 1],
      [0, 1],
    ]);
    const sps = parseSps(Buffer.concat([Buffer.from([0x67]), rbsp]));
    expect(sps).toEqual({ profile: 66, level: 30, width: 720, height: 576, fps: null });
  });

  it("refuses what is not an SPS", () => {
    expect(() => parseSps(Buffer.from([0x68, 0xee, 0x3c, 0x80]))).toThrow(/Not an SPS/);
    expect(() => parseSps(Buffer.from([0x67, 0x64]))).toThrow();
  });
});

describe("SDP", () => {
  const sdp = (hints: boolean) =>
    describeSdp({ channel: 1, width: 1280, height: 720, fps: 30, serverAddress: "127.0.0.1", hints });

  it("takes size and rate from a=x-dimensions and a=framerate", () => {
    const text = sdp(true).replace("a=x-dimensions:1280,720", "a=x-dimensions:1920,1080");
    expect(readSdp(text)).toEqual({ codec: "H264", width: 1920, height: 1080, fps: 30 });
  });

  it("falls back to the SPS when they are missing", () => {
    expect(sdp(false)).not.toContain("a=framerate");
    expect(readSdp(sdp(false))).toEqual({ codec: "H264", width: 1280, height: 720, fps: 30 });
  });

  it("reads other codecs' names and leaves what it cannot know empty", () => {
    const h265 = "v=0\r\na=framerate:12.5\r\nm=video 0 RTP/AVP 97\r\na=rtpmap:97 H265/90000\r\n";
    expect(readSdp(h265)).toEqual({ codec: "H265", width: null, height: null, fps: 12.5 });
    expect(readSdp("v=0\r\nm=audio 0 RTP/AVP 0\r\n")).toEqual({ codec: null, width: null, height: null, fps: null });
  });
});

describe("authentication headers", () => {
  it("splits several challenges, quoted commas included, and picks the strongest it can answer", () => {
    const challenges = parseChallenges([
      'Basic realm="Cam, front"',
      'Digest realm="Cam", nonce="a,b", qop="auth,auth-int", algorithm=MD5, Digest realm="Cam", nonce="c", algorithm=SHA-256',
    ]);
    expect(challenges.map((c) => [c.scheme, c.params.algorithm ?? null])).toEqual([
      ["basic", null],
      ["digest", "MD5"],
      ["digest", "SHA-256"],
    ]);
    expect(challenges[0]!.params.realm).toBe("Cam, front");
    expect(challenges[1]!.params.nonce).toBe("a,b");
    expect(pickChallenge(challenges)?.params.algorithm).toBe("SHA-256");
    expect(pickChallenge(challenges.slice(0, 2))?.params.algorithm).toBe("MD5");
    expect(pickChallenge(challenges.slice(0, 1))?.scheme).toBe("basic");
    expect(pickChallenge(parseChallenges(['Digest realm="x", nonce="n", algorithm=SHA-512-256']))).toBeNull();
  });

  for (const qop of [true, false]) {
    it(`answers a Digest challenge ${qop ? "with" : "without"} qop as the device checks it`, () => {
      const device = createHttpAuth({ realm: "Camera Simulator" });
      const [challenge] = parseChallenges([device.challenge("digest", { qop })]);
      const req = { method: qop ? "GET" : "DESCRIBE", uri: qop ? "/a?b=1" : "rtsp://h:554/a" };
      const good = authorization(challenge!, { username: "admin", password: "right" }, req);
      const bad = authorization(challenge!, { username: "admin", password: "wrong" }, req);
      const creds = { user: "admin", password: "right" };
      expect(device.check(good, req, creds, { scheme: "digest", qop })).toBe("ok");
      expect(device.check(bad, req, creds, { scheme: "digest", qop })).toBe("wrong");
      expect(device.check(good, { ...req, uri: "/other" }, creds, { scheme: "digest", qop })).toBe("wrong");
      expect(good).not.toContain("right");
    });
  }
});

describe("small rules", () => {
  it("reads a JPEG's size from its frame header", () => {
    const image = jpeg.encode({ data: Buffer.alloc(33 * 17 * 4, 200), width: 33, height: 17 }, 50).data;
    expect(jpegSize(image)).toEqual({ width: 33, height: 17 });
    expect(jpegSize(Buffer.from("not a jpeg at all"))).toBeNull();
  });

  it("words durations for the clock note", () => {
    expect(describeDuration(7_200_000)).toBe("2 h 0 min");
    expect(describeDuration(-200_000)).toBe("3 min 20 s");
    expect(describeDuration(45_400)).toBe("45 s");
  });

  it("takes one channel per video source, the first profile of each", () => {
    const profile = (token: string, source: string, width: number, ptz: boolean) => ({
      $: { token },
      videoSourceConfiguration: { sourceToken: source },
      videoEncoderConfiguration: { resolution: { width, height: 100 }, rateControl: { frameRateLimit: 25 } },
      ...(ptz ? { PTZConfiguration: {} } : {}),
    });
    const channels = channelsOf([
      profile("main1", "src1", 1920, true),
      profile("sub1", "src1", 640, true),
      profile("main2", "src2", 1280, false),
    ]);
    expect(channels).toEqual([
      { profileToken: "main1", width: 1920, height: 100, fps: 25, ptz: true },
      { profileToken: "main2", width: 1280, height: 100, fps: 25, ptz: false },
    ]);
  });

  it("drops credentials from an address a device gives and keeps the configured host", () => {
    const system = { host: "cam.example", port: 80 } as CameraSystemConnection;
    expect(deviceAddress("rtsp://u:p@192.168.0.9/Streaming/Channels/101", system, 554).toString()).toBe(
      "rtsp://cam.example:554/Streaming/Channels/101",
    );
    expect(deviceAddress("http://192.168.0.9:8080/snap.jpg?x=1", system, 80).toString()).toBe(
      "http://cam.example:8080/snap.jpg?x=1",
    );
  });

  it("words socket errors by what they mean for the operator", () => {
    const w: Where = { host: "10.0.0.5", port: 554, step: "path", doing: "reading", timeoutMs: 5000 };
    const failure = (code: string) => networkFailure({ code }, w);
    expect(failure("ENOTFOUND")).toMatchObject({ failure: "address_not_found", step: "address" });
    expect(failure("ECONNREFUSED")).toMatchObject({ failure: "refused", step: "connect" });
    expect(failure("EHOSTUNREACH")).toMatchObject({ failure: "unreachable", step: "connect" });
    expect(failure("ETIMEDOUT")).toMatchObject({ failure: "timed_out", step: "path", status: 504 });
    expect(failure("ECONNRESET")).toMatchObject({ failure: "connection_lost", step: "path" });
  });
});
