import { type AuditEntry, auditEntrySchema, type CameraSystem, cameraSystemSchema } from "@glide/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";
import {
  challenging,
  type Listener,
  onvifAnswer,
  startHttpListener,
  startRtspListener,
} from "../../test/recording-listener.ts";
import { checkCameras } from "./camera-health.ts";

/**
 * A stored camera password belongs to the address it was stored for. A store
 * admin who points a system somewhere else (host, port, connection type or
 * user name) and runs the test must not have the password a platform admin
 * stored sent there, in any protocol: the listener there, which records all
 * it is sent, sees no credential at all, or only the new password given with
 * the change.
 */
let ctx: TestContext;
let platform: ReturnType<typeof as>;
let storeAdmin: ReturnType<typeof as>;
let mine: string;

beforeAll(async () => {
  // The listeners are on loopback, a camera network only with DEV_TOOLS.
  ctx = await createTestContext({ DEV_TOOLS: "true" });
  platform = as(ctx.app, (await signIn(ctx.app)).cookie);
  mine = (await platform.post("/api/v1/stores/", { name: "Lösenordsbutiken" })).json().id;
  storeAdmin = as(ctx.app, (await signIn(ctx.app, "store_admin", [mine])).cookie);
});
afterAll(() => ctx.close());

const USER = "admin";
const OLD = "Plattformens-hemliga-9";
const NEW = "Butikens-eget-lösen-4";

type Reply = { statusCode: number; body: string; json(): unknown };
function system(res: Reply, status = 200): CameraSystem {
  expect(res.statusCode, res.body).toBe(status);
  return cameraSystemSchema.parse(res.json());
}

/** A system the platform admin stored the password of, at the camera `device`. */
async function stored(connection_type: string, device: Listener): Promise<CameraSystem> {
  const body = {
    name: `NVR ${connection_type}`,
    connection_type,
    brand: "generic",
    host: device.host,
    port: device.port,
    username: USER,
    password: OLD,
    api_endpoint: "/snapshot.jpg",
    store_id: mine,
  };
  return system(await platform.post("/api/v1/cameras/systems", body), 201);
}

const test = async (id: string) => {
  const res = await storeAdmin.post(`/api/v1/cameras/systems/${id}/test`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { status: string; step: string; message: string };
};

async function latestUpdate(id: string): Promise<AuditEntry> {
  const list = await platform.get(`/api/v1/admin/audit?action=camera_system.update&entity_id=${id}&limit=1`);
  const [item] = list.json() as { id: number }[];
  expect(item, list.body).toBeDefined();
  return auditEntrySchema.parse((await platform.get(`/api/v1/admin/audit/${item!.id}`)).json());
}

const PROTOCOLS = [
  { name: "HTTP Basic", type: "http", start: () => startHttpListener(challenging("basic")) },
  { name: "HTTP Digest", type: "http", start: () => startHttpListener(challenging("digest")) },
  { name: "RTSP Basic", type: "rtsp", start: () => startRtspListener(challenging("basic")) },
  { name: "RTSP Digest", type: "rtsp", start: () => startRtspListener(challenging("digest")) },
  { name: "ONVIF WS-Security", type: "onvif", start: () => startHttpListener(onvifAnswer) },
  { name: "ONVIF HTTP Digest", type: "onvif", start: () => startHttpListener(challenging("digest")) },
] as const;

describe("a system moved to another address", () => {
  for (const protocol of PROTOCOLS) {
    it(`${protocol.name}: the listener there sees no credential, then only a new password given with the move`, async () => {
      const [device, stranger] = await Promise.all([protocol.start(), protocol.start()]);
      try {
        const moved = await stored(protocol.type, device);
        expect(moved.has_password).toBe(true);
        const edited = system(await storeAdmin.put(`/api/v1/cameras/systems/${moved.id}`, { port: stranger.port }));
        expect(edited).toMatchObject({ port: stranger.port, username: USER, has_password: false });
        expect(await test(moved.id)).toMatchObject({ status: "failed", step: "authenticate" });
        // The health checker, which repeats the test every minute, sends nothing either.
        await checkCameras(ctx.app);
        expect(stranger.heard.length).toBeGreaterThan(0);
        expect(stranger.sawCredential()).toBe(false);
        expect(JSON.stringify(stranger.heard)).not.toContain(OLD);

        // The audit entry says the password went, without either one.
        const entry = await latestUpdate(moved.id);
        expect(entry.summary).toContain("has_password");
        expect(entry).toMatchObject({ before: { has_password: true }, after: { has_password: false } });
        expect(JSON.stringify(entry)).not.toContain(OLD);

        // With a password in the same request, the new address gets that one and nothing else.
        const given = await stored(protocol.type, device);
        const regiven = system(
          await storeAdmin.put(`/api/v1/cameras/systems/${given.id}`, { port: stranger.port, password: NEW }),
        );
        expect(regiven.has_password).toBe(true);
        await test(given.id);
        expect(stranger.sawPassword(USER, NEW)).toBe(true);
        expect(stranger.sawPassword(USER, OLD)).toBe(false);
        expect(JSON.stringify(stranger.heard)).not.toContain(OLD);
      } finally {
        await Promise.all([device.close(), stranger.close()]);
      }
    });
  }
});

describe("what a password belongs to", () => {
  it("another host on the same port drops it, as does another connection type or user name; the rest keeps it", async () => {
    // The same port on another loopback address: only the host differs.
    const device = await startHttpListener(challenging("basic"));
    const stranger = await startHttpListener(challenging("basic"), { host: "127.0.0.2", port: device.port });
    try {
      const s = await stored("http", device);
      expect(system(await storeAdmin.put(`/api/v1/cameras/systems/${s.id}`, { host: "127.0.0.2" })).has_password).toBe(
        false,
      );
      await test(s.id);
      expect(stranger.heard.length).toBeGreaterThan(0);
      expect(stranger.sawCredential()).toBe(false);

      // ONVIF signs with a digest; the same device asked over HTTP would get the password in Basic.
      const onvif = await stored("onvif", device);
      const asHttp = await storeAdmin.put(`/api/v1/cameras/systems/${onvif.id}`, { connection_type: "http" });
      expect(system(asHttp).has_password).toBe(false);
      const before = device.heard.length;
      await test(onvif.id);
      expect(device.heard.slice(before).some((h) => h.headers.authorization)).toBe(false);

      const user = await stored("http", device);
      expect(
        system(await storeAdmin.put(`/api/v1/cameras/systems/${user.id}`, { username: "gäst" })).has_password,
      ).toBe(false);
      const cleared = await stored("http", device);
      expect(system(await storeAdmin.put(`/api/v1/cameras/systems/${cleared.id}`, { username: "" })).has_password).toBe(
        false,
      );

      // The same address again (as the form sends it), in other letters, or other fields: the password stays.
      const kept = await stored("http", device);
      const same = {
        host: device.host,
        port: device.port,
        connection_type: "http",
        username: USER,
        name: "Nytt namn",
        brand: "axis",
        api_endpoint: "/bild.jpg",
        notes: "Flyttad hylla",
        password: "",
      };
      expect(system(await storeAdmin.put(`/api/v1/cameras/systems/${kept.id}`, same)).has_password).toBe(true);
      const named = await stored("http", device);
      const renamed = { host: "kamera.invalid", password: "nytt-lösen-1" };
      expect(system(await platform.put(`/api/v1/cameras/systems/${named.id}`, renamed)).has_password).toBe(true);
      const letters = await platform.put(`/api/v1/cameras/systems/${named.id}`, { host: "Kamera.INVALID" });
      expect(system(letters).has_password).toBe(true);
    } finally {
      await Promise.all([device.close(), stranger.close()]);
    }
  });

  it("a camera's own stream address on another host never gets its system's password through the API", async () => {
    const device = await startRtspListener(challenging("basic"));
    const stranger = await startRtspListener(challenging("basic"));
    try {
      const s = await stored("rtsp", device);
      const camera = await platform.post("/api/v1/cameras/cameras", {
        name: "Egen adress",
        camera_system_id: s.id,
      });
      expect(camera.statusCode, camera.body).toBe(201);
      // "localhost" is not the system's host as written, though it leads to the same machine.
      const moved = await storeAdmin.put(`/api/v1/cameras/cameras/${camera.json().id}`, {
        stream_url: `rtsp://localhost:${stranger.port}/live`,
      });
      expect(moved.statusCode, moved.body).toBe(200);
      const stream = await storeAdmin.get(`/api/v1/cameras/cameras/${camera.json().id}/stream`);
      expect(stream.statusCode, stream.body).toBe(502);
      await checkCameras(ctx.app);
      // platform/cameras holds the same rule where the address is used (rtsp.test.ts).
      expect(stranger.sawCredential()).toBe(false);
      expect(JSON.stringify(stranger.heard)).not.toContain(OLD);
    } finally {
      await Promise.all([device.close(), stranger.close()]);
    }
  });
});
