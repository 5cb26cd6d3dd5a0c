import { randomBytes } from "node:crypto";
import net from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { channelOfPath } from "../../../../../tools/camera-simulator/brands.ts";
import { Channel, defaultChannels } from "../../../../../tools/camera-simulator/channels.ts";
import { durationMs } from "../../../../../tools/camera-simulator/onvif-ptz.ts";
import { type CameraSimulator, startCameraSimulator } from "../../../../../tools/camera-simulator/simulator.ts";
import { passwordDigest } from "../../../../../tools/camera-simulator/ws-security.ts";
import { SIM_PASSWORD, startSimulator } from "../../test/camera-simulator.ts";

/** The simulator's own rules, which the client tests lean on. */

let sim: CameraSimulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());
afterEach(async () => {
  await sim.configure({ fault: "none", password: SIM_PASSWORD });
});

const PASSWORD_DIGEST =
  "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordDigest";

function token(o: { created: Date; password?: string; nonce?: Buffer; type?: string }) {
  const nonce = o.nonce ?? randomBytes(16);
  const created = o.created.toISOString();
  const digest = passwordDigest(nonce, created, o.password ?? SIM_PASSWORD);
  return (
    `<Security xmlns="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd">` +
    `<UsernameToken><Username>admin</Username><Password Type="${o.type ?? PASSWORD_DIGEST}">${digest}</Password>` +
    `<Nonce>${nonce.toString("base64")}</Nonce><Created>${created}</Created></UsernameToken></Security>`
  );
}

async function soap(path: string, body: string, header = "") {
  const res = await fetch(`${sim.httpUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/soap+xml; charset=utf-8" },
    body: `<s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope"><s:Header>${header}</s:Header><s:Body>${body}</s:Body></s:Envelope>`,
  });
  return { status: res.status, xml: await res.text() };
}
const profiles = '<GetProfiles xmlns="http://www.onvif.org/ver10/media/wsdl"/>';

describe("WS-Security on the ONVIF side", () => {
  it("tells its time to anyone, and wants a token for everything else (400 ter:NotAuthorized)", async () => {
    const time = await soap(
      "/onvif/device_service",
      '<GetSystemDateAndTime xmlns="http://www.onvif.org/ver10/device/wsdl"/>',
    );
    expect(time.status).toBe(200);
    expect(time.xml).toContain("<tt:UTCDateTime>");
    const unsigned = await soap("/onvif/media_service", profiles);
    expect(unsigned.status).toBe(400);
    expect(unsigned.xml).toContain("<env:Value>ter:NotAuthorized</env:Value>");
    expect((await soap("/onvif/media_service", profiles, token({ created: new Date() }))).status).toBe(200);
  });

  it("refuses a wrong password, a plain-text password and a nonce used twice", async () => {
    const before = sim.refusals();
    expect((await soap("/onvif/media_service", profiles, token({ created: new Date(), password: "x" }))).status).toBe(
      400,
    );
    const plain = token({ created: new Date(), type: "…#PasswordText" });
    expect((await soap("/onvif/media_service", profiles, plain)).status).toBe(400);
    const nonce = randomBytes(16);
    expect((await soap("/onvif/media_service", profiles, token({ created: new Date(), nonce }))).status).toBe(200);
    expect((await soap("/onvif/media_service", profiles, token({ created: new Date(), nonce }))).status).toBe(400);
    const after = sim.refusals();
    expect([
      after.password - before.password,
      after.malformed - before.malformed,
      after.replay - before.replay,
    ]).toEqual([1, 1, 1]);
  });

  it("with a clock 2 h ahead, refuses tokens dated by the client's clock and takes ones dated by its own", async () => {
    await sim.setFault("wrong_clock");
    const refused = await soap("/onvif/media_service", profiles, token({ created: new Date() }));
    expect(refused.status).toBe(400);
    expect(refused.xml).toContain("time check failed");
    const deviceTime = new Date(Date.now() + 2 * 60 * 60_000);
    expect((await soap("/onvif/media_service", profiles, token({ created: deviceTime }))).status).toBe(200);
  });

  it("answers 404 for a path that is no service, and ActionNotSupported for an operation of another service", async () => {
    expect((await soap("/onvif/nothing", profiles, token({ created: new Date() }))).status).toBe(404);
    const wrong = await soap("/onvif/ptz_service", profiles, token({ created: new Date() }));
    expect(wrong.xml).toContain("ter:ActionNotSupported");
  });
});

describe("PTZ motion", () => {
  const ptzSpec = () => defaultChannels(1)[0]!;

  it("moves with the velocity, stops at the edge, and keeps an axis the command leaves out", () => {
    const c = new Channel(1, ptzSpec());
    c.continuousMove({ x: 0.5, y: -0.25 }, null, 0);
    expect(c.position(1000)).toEqual({ pan: 0.5, tilt: -0.25, zoom: 0 });
    c.continuousMove({ zoom: 1 }, null, 1000);
    expect(c.position(2000)).toEqual({ pan: 1, tilt: -0.5, zoom: 0.5 });
    expect(c.position(10_000)).toEqual({ pan: 1, tilt: -1, zoom: 1 });
  });

  it("stops at a Stop, at a zero velocity, and at the move's Timeout", () => {
    const c = new Channel(1, ptzSpec());
    c.continuousMove({ x: 1, y: 0 }, 500, 0);
    expect(c.position(2000).pan).toBeCloseTo(0.5);
    c.continuousMove({ x: -1, y: 1 }, null, 2000);
    c.continuousMove({ x: 0 }, null, 2200);
    expect(c.position(3000)).toMatchObject({ pan: expect.closeTo(0.3), tilt: expect.closeTo(1) });
    c.stop(true, true, 3000);
    expect(c.moving(3000)).toEqual({ panTilt: false, zoom: false });
  });

  it("reads ONVIF timeouts", () => {
    expect(durationMs("PT2S")).toBe(2000);
    expect(durationMs("PT0.5S")).toBe(500);
    expect(durationMs("PT1M30S")).toBe(90_000);
    expect(durationMs("2 seconds")).toBeNull();
  });
});

describe("paths and RTSP", () => {
  it("matches brand paths, extra parameters allowed, a missing channel parameter meaning channel 1", () => {
    const dahua = "/cgi-bin/snapshot.cgi?channel={channel}";
    expect(channelOfPath(dahua, "/cgi-bin/snapshot.cgi?channel=3", 4)).toBe(3);
    expect(channelOfPath(dahua, "/cgi-bin/snapshot.cgi", 4)).toBe(1);
    expect(channelOfPath(dahua, "/cgi-bin/snapshot.cgi?channel=5", 4)).toBeNull();
    expect(
      channelOfPath("/axis-media/media.amp?camera={channel}", "/axis-media/media.amp?resolution=640x480&camera=2", 4),
    ).toBe(2);
    expect(channelOfPath("/Streaming/Channels/{channel}01", "/Streaming/Channels/102", 4)).toBeNull();
  });

  function rtsp(request: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(sim.rtspPort, "127.0.0.1", () => socket.write(request));
      let text = "";
      socket.on("data", (d) => {
        text += d;
        if (text.includes("\r\n\r\n")) socket.end();
      });
      socket.on("close", () => resolve(text));
      socket.on("error", reject);
    });
  }

  it("answers OPTIONS without credentials and DESCRIBE only with them", async () => {
    const url = `rtsp://127.0.0.1:${sim.rtspPort}/Streaming/Channels/101`;
    const options = await rtsp(`OPTIONS ${url} RTSP/1.0\r\nCSeq: 7\r\n\r\n`);
    expect(options).toMatch(/^RTSP\/1\.0 200 OK\r\nCSeq: 7\r\n/);
    expect(options).toContain("Public: OPTIONS, DESCRIBE");
    const describe = await rtsp(`DESCRIBE ${url} RTSP/1.0\r\nCSeq: 8\r\n\r\n`);
    expect(describe).toMatch(/^RTSP\/1\.0 401 Unauthorized/);
    expect(describe).toMatch(/WWW-Authenticate: Digest realm="Camera Simulator", nonce="[\w-]+"/);
  });

  it("answers a request that is not RTSP with 400 and closes", async () => {
    expect(await rtsp("GET / HTTP/1.1\r\nHost: x\r\n\r\n")).toMatch(/^RTSP\/1\.0 400 Bad Request/);
  });

  it("stops listening when refusing and listens again on the same ports after", async () => {
    await sim.setFault("refuse");
    await expect(rtsp(`OPTIONS * RTSP/1.0\r\nCSeq: 1\r\n\r\n`)).rejects.toMatchObject({ code: "ECONNREFUSED" });
    await sim.setFault("none");
    expect(await rtsp(`OPTIONS * RTSP/1.0\r\nCSeq: 1\r\n\r\n`)).toMatch(/^RTSP\/1\.0 200/);
  });
});

describe("control API", () => {
  it("takes faults and settings over loopback, checks them, and never shows the password", async () => {
    const own = await startCameraSimulator({ password: "Hidden-1234567" });
    try {
      const url = own.controlUrl!;
      const post = (body: unknown) => fetch(url, { method: "POST", body: JSON.stringify(body) });
      expect((await post({ fault: "melt" })).status).toBe(400);
      expect((await post({ delay_ms: -1 })).status).toBe(400);
      const changed = await post({ fault: "slow", delay_ms: 1234, brand: "axis", password: "New-password-99" });
      expect(changed.status).toBe(200);
      expect(await changed.json()).toMatchObject({ fault: "slow", delay_ms: 1234, brand: "axis" });
      expect(own.password).toBe("New-password-99");
      const summary = await (await fetch(url)).text();
      expect(summary).not.toContain("New-password-99");
      expect(summary).toContain('"stream_path":"/axis-media/media.amp?camera=1"');
    } finally {
      await own.close();
    }
  });

  it("shows a JPEG put on a channel instead of the drawn picture, until it is taken away", async () => {
    const own = await startCameraSimulator({ password: "Hidden-1234567", httpAuth: "basic" });
    try {
      const picture = `${own.controlUrl}/channels/2/picture`;
      const basic = `Basic ${Buffer.from(`${own.user}:Hidden-1234567`).toString("base64")}`;
      const take = async (channel: number) =>
        Buffer.from(
          await (
            await fetch(`${own.httpUrl}/ISAPI/Streaming/channels/${channel}01/picture`, {
              headers: { authorization: basic },
            })
          ).arrayBuffer(),
        );
      const drawn = await take(2);
      const face = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(64), Buffer.from([0xff, 0xd9])]);
      expect((await fetch(picture, { method: "PUT", body: "not a jpeg" })).status).toBe(400);
      expect((await fetch(`${own.controlUrl}/channels/9/picture`, { method: "PUT", body: face })).status).toBe(404);
      const put = await fetch(picture, { method: "PUT", body: face });
      expect([put.status, await put.json()]).toEqual([200, { channel: 2, picture: "shown" }]);
      expect((await take(2)).equals(face)).toBe(true);
      expect((await take(1)).equals(face)).toBe(false);
      const summary = (await (await fetch(own.controlUrl as string)).json()) as { channels: { picture: string }[] };
      expect(summary.channels.map((c) => c.picture)).toEqual(["drawn", "shown", "drawn", "drawn"]);
      expect((await fetch(picture, { method: "DELETE" })).status).toBe(200);
      const again = await take(2);
      expect(again.equals(face)).toBe(false);
      expect(again.subarray(0, 3).equals(drawn.subarray(0, 3))).toBe(true);
      const tooBig = Buffer.concat([face, Buffer.alloc(5 * 1024 * 1024)]);
      expect((await fetch(picture, { method: "PUT", body: tooBig })).status).toBe(400);
    } finally {
      await own.close();
    }
  });
});
