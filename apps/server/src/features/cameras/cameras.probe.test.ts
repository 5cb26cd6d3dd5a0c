import {
  type Camera,
  type CameraSystem,
  cameraSchema,
  cameraSystemSchema,
  connectionTestSchema,
  errorSchema,
} from "@glide/contracts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type CameraSimulator, startCameraSimulator } from "../../../../../tools/camera-simulator/simulator.ts";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";

/**
 * What the camera screen needs of a save and of Test Connection, against the
 * camera simulator: a saved system or camera is probed at once (not at the
 * next health round), a camera carries what its device reports beside what is
 * configured, and Test Connection tries the settings as typed, under the
 * rules of saving them.
 */
let ctx: TestContext;
let sim: CameraSimulator;
let platform: ReturnType<typeof as>;
let storeAdmin: ReturnType<typeof as>;
let mine: string;
let theirs: string;
const PASSWORD = "kamera-lösen-7";

beforeAll(async () => {
  sim = await startCameraSimulator({ controlPort: null, password: PASSWORD });
  // The simulator is on loopback, a camera network only with DEV_TOOLS (as with npm start).
  ctx = await createTestContext({ DEV_TOOLS: "true" });
  platform = as(ctx.app, (await signIn(ctx.app)).cookie);
  mine = (await platform.post("/api/v1/stores/", { name: "Provbutiken" })).json().id;
  theirs = (await platform.post("/api/v1/stores/", { name: "Grannen" })).json().id;
  storeAdmin = as(ctx.app, (await signIn(ctx.app, "store_admin", [mine])).cookie);
});
afterAll(async () => {
  await ctx.close();
  await sim.close();
});
beforeEach(() => sim.configure({ fault: "none", password: PASSWORD }));

const onvif = () => ({
  connection_type: "onvif",
  brand: "hikvision",
  host: "127.0.0.1",
  port: sim.httpPort,
  username: sim.user,
  password: PASSWORD,
  store_id: mine,
});

async function addSystem(body: Record<string, unknown> = {}, who = platform): Promise<CameraSystem> {
  const res = await who.post("/api/v1/cameras/systems", { name: "Prov-NVR", ...onvif(), ...body });
  expect(res.statusCode, res.body).toBe(201);
  return cameraSystemSchema.parse(res.json());
}

async function listed<T extends { id: string }>(path: string, id: string): Promise<T | undefined> {
  return ((await platform.get(path)).json() as T[]).find((row) => row.id === id);
}
const systemNow = (id: string) => listed<CameraSystem>("/api/v1/cameras/systems", id);
const cameraNow = async (id: string) => cameraSchema.parse(await listed<Camera>("/api/v1/cameras/cameras", id));

const typedTest = (body: Record<string, unknown>, who = platform) => who.post("/api/v1/cameras/systems/test", body);

describe("a save is probed at once", () => {
  it("a system saved with a wrong password is offline; saved with the right one it is online, with no round between", async () => {
    // Saved as "offline" by the form: only a probe makes it anything else.
    const system = await addSystem({ password: "fel-lösen", status: "offline" });
    await ctx.app.cameraHealth.idle();
    const wrong = await systemNow(system.id);
    expect(wrong?.status).toBe("offline");
    expect(wrong?.last_checked_at).not.toBeNull();

    const fixed = await platform.put(`/api/v1/cameras/systems/${system.id}`, { password: PASSWORD, status: "offline" });
    expect(fixed.statusCode, fixed.body).toBe(200);
    await ctx.app.cameraHealth.idle();
    expect((await systemNow(system.id))?.status).toBe("online");
  });

  it("a camera carries what its device reports beside what is configured, from the probe after its save", async () => {
    const system = await addSystem();
    // The simulator's channel 2 streams 1280x720 at 30 fps; the camera is configured otherwise.
    const created = await platform.post("/api/v1/cameras/cameras", {
      name: "Kanal 2",
      camera_system_id: system.id,
      camera_index: 2,
      resolution: "1920x1080",
      fps: 25,
    });
    expect(created.statusCode, created.body).toBe(201);
    const camera = cameraSchema.parse(created.json());
    expect(camera).toMatchObject({ reported_resolution: null, reported_fps: null });
    await ctx.app.cameraHealth.idle();
    expect(await cameraNow(camera.id)).toMatchObject({
      status: "online",
      resolution: "1920x1080",
      fps: 25,
      reported_resolution: "1280x720",
      reported_fps: 30,
    });

    // Moved to channel 1 (1920x1080 at 25 fps): the update is probed too, and now they agree.
    const moved = await platform.put(`/api/v1/cameras/cameras/${camera.id}`, { camera_index: 1 });
    expect(moved.statusCode, moved.body).toBe(200);
    await ctx.app.cameraHealth.idle();
    expect(await cameraNow(camera.id)).toMatchObject({ reported_resolution: "1920x1080", reported_fps: 25 });

    // A system that no longer answers: its cameras are offline and report nothing.
    const broken = await platform.put(`/api/v1/cameras/systems/${system.id}`, { password: "fel-lösen" });
    expect(broken.statusCode, broken.body).toBe(200);
    await ctx.app.cameraHealth.idle();
    expect(await cameraNow(camera.id)).toMatchObject({
      status: "offline",
      reported_resolution: null,
      reported_fps: null,
    });
  });

  it("a camera of an RTSP system reports what its stream description says", async () => {
    const system = await addSystem({ connection_type: "rtsp", port: sim.rtspPort });
    // The simulator's channel 3 streams 2560x1440 at 20 fps.
    const created = await platform.post("/api/v1/cameras/cameras", {
      name: "Kanal 3",
      camera_system_id: system.id,
      camera_index: 3,
    });
    expect(created.statusCode, created.body).toBe(201);
    await ctx.app.cameraHealth.idle();
    expect(await cameraNow((created.json() as Camera).id)).toMatchObject({
      status: "online",
      reported_resolution: "2560x1440",
      reported_fps: 20,
    });
  });
});

describe("Test Connection on the typed settings", () => {
  it("tries what is typed, not what is saved, and stores nothing", async () => {
    const system = await addSystem({ password: "fel-lösen" });
    await ctx.app.cameraHealth.idle();
    expect((await systemNow(system.id))?.status).toBe("offline");

    // The right password typed, not saved: the test passes, the system stays as saved.
    const res = await typedTest({ ...onvif(), system_id: system.id });
    expect(res.statusCode, res.body).toBe(200);
    const ok = connectionTestSchema.parse(res.json());
    expect(ok.status, ok.message).toBe("success");
    expect(ok.message).toMatch(/channels/);
    expect((await systemNow(system.id))?.status).toBe("offline");

    // A new system, never saved, is tested just as well.
    const fresh = connectionTestSchema.parse((await typedTest(onvif())).json());
    expect(fresh.status).toBe("success");
  });

  it("a wrong port fails with a clear message", async () => {
    const res = await typedTest({ ...onvif(), port: 1 });
    expect(res.statusCode, res.body).toBe(200);
    const failed = connectionTestSchema.parse(res.json());
    expect(failed).toMatchObject({ status: "failed", step: "connect" });
    expect(failed.message).toMatch(/127\.0\.0\.1:1/);
    expect(failed.message).toMatch(/refused/i);
  });

  it("an empty password uses the stored one only where it was stored for, and never answers it", async () => {
    const system = await addSystem();
    // Same address and user: the stored password signs in.
    const kept = await typedTest({ ...onvif(), password: "", system_id: system.id });
    expect(kept.body).not.toContain(PASSWORD);
    expect(connectionTestSchema.parse(kept.json()).status).toBe("success");

    // Another user, or another connection type and port: the stored password does not go along.
    const otherUser = connectionTestSchema.parse(
      (await typedTest({ ...onvif(), username: "operator", password: "", system_id: system.id })).json(),
    );
    expect(otherUser.status).toBe("failed");
    const rtsp = await typedTest({
      ...onvif(),
      connection_type: "rtsp",
      port: sim.rtspPort,
      password: "",
      system_id: system.id,
    });
    expect(rtsp.body).not.toContain(PASSWORD);
    const refused = connectionTestSchema.parse(rtsp.json());
    expect(refused).toMatchObject({ status: "failed", step: "authenticate" });
    expect(refused.message).toMatch(/none is set/);
    // The same move with the password typed again works.
    const typed = connectionTestSchema.parse(
      (await typedTest({ ...onvif(), connection_type: "rtsp", port: sim.rtspPort, system_id: system.id })).json(),
    );
    expect(typed.status, typed.message).toBe("success");
  });

  it("a store admin tests in their own stores only, and never another store's stored password", async () => {
    const own = await addSystem({}, storeAdmin);
    const foreign = await addSystem({ store_id: theirs });
    const allowed = connectionTestSchema.parse((await typedTest({ ...onvif(), system_id: own.id }, storeAdmin)).json());
    expect(allowed.status).toBe("success");

    const forbidden = async (body: Record<string, unknown>) => {
      const res = await typedTest(body, storeAdmin);
      expect(res.statusCode, res.body).toBe(403);
      expect(errorSchema.parse(res.json()).detail).toBe("You do not manage this store");
    };
    await forbidden({ ...onvif(), store_id: theirs });
    // Their own store, but another store's system: its stored password is not theirs to use.
    await forbidden({ ...onvif(), password: "", system_id: foreign.id });
    expect((await as(ctx.app, null).post("/api/v1/cameras/systems/test", onvif())).statusCode).toBe(401);
  });

  it("bad input is refused with its detail, under the same address rules as a save", async () => {
    const refused = async (body: Record<string, unknown>, status: number, detail: RegExp) => {
      const res = await typedTest(body);
      expect(res.statusCode, res.body).toBe(status);
      expect(errorSchema.parse(res.json()).detail).toMatch(detail);
    };
    await refused({ ...onvif(), host: "http://127.0.0.1/" }, 422, /host name or an IP address/);
    await refused({ ...onvif(), port: 70000 }, 422, /Port must be a whole number/);
    await refused({ ...onvif(), store_id: "" }, 422, /Store is required/);
    await refused({ ...onvif(), connection_type: "ftp" }, 422, /connection_type/);
    await refused({ ...onvif(), system_id: "nej" }, 422, /valid id/);
    // Link-local is never a camera network, whatever CAMERA_NETWORKS says: refused as a save would be.
    await refused({ ...onvif(), host: "169.254.1.1" }, 422, /169\.254\.1\.1/);
    const missing = await typedTest({ ...onvif(), system_id: "00000000-0000-4000-8000-000000000000" });
    expect(missing.statusCode, missing.body).toBe(404);
  });
});
