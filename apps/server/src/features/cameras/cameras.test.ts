import { type Camera, type CameraSystem, cameraSchema, cameraSystemSchema, errorSchema } from "@glide/contracts";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";

let ctx: TestContext;
let platform: ReturnType<typeof as>;
let storeAdmin: ReturnType<typeof as>;
let mine: string;
let theirs: string;

beforeAll(async () => {
  // Loopback, where nothing listens on port 1, is a camera network only with DEV_TOOLS.
  ctx = await createTestContext({ DEV_TOOLS: "true" });
  platform = as(ctx.app, (await signIn(ctx.app)).cookie);
  mine = (await platform.post("/api/v1/stores/", { name: "Kamerabutiken" })).json().id;
  theirs = (await platform.post("/api/v1/stores/", { name: "Grannbutiken" })).json().id;
  storeAdmin = as(ctx.app, (await signIn(ctx.app, "store_admin", [mine])).cookie);
});
afterAll(() => ctx.close());

const SECRET = "hemligt-lösen-123";

async function addSystem(body: Record<string, unknown> = {}, who = platform): Promise<CameraSystem> {
  const res = await who.post("/api/v1/cameras/systems", {
    name: "NVR entré",
    host: "127.0.0.1",
    port: 1,
    username: "admin",
    password: SECRET,
    store_id: mine,
    ...body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return cameraSystemSchema.parse(res.json());
}

async function addCamera(body: Record<string, unknown>, who = platform): Promise<Camera> {
  const res = await who.post("/api/v1/cameras/cameras", { name: "Kamera 1", ...body });
  expect(res.statusCode, res.body).toBe(201);
  return cameraSchema.parse(res.json());
}

async function expectError(res: { statusCode: number; body: string; json(): unknown }, status: number) {
  expect(res.statusCode, res.body).toBe(status);
  return errorSchema.parse(res.json());
}

describe("camera systems", () => {
  it("keeps every field, takes the defaults from the settings, and never answers the password", async () => {
    const system = await addSystem({ notes: "Bakom kassan", api_endpoint: "/onvif/device_service" });
    expect(system).toMatchObject({
      name: "NVR entré",
      type: "nvr",
      brand: "hikvision",
      connection_type: "rtsp",
      host: "127.0.0.1",
      port: 1,
      username: "admin",
      has_password: true,
      store_id: mine,
      notes: "Bakom kassan",
      api_endpoint: "/onvif/device_service",
      status: "unknown",
    });
    for (const res of [
      await platform.get("/api/v1/cameras/systems"),
      await platform.put(`/api/v1/cameras/systems/${system.id}`, { name: "NVR 2" }),
    ]) {
      expect(res.body).not.toContain(SECRET);
      expect(res.body).not.toContain("password_sealed");
    }
    // Sealed at rest: the stored text is not the password.
    const rows = await ctx.app.db.execute(sql`select password_sealed from camera_systems where id = ${system.id}`);
    const sealed = (rows as unknown as { rows: { password_sealed: string }[] }).rows[0]!.password_sealed;
    expect(sealed.startsWith("v1.")).toBe(true);
    expect(sealed).not.toContain(SECRET);
  });

  it("an edit that leaves the password empty keeps it; a new one replaces it", async () => {
    const system = await addSystem();
    const sealedOf = async () =>
      (
        (await ctx.app.db.execute(
          sql`select password_sealed from camera_systems where id = ${system.id}`,
        )) as unknown as {
          rows: { password_sealed: string }[];
        }
      ).rows[0]!.password_sealed;
    const before = await sealedOf();
    const kept = await platform.put(`/api/v1/cameras/systems/${system.id}`, { name: "Samma lösen", password: "" });
    expect(kept.json().has_password).toBe(true);
    expect(await sealedOf()).toBe(before);
    await platform.put(`/api/v1/cameras/systems/${system.id}`, { password: "nytt-lösen" });
    expect(await sealedOf()).not.toBe(before);
  });

  it("refuses a port outside 1–65535, a host with a scheme, a missing name or store, naming the field", async () => {
    for (const [body, path] of [
      [{ port: 0 }, "port"],
      [{ port: 65536 }, "port"],
      [{ port: 80.5 }, "port"],
      [{ host: "http://kamera.local" }, "host"],
      [{ host: "" }, "host"],
      [{ name: " " }, "name"],
      [{ store_id: undefined }, "store_id"],
      [{ connection_type: "ftp" }, "connection_type"],
      [{ api_endpoint: "onvif" }, "api_endpoint"],
      // Link-local is never a camera's address, DEV_TOOLS or not.
      [{ host: "fe80::1" }, "host"],
    ] as const) {
      const res = await platform.post("/api/v1/cameras/systems", {
        name: "X",
        host: "10.0.0.1",
        port: 554,
        store_id: mine,
        ...body,
      });
      const err = await expectError(res, 422);
      expect(
        err.errors?.map((e) => e.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    // The edges themselves are fine.
    await addSystem({ port: 65535 });
    await addSystem({ port: 1, host: "kamera-1.butik.local" });
    await addSystem({ host: "fd00::1" });
  });

  it("a store that does not exist is a field problem, not a 500", async () => {
    const err = await expectError(
      await platform.post("/api/v1/cameras/systems", {
        name: "X",
        host: "10.0.0.1",
        port: 554,
        store_id: "00000000-0000-4000-8000-000000000000",
      }),
      422,
    );
    expect(err.errors?.[0]?.path).toBe("store_id");
  });

  it("deleting a system deletes its cameras with it", async () => {
    const system = await addSystem();
    const a = await addCamera({ camera_system_id: system.id, camera_index: 1 });
    const b = await addCamera({ camera_system_id: system.id, camera_index: 2 });
    const other = await addCamera({ store_id: mine, stream_url: "rtsp://10.0.0.9:554/live" });
    expect((await platform.delete(`/api/v1/cameras/systems/${system.id}`)).statusCode).toBe(204);
    const ids = ((await platform.get("/api/v1/cameras/cameras")).json() as Camera[]).map((c) => c.id);
    expect(ids).not.toContain(a.id);
    expect(ids).not.toContain(b.id);
    expect(ids).toContain(other.id);
    expect((await platform.delete(`/api/v1/cameras/systems/${system.id}`)).statusCode).toBe(404);
  });
});

describe("cameras", () => {
  it("a camera of a system is in the system's store and takes the camera defaults", async () => {
    const system = await addSystem();
    const camera = await addCamera({ camera_system_id: system.id });
    expect(camera).toMatchObject({
      store_id: mine,
      camera_index: 1,
      fps: 30,
      resolution: "1920x1080",
      location_zone: "entrance",
      is_active: true,
      is_ai_enabled: true,
      has_ptz: false,
    });
    const err = await expectError(
      await platform.post("/api/v1/cameras/cameras", {
        name: "Fel butik",
        camera_system_id: system.id,
        store_id: theirs,
      }),
      422,
    );
    expect(err.errors?.[0]?.path).toBe("store_id");
  });

  it("a store's camera defaults come from its override", async () => {
    await platform.put(`/api/v1/settings/stores/${mine}`, {
      settings: { camera: { camera_defaults: { fps: 15, resolution: "1280x720", location_zone: "exit" } } },
    });
    const camera = await addCamera({ store_id: mine, stream_url: "rtsp://10.0.0.2/s" });
    expect(camera).toMatchObject({ fps: 15, resolution: "1280x720", location_zone: "exit" });
    const elsewhere = await addCamera({ store_id: theirs, stream_url: "rtsp://10.0.0.3/s" });
    expect(elsewhere).toMatchObject({ fps: 30, resolution: "1920x1080" });
    await platform.put(`/api/v1/settings/stores/${mine}`, { settings: {} });
  });

  it("fps within 15–60 and resolutions from the list; a standalone camera needs a store", async () => {
    for (const fps of [14, 61]) {
      const err = await expectError(
        await platform.post("/api/v1/cameras/cameras", { name: "F", store_id: mine, fps }),
        422,
      );
      expect(err.errors?.[0]?.path).toBe("fps");
    }
    await addCamera({ store_id: mine, fps: 15 });
    await addCamera({ store_id: mine, fps: 60 });
    const res = await expectError(
      await platform.post("/api/v1/cameras/cameras", { name: "R", store_id: mine, resolution: "800x600" }),
      422,
    );
    expect(res.errors?.[0]?.path).toBe("resolution");
    const noStore = await expectError(await platform.post("/api/v1/cameras/cameras", { name: "S" }), 422);
    expect(noStore.errors?.[0]?.path).toBe("store_id");
    const withPassword = await expectError(
      await platform.post("/api/v1/cameras/cameras", {
        name: "U",
        store_id: mine,
        stream_url: "rtsp://admin:pw@10.0.0.1/s",
      }),
      422,
    );
    expect(withPassword.errors?.[0]?.path).toBe("stream_url");
  });

  it("edits keep what is not sent and move a camera between systems of the admin's stores", async () => {
    const s1 = await addSystem();
    const s2 = await addSystem({ store_id: theirs });
    const camera = await addCamera({ camera_system_id: s1.id, name: "Flyttbar" });
    const moved = await platform.put(`/api/v1/cameras/cameras/${camera.id}`, { camera_system_id: s2.id });
    expect(moved.json()).toMatchObject({ camera_system_id: s2.id, store_id: theirs, name: "Flyttbar" });
    const standalone = await platform.put(`/api/v1/cameras/cameras/${camera.id}`, {
      camera_system_id: null,
      store_id: mine,
    });
    expect(standalone.json()).toMatchObject({ camera_system_id: null, store_id: mine });
  });
});

describe("a store admin", () => {
  it("sees and changes only their stores' systems and cameras", async () => {
    const own = await addSystem({ name: "Egen" }, storeAdmin);
    const foreign = await addSystem({ name: "Främmande", store_id: theirs });
    const foreignCamera = await addCamera({ camera_system_id: foreign.id });

    const systems = (await storeAdmin.get("/api/v1/cameras/systems")).json() as CameraSystem[];
    expect(systems.every((s) => s.store_id === mine)).toBe(true);
    expect(systems.map((s) => s.id)).toContain(own.id);
    const camerasSeen = (await storeAdmin.get("/api/v1/cameras/cameras")).json() as Camera[];
    expect(camerasSeen.map((c) => c.id)).not.toContain(foreignCamera.id);

    await expectError(await storeAdmin.put(`/api/v1/cameras/systems/${foreign.id}`, { name: "Min nu" }), 403);
    await expectError(await storeAdmin.delete(`/api/v1/cameras/systems/${foreign.id}`), 403);
    await expectError(await storeAdmin.post(`/api/v1/cameras/systems/${foreign.id}/test`), 403);
    await expectError(
      await storeAdmin.post("/api/v1/cameras/systems", { name: "X", host: "10.0.0.1", port: 554, store_id: theirs }),
      403,
    );
    // Nor may they move their own system into another store, or hang a camera on another store's system.
    await expectError(await storeAdmin.put(`/api/v1/cameras/systems/${own.id}`, { store_id: theirs }), 403);
    await expectError(
      await storeAdmin.post("/api/v1/cameras/cameras", { name: "In", camera_system_id: foreign.id }),
      403,
    );
    await expectError(await storeAdmin.put(`/api/v1/cameras/cameras/${foreignCamera.id}`, { name: "Ut" }), 403);
    await expectError(await storeAdmin.get(`/api/v1/cameras/cameras/${foreignCamera.id}/history`), 403);
    await expectError(await storeAdmin.get(`/api/v1/cameras/cameras/${foreignCamera.id}/stream`), 403);
    await expectError(
      await storeAdmin.post(`/api/v1/cameras/cameras/${foreignCamera.id}/ptz`, { action: "stop" }),
      403,
    );
    expect((await platform.get("/api/v1/cameras/systems")).json().map((s: CameraSystem) => s.name)).toContain(
      "Främmande",
    );
  });

  it("a deleted store's systems and cameras are unassigned: a platform admin sees them, a store admin does not", async () => {
    const store = (await platform.post("/api/v1/stores/", { name: "Stängs" })).json().id as string;
    const system = await addSystem({ store_id: store });
    const camera = await addCamera({ camera_system_id: system.id });
    expect((await platform.delete(`/api/v1/stores/${store}`)).statusCode).toBe(204);
    const systems = (await platform.get("/api/v1/cameras/systems")).json() as CameraSystem[];
    expect(systems.find((s) => s.id === system.id)?.store_id).toBeNull();
    const cams = (await platform.get("/api/v1/cameras/cameras")).json() as Camera[];
    expect(cams.find((c) => c.id === camera.id)?.store_id).toBeNull();
    expect(((await storeAdmin.get("/api/v1/cameras/systems")).json() as CameraSystem[]).map((s) => s.id)).not.toContain(
      system.id,
    );
  });
});
