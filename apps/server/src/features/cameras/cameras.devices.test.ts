import {
  type Camera,
  type CameraSystem,
  cameraSchema,
  connectionTestSchema,
  errorSchema,
  snapshotSchema,
  statusChangeSchema,
  streamInfoSchema,
} from "@glide/contracts";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type CameraSimulator, startCameraSimulator } from "../../../../../tools/camera-simulator/simulator.ts";
import { as, createTestContext, signIn, TEST_DATABASE_URL, type TestContext } from "../../test/harness.ts";
import { checkCameras, HEALTH_LOCK, healthRound } from "./camera-health.ts";

/**
 * The cameras API against the camera simulator, as a real ONVIF recorder
 * would be reached: connection tests, stream, snapshot, PTZ and the health
 * checker, over loopback.
 */
let ctx: TestContext;
let sim: CameraSimulator;
let platform: ReturnType<typeof as>;
let store: string;
// Not only ASCII: ONVIF digests the password as UTF-8.
const PASSWORD = "kamera-lösen-9";

beforeAll(async () => {
  sim = await startCameraSimulator({ controlPort: null, password: PASSWORD, delayMs: 8_000 });
  // The simulator is on loopback, a camera network only with DEV_TOOLS (as with npm start).
  ctx = await createTestContext({ DEV_TOOLS: "true" });
  platform = as(ctx.app, (await signIn(ctx.app)).cookie);
  store = (await platform.post("/api/v1/stores/", { name: "Kamerabutik" })).json().id;
});
afterAll(async () => {
  await ctx.close();
  await sim.close();
});
beforeEach(() => {
  sim.configure({ fault: "none", password: PASSWORD });
  sim.clearCommands();
});

async function system(body: Record<string, unknown> = {}): Promise<CameraSystem> {
  const res = await platform.post("/api/v1/cameras/systems", {
    name: "Simulerad NVR",
    connection_type: "onvif",
    host: "127.0.0.1",
    port: sim.httpPort,
    username: sim.user,
    password: PASSWORD,
    store_id: store,
    ...body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function camera(systemId: string, index: number): Promise<Camera> {
  const res = await platform.post("/api/v1/cameras/cameras", {
    name: `Kamera ${index}`,
    camera_index: index,
    camera_system_id: systemId,
  });
  expect(res.statusCode, res.body).toBe(201);
  return cameraSchema.parse(res.json());
}

const test = async (id: string) => {
  const res = await platform.post(`/api/v1/cameras/systems/${id}/test`);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.body).not.toContain(PASSWORD);
  return connectionTestSchema.parse(res.json());
};

describe("connection test, by connection type", () => {
  for (const connection_type of ["onvif", "rtsp", "http"] as const) {
    it(`${connection_type}: succeeds, then names wrong credentials and a device that is not there`, async () => {
      const port = connection_type === "rtsp" ? sim.rtspPort : sim.httpPort;
      const s = await system({ connection_type, port });
      const ok = await test(s.id);
      expect(ok.status, ok.message).toBe("success");

      const wrong = await system({ connection_type, port, password: "fel-lösen" });
      const refused = await test(wrong.id);
      expect(refused).toMatchObject({ status: "failed", step: "authenticate" });
      expect(refused.message).toMatch(/user name or password/i);

      const nowhere = await system({ connection_type, port: 1 });
      const down = await test(nowhere.id);
      expect(down).toMatchObject({ status: "failed", step: "connect" });
      expect(down.message).toMatch(/refused/i);
    });
  }

  it("a device that answers too slowly fails within the limit, saying so", async () => {
    const s = await system();
    sim.setFault("slow");
    const started = Date.now();
    const slow = await test(s.id);
    expect(Date.now() - started).toBeLessThan(6_500);
    expect(slow.status).toBe("failed");
    expect(slow.message).toMatch(/time|answer/i);
  });

  it("an RTSP system with a wrong stream path says the path is wrong", async () => {
    const s = await system({ connection_type: "rtsp", port: sim.rtspPort, brand: "axis" });
    const result = await test(s.id);
    expect(result).toMatchObject({ status: "failed", step: "path" });
  });
});

describe("stream, snapshot and PTZ through the API", () => {
  let s: CameraSystem;
  let ptzCamera: Camera;
  let fixed: Camera;
  // Made by the first test that runs rather than in beforeAll, so that a mutation run counts this
  // code as reached by that test (code run in beforeAll is reached by "no test", and its mutants then
  // run the whole group).
  beforeEach(async () => {
    if (s) return;
    s = await system({ name: "PTZ-NVR" });
    ptzCamera = await camera(s.id, 1);
    fixed = await camera(s.id, 4);
  });

  it("the stream address carries no credentials, with the camera's resolution and fps", async () => {
    const res = await platform.get(`/api/v1/cameras/cameras/${ptzCamera.id}/stream`);
    expect(res.statusCode, res.body).toBe(200);
    const info = streamInfoSchema.parse(res.json());
    expect(info.stream_url.startsWith(`rtsp://127.0.0.1:${sim.rtspPort}/`)).toBe(true);
    expect(info.stream_url).not.toContain(sim.user);
    expect(res.body).not.toContain(PASSWORD);
    const channel = sim.summary().channels[0]!;
    expect(info.resolution).toBe(`${channel.width}x${channel.height}`);
    expect(info.fps).toBe(channel.fps);
  });

  it("a snapshot is fetched by the server and served as a JPEG from our origin", async () => {
    const res = await platform.get(`/api/v1/cameras/cameras/${ptzCamera.id}/snapshot`);
    expect(res.statusCode, res.body).toBe(200);
    const { snapshot_url } = snapshotSchema.parse(res.json());
    expect(snapshot_url.startsWith("/api/v1/cameras/snapshots/")).toBe(true);
    const picture = await platform.get(snapshot_url);
    expect(picture.statusCode).toBe(200);
    expect(picture.headers["content-type"]).toBe("image/jpeg");
    expect(picture.rawPayload.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    // Signed out, nobody sees it.
    expect((await as(ctx.app, null).get(snapshot_url)).statusCode).toBe(401);
  });

  it("only the three newest pictures of a camera are kept", async () => {
    const urls: string[] = [];
    for (let i = 0; i < 4; i++)
      urls.push((await platform.get(`/api/v1/cameras/cameras/${ptzCamera.id}/snapshot`)).json().snapshot_url);
    expect((await platform.get(urls[0]!)).statusCode).toBe(404);
    for (const url of urls.slice(1)) expect((await platform.get(url)).statusCode).toBe(200);
  });

  it("a move is a ContinuousMove with the speed as velocity, then always a Stop", async () => {
    for (const [action, speed, axis, sign] of [
      ["pan_left", 50, "x", -1],
      ["pan_right", 100, "x", 1],
      ["tilt_up", 20, "y", 1],
      ["tilt_down", 1, "y", -1],
      ["zoom_in", 70, "zoom", 1],
      ["zoom_out", 70, "zoom", -1],
    ] as const) {
      sim.clearCommands();
      const res = await platform.post(`/api/v1/cameras/cameras/${ptzCamera.id}/ptz`, { action, speed });
      expect(res.statusCode, res.body).toBe(200);
      const sent = sim.commands(1);
      const move = sent.find((c) => c.op === "ContinuousMove");
      expect(move, `${action}: ${JSON.stringify(sent)}`).toBeDefined();
      const velocity = move!.velocity as Record<string, number>;
      expect(Math.sign(velocity[axis]!)).toBe(sign);
      expect(Math.abs(velocity[axis]!)).toBeCloseTo(speed / 100, 5);
      expect(sent.at(-1)?.op, action).toBe("Stop");
    }
  });

  it("presets are listed and goto_preset moves there; a preset it lacks is a 404", async () => {
    const presets = (await platform.get(`/api/v1/cameras/cameras/${ptzCamera.id}/ptz/presets`)).json();
    expect(presets.length).toBeGreaterThan(0);
    sim.clearCommands();
    const go = await platform.post(`/api/v1/cameras/cameras/${ptzCamera.id}/ptz`, {
      action: "goto_preset",
      preset: presets[0].number,
    });
    expect(go.statusCode, go.body).toBe(200);
    expect(sim.commands(1).map((c) => c.op)).toContain("GotoPreset");
    const missing = await platform.post(`/api/v1/cameras/cameras/${ptzCamera.id}/ptz`, {
      action: "goto_preset",
      preset: 999,
    });
    expect(missing.statusCode).toBe(404);
    const noNumber = await platform.post(`/api/v1/cameras/cameras/${ptzCamera.id}/ptz`, { action: "goto_preset" });
    expect(noNumber.statusCode).toBe(422);
    for (const speed of [0, 101]) {
      expect(
        (await platform.post(`/api/v1/cameras/cameras/${ptzCamera.id}/ptz`, { action: "pan_left", speed })).statusCode,
      ).toBe(422);
    }
  });

  it("a camera without PTZ answers 409 with words, not a 500, and the screen learns it", async () => {
    const res = await platform.post(`/api/v1/cameras/cameras/${fixed.id}/ptz`, { action: "pan_left", speed: 50 });
    expect(res.statusCode, res.body).toBe(409);
    expect(errorSchema.parse(res.json()).detail.length).toBeGreaterThan(10);
    const after = (await platform.get("/api/v1/cameras/cameras")).json() as Camera[];
    expect(after.find((c) => c.id === fixed.id)?.has_ptz).toBe(false);
  });

  it("a device that stops answering gives 502 with words for stream and snapshot", async () => {
    sim.setFault("refuse");
    for (const path of ["stream", "snapshot"]) {
      const res = await platform.get(`/api/v1/cameras/cameras/${ptzCamera.id}/${path}`);
      expect([502, 504], res.body).toContain(res.statusCode);
      expect(res.body).not.toContain(PASSWORD);
    }
  });
});

describe("the health checker", () => {
  it("records an outage and the recovery, per camera, with the time; PTZ is learnt", async () => {
    const s = await system({ name: "Hälsa" });
    const ptzCam = await camera(s.id, 2);
    const fixedCam = await camera(s.id, 4);
    await checkCameras(ctx.app);
    let cams = (await platform.get("/api/v1/cameras/cameras")).json() as Camera[];
    expect(cams.find((c) => c.id === ptzCam.id)).toMatchObject({ status: "online", has_ptz: true });
    expect(cams.find((c) => c.id === fixedCam.id)).toMatchObject({ status: "online", has_ptz: false });

    sim.setFault("refuse");
    await checkCameras(ctx.app);
    cams = (await platform.get("/api/v1/cameras/cameras")).json() as Camera[];
    expect(cams.find((c) => c.id === ptzCam.id)?.status).toBe("offline");
    const systems = (await platform.get("/api/v1/cameras/systems")).json() as CameraSystem[];
    expect(systems.find((x) => x.id === s.id)?.status).toBe("offline");
    const dashboard = (await platform.get("/api/v1/admin/dashboard")).json();
    expect(dashboard.cameras_offline).toBeGreaterThanOrEqual(2);

    // The same state again is not a change.
    await checkCameras(ctx.app);
    sim.setFault("none");
    await checkCameras(ctx.app);
    const history = (await platform.get(`/api/v1/cameras/cameras/${ptzCam.id}/history`)).json();
    const changes = history.map((h: unknown) => statusChangeSchema.parse(h).status);
    expect(changes).toEqual(["online", "offline", "online"]);
  });

  it("a slow camera does not hold up the others", async () => {
    const slow = await system({ name: "Långsam" });
    await camera(slow.id, 1);
    const quickSim = await startCameraSimulator({ controlPort: null, password: PASSWORD });
    try {
      const quick = await system({ name: "Snabb", port: quickSim.httpPort });
      const quickCam = await camera(quick.id, 1);
      sim.setFault("slow");
      const started = Date.now();
      await checkCameras(ctx.app);
      // Every probe has its own 5 s limit and they run at once: the round is not the sum of them.
      expect(Date.now() - started).toBeLessThan(12_000);
      const cams = (await platform.get("/api/v1/cameras/cameras")).json() as Camera[];
      expect(cams.find((c) => c.id === quickCam.id)?.status).toBe("online");
    } finally {
      sim.setFault("none");
      await quickSim.close();
    }
  });
});

describe.skipIf(!TEST_DATABASE_URL)("one instance at a time", () => {
  it("a round is skipped while another instance holds the lock, and runs once it is free", async () => {
    const other = new pg.Client({ connectionString: ctx.databaseUrl });
    await other.connect();
    try {
      await other.query("select pg_advisory_lock($1)", [HEALTH_LOCK]);
      const before = sim.requests().onvif.length;
      expect(await healthRound(ctx.app)).toBe("skipped");
      expect(sim.requests().onvif.length).toBe(before);
      await other.query("select pg_advisory_unlock($1)", [HEALTH_LOCK]);
      expect(await healthRound(ctx.app)).toBe("ran");
      expect(sim.requests().onvif.length).toBeGreaterThan(before);
    } finally {
      await other.end();
    }
  });
});
