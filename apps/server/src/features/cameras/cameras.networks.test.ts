import { type ConnectionTest, connectionTestSchema, errorSchema, statusChangeSchema } from "@glide/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cameraSystems, cameras } from "../../db/schema/index.ts";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";
import {
  type Answer,
  type Heard,
  type Listener,
  onvifAnswer,
  startHttpListener,
  startRtspListener,
} from "../../test/recording-listener.ts";
import { checkCameras } from "./camera-health.ts";

/**
 * Camera addresses are checked: when they are saved (422 naming the field),
 * when the connection test runs and when the health checker probes, where a
 * host name is looked up and every address it leads to must be allowed. What
 * answers elsewhere is not repeated in any message.
 */

type Api = ReturnType<typeof as>;
type Setup = { ctx: TestContext; api: Api; store: string };

async function setup(env: Record<string, string>): Promise<Setup> {
  const ctx = await createTestContext(env);
  const api = as(ctx.app, (await signIn(ctx.app)).cookie);
  const store = (await api.post("/api/v1/stores/", { name: "Adressbutiken" })).json().id as string;
  return { ctx, api, store };
}

let plain: Setup;
let dev: Setup;
let wide: Setup;
let listener: Listener;
beforeAll(async () => {
  plain = await setup({});
  dev = await setup({ DEV_TOOLS: "true" });
  wide = await setup({ CAMERA_NETWORKS: "0.0.0.0/0,::/0" });
  listener = await startHttpListener(() => ({ status: 404 }));
});
afterAll(async () => {
  await Promise.all([plain.ctx.close(), dev.ctx.close(), wide.ctx.close()]);
  await listener.close();
});

type Reply = { statusCode: number; body: string; json(): unknown };
const addSystem = (s: Setup, body: Record<string, unknown>) =>
  s.api.post("/api/v1/cameras/systems", { name: "NVR", port: 80, store_id: s.store, ...body });

/** The refusal of a field, its status and words. */
function refusal(res: Reply) {
  const err = errorSchema.parse(res.json());
  return { status: res.statusCode, path: err.errors?.[0]?.path, message: err.errors?.[0]?.message };
}

async function hostsRefused(s: Setup, hosts: string[]) {
  const refused: Record<string, string | undefined> = {};
  for (const host of hosts) {
    const res = await addSystem(s, { host });
    const r = res.statusCode === 201 ? { status: 201 } : refusal(res);
    refused[host] = r.status === 422 && "path" in r ? r.path : String(r.status);
  }
  return refused;
}

describe("saving an address", () => {
  it("by default refuses loopback, link-local, multicast, unspecified and what is outside the private ranges", async () => {
    const refused = ["127.0.0.1", "localhost", "127.1", "::1", "[::1]", "::ffff:127.0.0.1", "0.0.0.0", "::"];
    const never = ["169.254.169.254", "fe80::1", "224.0.0.1", "11.0.0.1", "172.32.0.0"];
    expect(await hostsRefused(plain, [...refused, ...never])).toEqual(
      Object.fromEntries([...refused, ...never].map((h) => [h, "host"])),
    );
    // The private ranges to their edge, and host names (checked when they are looked up).
    expect(await hostsRefused(plain, ["10.0.0.1", "172.31.255.255", "fd00::1", "kamera.invalid"])).toEqual({
      "10.0.0.1": "201",
      "172.31.255.255": "201",
      "fd00::1": "201",
      "kamera.invalid": "201",
    });
  });

  it("says why, beside the field", async () => {
    expect(refusal(await addSystem(plain, { host: "127.0.0.1" }))).toEqual({
      status: 422,
      path: "host",
      message:
        "127.0.0.1 is this server itself (loopback), where cameras may be only with DEV_TOOLS=true or a loopback CAMERA_NETWORKS",
    });
    expect(refusal(await addSystem(plain, { host: "169.254.169.254" })).message).toBe(
      "169.254.169.254 is a link-local address, which is never a camera's",
    );
    expect(refusal(await addSystem(plain, { host: "11.0.0.1" })).message).toBe(
      "11.0.0.1 is outside the networks cameras may be on (CAMERA_NETWORKS)",
    );
    // An edit is held to the same rule, and changes nothing when refused.
    const system = (await addSystem(plain, { host: "10.0.0.2" })).json() as { id: string };
    const edit = await plain.api.put(`/api/v1/cameras/systems/${system.id}`, { host: "0.0.0.0" });
    expect(refusal(edit)).toMatchObject({ status: 422, path: "host" });
    const [row] = await plain.ctx.app.db.select().from(cameraSystems).where(eq(cameraSystems.id, system.id));
    expect(row?.host).toBe("10.0.0.2");
  });

  it("holds a camera's own rtsp:// address to the same rule", async () => {
    const camera = (stream_url: string) =>
      plain.api.post("/api/v1/cameras/cameras", { name: "Fristående", store_id: plain.store, stream_url });
    for (const url of ["rtsp://127.0.0.1/live", "rtsp://localhost:554/live", "rtsp://[fe80::1]/live"]) {
      expect(refusal(await camera(url)), url).toMatchObject({ status: 422, path: "stream_url" });
    }
    const ok = await camera("rtsp://10.0.0.9:554/live");
    expect(ok.statusCode, ok.body).toBe(201);
    const moved = await plain.api.put(`/api/v1/cameras/cameras/${(ok.json() as { id: string }).id}`, {
      stream_url: "rtsp://224.0.0.1/live",
    });
    expect(refusal(moved)).toMatchObject({ status: 422, path: "stream_url" });
  });

  it("with DEV_TOOLS takes loopback, for the camera simulator, and still never link-local", async () => {
    expect(await hostsRefused(dev, ["127.0.0.1", "::1", "localhost", "169.254.0.1", "fe80::1", "0.0.0.0"])).toEqual({
      "127.0.0.1": "201",
      "::1": "201",
      localhost: "201",
      "169.254.0.1": "host",
      "fe80::1": "host",
      "0.0.0.0": "host",
    });
  });

  it("with CAMERA_NETWORKS=0.0.0.0/0 takes any address but link-local, multicast, unspecified and loopback", async () => {
    expect(
      await hostsRefused(wide, ["169.254.169.254", "fe80::1", "224.0.0.1", "0.0.0.0", "::", "127.0.0.1", "192.0.2.10"]),
    ).toEqual({
      "169.254.169.254": "host",
      "fe80::1": "host",
      "224.0.0.1": "host",
      "0.0.0.0": "host",
      "::": "host",
      "127.0.0.1": "host",
      "192.0.2.10": "201",
    });
  });
});

describe("connecting", () => {
  /** A system as it may be stored from before the rule, or whose name now leads elsewhere. */
  async function storedAt(host: string, connection_type: "http" | "onvif" | "rtsp" = "http") {
    const [row] = await plain.ctx.app.db
      .insert(cameraSystems)
      .values({
        name: `Gammal ${host}`,
        type: "nvr",
        brand: "generic",
        status: "online",
        connectionType: connection_type,
        host,
        port: listener.port,
        username: "admin",
        passwordSealed: plain.ctx.app.cameraSealer.seal("Gammalt-lösen-1"),
        storeId: plain.store,
      })
      .returning();
    return row!;
  }

  const test = async (s: Setup, id: string): Promise<ConnectionTest> => {
    const res = await s.api.post(`/api/v1/cameras/systems/${id}/test`);
    expect(res.statusCode, res.body).toBe(200);
    return connectionTestSchema.parse(res.json());
  };

  it("a host name that leads to a forbidden address is refused by the test and the health checker, and never reached", async () => {
    const named = await storedAt("localhost");
    for (const type of ["http", "onvif", "rtsp"] as const) {
      const s = await storedAt("localhost", type);
      expect(await test(plain, s.id), type).toMatchObject({
        status: "failed",
        step: "address",
        message:
          'The host name "localhost" leads to an address cameras may not be reached at (CAMERA_NETWORKS). Use the camera\'s own address.',
      });
    }
    const literal = await storedAt("127.0.0.1");
    expect((await test(plain, literal.id)).message).toMatch(/^127\.0\.0\.1 is this server itself \(loopback\)/);

    // A standalone camera whose own address leads there.
    const [standalone] = await plain.ctx.app.db
      .insert(cameras)
      .values({
        name: "Gammal kamera",
        locationZone: "entrance",
        resolution: "1920x1080",
        fps: 30,
        streamUrl: `rtsp://localhost:${listener.port}/live`,
        storeId: plain.store,
      })
      .returning();
    await checkCameras(plain.ctx.app);
    const [system] = await plain.ctx.app.db.select().from(cameraSystems).where(eq(cameraSystems.id, named.id));
    expect(system?.status).toBe("offline");
    const history = await plain.api.get(`/api/v1/cameras/cameras/${standalone!.id}/history`);
    expect(statusChangeSchema.array().parse(history.json())[0]).toMatchObject({
      status: "offline",
      message: expect.stringContaining('The host name "localhost" leads to an address cameras may not be reached at'),
    });
    expect(listener.connections).toBe(0);
  });

  it("names the step that failed without repeating what answered there", async () => {
    const banner = { server: "Betalnings-API/2.1", "x-powered-by": "Hemlig-tjänst" };
    const json = (): Answer => ({
      status: 200,
      headers: { ...banner, "content-type": "application/json" },
      body: '{"object":"payment_intent"}',
    });
    const failing = (): Answer => ({ status: 500, headers: { ...banner, "content-type": "text/html" } });
    const secretFault = (heard: Heard): Answer =>
      /GetSystemDateAndTime/.test(heard.body)
        ? onvifAnswer(heard)
        : { status: 500, headers: banner, body: onvifFault("Hemlig felorsak från tjänsten") };
    const services = await Promise.all([
      startHttpListener(json),
      startHttpListener(failing),
      startHttpListener(secretFault),
      startRtspListener(failing),
    ]);
    try {
      const [jsonAt, failingAt, onvifAt, rtspAt] = services;
      const endpoint = "/control/payment_intents";
      const results = [];
      for (const [listenerAt, connection_type] of [
        [jsonAt!, "http"],
        [failingAt!, "http"],
        [onvifAt!, "onvif"],
        [rtspAt!, "rtsp"],
      ] as const) {
        const res = await addSystem(dev, {
          connection_type,
          host: "127.0.0.1",
          port: listenerAt.port,
          api_endpoint: endpoint,
        });
        expect(res.statusCode, res.body).toBe(201);
        results.push(await test(dev, (res.json() as { id: string }).id));
      }
      expect(results.map((r) => [r.status, r.step])).toEqual([
        ["failed", "path"],
        ["failed", "path"],
        ["failed", "onvif"],
        ["failed", "path"],
      ]);
      for (const r of results) {
        for (const told of ["application/json", "text/html", endpoint, "payment", "Betalnings", "Hemlig"]) {
          expect(r.message, r.message).not.toContain(told);
        }
        expect(r.message).not.toMatch(/\b500\b/);
      }
      // ONVIF goes to the device service path only, never to the path the system names.
      expect(new Set(onvifAt!.heard.map((h) => `${h.method} ${h.target}`))).toEqual(
        new Set(["POST /onvif/device_service"]),
      );
    } finally {
      await Promise.all(services.map((s) => s.close()));
    }
  });
});

function onvifFault(reason: string): string {
  return (
    '<?xml version="1.0"?><env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope"><env:Body>' +
    `<env:Fault><env:Code><env:Value>env:Receiver</env:Value></env:Code><env:Reason><env:Text xml:lang="sv">${reason}</env:Text></env:Reason></env:Fault>` +
    "</env:Body></env:Envelope>"
  );
}
