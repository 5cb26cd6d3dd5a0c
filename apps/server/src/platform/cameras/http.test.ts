import http from "node:http";
import type { AddressInfo } from "node:net";
import { connectionTestSchema } from "@glide/contracts";
import jpeg from "jpeg-js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { CameraSimulator } from "../../../../../tools/camera-simulator/simulator.ts";
import { leaksPassword, reach, SIM_PASSWORD, startSimulator, systemFor } from "../../test/camera-simulator.ts";
import { CameraError, ptz, snapshot, snapshotPicture, testConnection } from "./index.ts";
import { isJpeg, jpegSize } from "./picture.ts";

let sim: CameraSimulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());
afterEach(async () => {
  await sim.configure({ fault: "none", password: SIM_PASSWORD, brand: "hikvision", httpAuth: "digest" });
});

const web = (overrides = {}) => systemFor(sim, "http", overrides);

/** A web server on loopback that answers every GET with the given answer, for what no camera should send. */
async function withServer(answer: (res: http.ServerResponse) => void, run: (port: number) => Promise<void>) {
  const server = http.createServer((_req, res) => answer(res));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  try {
    await run((server.address() as AddressInfo).port);
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}

describe("HTTP connection test", () => {
  it("fetches channel 1's picture at the brand's path with Digest", async () => {
    const result = await testConnection(web(), reach);
    expect(connectionTestSchema.parse(result)).toEqual(result);
    expect(result).toMatchObject({ status: "success", step: "path", device: null });
    expect(result.message).toMatch(
      /^Connected: channel 1 gave a 640x360 JPEG picture \(\d+ KB\) from \/ISAPI\/Streaming\/channels\/101\/picture\.$/,
    );
    expect(sim.requests().http.slice(-2)).toEqual([
      "GET /ISAPI/Streaming/channels/101/picture",
      "GET /ISAPI/Streaming/channels/101/picture",
    ]);
    expect(leaksPassword(result)).toBe(false);
  });

  it("signs in with Basic when the camera asks for Basic", async () => {
    await sim.configure({ httpAuth: "basic" });
    expect((await testConnection(web(), reach)).status).toBe("success");
  });

  it("fails at the sign-in with a wrong password, with Digest and with Basic", async () => {
    for (const httpAuth of ["digest", "basic"] as const) {
      await sim.configure({ httpAuth });
      const result = await testConnection(web({ password: "wrong-password-1" }), reach);
      expect(result).toMatchObject({ status: "failed", step: "authenticate" });
      expect(result.message).toMatch(/^Wrong user name or password/);
    }
  });

  it("says the path is wrong for another brand, and takes the system's own picture path", async () => {
    const result = await testConnection(web({ brand: "dahua" }), reach);
    expect(result).toMatchObject({ status: "failed", step: "path" });
    expect(result.message).toContain("There is no picture at /cgi-bin/snapshot.cgi?channel=1");
    const own = await testConnection(web({ brand: "dahua", api_endpoint: "/snapshot/{channel}.jpg" }), {
      ...reach,
      channel: 2,
    });
    expect(own).toMatchObject({ status: "failed", step: "path" });
    await sim.configure({ brand: "generic" });
    const generic = await testConnection(web({ api_endpoint: "/snapshot/{channel}.jpg" }), { ...reach, channel: 2 });
    expect(generic.status).toBe("success");
  });

  it("says the connection was refused when the camera is down", async () => {
    await sim.setFault("refuse");
    const result = await testConnection(web(), reach);
    expect(result).toMatchObject({ status: "failed", step: "connect" });
    expect(result.message).toMatch(/refused the connection/);
  });

  it("gives up on a slow camera at the limit, and waits for one within it", async () => {
    await sim.setFault("slow", { delayMs: 2000 });
    const slow = await testConnection(web(), { ...reach, timeoutMs: 500 });
    expect(slow).toMatchObject({ status: "failed", step: "path" });
    expect(slow.message).toMatch(/within 0\.5 s while fetching the picture/);
    expect(slow.duration_ms).toBeLessThan(900);
    await sim.setFault("slow", { delayMs: 100 });
    expect((await testConnection(web(), { ...reach, timeoutMs: 3000 })).status).toBe("success");
  });
});

describe("pictures", () => {
  it("are JPEG bytes of the channel, showing where the camera points", async () => {
    const bytes = await snapshot(web(), 2, reach);
    expect(isJpeg(bytes)).toBe(true);
    const image = jpeg.decode(bytes, { useTArray: true });
    expect([image.width, image.height]).toEqual([640, 360]);
    expect(jpegSize(bytes)).toEqual({ width: 640, height: 360 });
    expect(leaksPassword(bytes.toString("latin1"))).toBe(false);
  });

  it("change when the camera moves", async () => {
    const onvif = systemFor(sim, "onvif");
    await ptz(onvif, 1, { action: "goto_preset", preset: 1 }, reach);
    const before = await snapshot(web(), 1, reach);
    await ptz(onvif, 1, { action: "goto_preset", preset: 3 }, reach);
    const after = await snapshot(web(), 1, reach);
    expect(after.equals(before)).toBe(false);
  });

  it("refuse a picture larger than the limit without keeping it", async () => {
    const error = await snapshotPicture(web(), 1, { ...reach, maxSnapshotBytes: 4096 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CameraError);
    expect(error).toMatchObject({ failure: "bad_answer", step: "path" });
    expect((error as Error).message).toContain("more than 4 KB");
  });

  it("refuse an answer that is not a JPEG, whatever it says it is", async () => {
    await withServer(
      (res) => res.writeHead(200, { "content-type": "text/html" }).end("<html>login</html>"),
      async (port) => {
        const error = await snapshot(web({ port }), 1, reach).catch((e: unknown) => e);
        expect(error).toMatchObject({ failure: "bad_answer" });
        expect((error as Error).message).toContain("did not send a JPEG picture");
        // What the other side said it sent is not repeated: the test is no probe of other services.
        expect((error as Error).message).not.toContain("text/html");
      },
    );
    await withServer(
      (res) => res.writeHead(200, { "content-type": "image/jpeg" }).end("not really a picture"),
      async (port) => {
        const error = await snapshot(web({ port }), 1, reach).catch((e: unknown) => e);
        expect(error).toMatchObject({ failure: "bad_answer" });
      },
    );
  });

  it("never send Basic credentials unasked", async () => {
    const seen: (string | undefined)[] = [];
    await withServer(
      (res) => {
        seen.push(res.req.headers.authorization);
        res.writeHead(404).end();
      },
      async (port) => {
        await snapshot(web({ port }), 1, reach).catch(() => undefined);
      },
    );
    expect(seen).toEqual([undefined]);
  });
});
