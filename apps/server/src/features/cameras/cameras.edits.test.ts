import {
  type AuditListItem,
  auditListItemSchema,
  type Camera,
  type CameraSystem,
  cameraSchema,
  cameraSystemSchema,
  errorSchema,
  statusChangeSchema,
} from "@glide/contracts";
import { eq } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cameraStatusChanges } from "../../db/schema/index.ts";
import {
  as,
  createTestContext,
  signIn,
  TEST_DATABASE_URL,
  type TestContext,
  waitingForLocks,
} from "../../test/harness.ts";
import { recordStatus } from "./cameras.service.ts";

/**
 * Camera systems and cameras as an operator edits them: every field of an
 * edit, where a camera lands when it changes system or store, the words of
 * each refusal, the audit line of each change, and the status history the
 * health checker writes.
 */
let ctx: TestContext;
let platform: ReturnType<typeof as>;
let storeAdmin: ReturnType<typeof as>;
let mine: string;
let theirs: string;

beforeAll(async () => {
  ctx = await createTestContext();
  platform = as(ctx.app, (await signIn(ctx.app)).cookie);
  mine = (await platform.post("/api/v1/stores/", { name: "Redigeringsbutiken" })).json().id;
  theirs = (await platform.post("/api/v1/stores/", { name: "Andra butiken" })).json().id;
  storeAdmin = as(ctx.app, (await signIn(ctx.app, "store_admin", [mine])).cookie);
});
afterAll(() => ctx.close());

type Reply = { statusCode: number; body: string; json(): unknown };

function ok<T>(res: Reply, parse: (v: unknown) => T, status = 200): T {
  expect(res.statusCode, res.body).toBe(status);
  return parse(res.json());
}
const asSystem = (v: unknown) => cameraSystemSchema.parse(v);
const asCamera = (v: unknown) => cameraSchema.parse(v);

async function addSystem(body: Record<string, unknown> = {}): Promise<CameraSystem> {
  const res = await platform.post("/api/v1/cameras/systems", {
    name: "NVR",
    host: "10.0.0.1",
    port: 554,
    store_id: mine,
    ...body,
  });
  return ok(res, asSystem, 201);
}

const addCamera = async (body: Record<string, unknown>): Promise<Camera> =>
  ok(await platform.post("/api/v1/cameras/cameras", { name: "Kamera", ...body }), asCamera, 201);

/** What an edit set, without what the health checker may write meanwhile (a kick follows every change). */
const settled = <T extends { status: string; last_checked_at: string | null }>({
  status,
  last_checked_at,
  ...rest
}: T) => rest;

const editCamera = (id: string, body: Record<string, unknown>) => platform.put(`/api/v1/cameras/cameras/${id}`, body);

/** The field named by a refusal, with its words. */
async function refusal(res: Reply, status = 422): Promise<{ path?: string; message?: string; detail: string }> {
  expect(res.statusCode, res.body).toBe(status);
  const err = errorSchema.parse(res.json());
  return { path: err.errors?.[0]?.path, message: err.errors?.[0]?.message, detail: err.detail };
}

async function latestAudit(action: string, entityId: string): Promise<AuditListItem> {
  const res = await platform.get(`/api/v1/admin/audit?action=${action}&entity_id=${entityId}&limit=1`);
  const [entry] = ok(res, (v) => auditListItemSchema.array().parse(v));
  expect(entry, `no ${action} entry for ${entityId}`).toBeDefined();
  return entry!;
}

describe("a camera system's fields", () => {
  it("keeps what is sent instead of the defaults, and empty optional fields as none", async () => {
    const system = await addSystem({ type: "dvr", brand: "axis", status: "online", connection_type: "onvif" });
    expect(system).toMatchObject({
      type: "dvr",
      brand: "axis",
      status: "online",
      connection_type: "onvif",
      username: null,
      has_password: false,
      api_endpoint: null,
      notes: null,
      last_checked_at: null,
    });
  });

  it("an edit changes every field it names and keeps the others", async () => {
    const system = await addSystem({ username: "admin", password: "första-lösen", notes: "Gammal" });
    const changes = {
      name: "NVR bakre",
      type: "standalone",
      brand: "dahua",
      status: "offline",
      connection_type: "http",
      host: "kamera.butik.local",
      port: 8080,
      username: "operatör",
      api_endpoint: "/ISAPI",
      notes: "Ny plats",
    };
    const edited = ok(await platform.put(`/api/v1/cameras/systems/${system.id}`, changes), asSystem);
    // A new address and user without a new password: the old one stayed with the address it was for.
    expect(edited).toMatchObject({ ...changes, has_password: false, store_id: mine });

    const noted = ok(
      await platform.put(`/api/v1/cameras/systems/${system.id}`, { notes: "Bara anteckning" }),
      asSystem,
    );
    expect(settled(noted)).toEqual(settled({ ...edited, notes: "Bara anteckning" }));
    const listed = ok(await platform.get("/api/v1/cameras/systems"), (v) => cameraSystemSchema.array().parse(v));
    expect(settled(listed.find((s) => s.id === system.id)!)).toEqual(settled(noted));
  });

  it("moving a system to another store moves its cameras; a store that does not exist is refused", async () => {
    const system = await addSystem();
    const camera = await addCamera({ camera_system_id: system.id });
    const moved = ok(await platform.put(`/api/v1/cameras/systems/${system.id}`, { store_id: theirs }), asSystem);
    expect(moved.store_id).toBe(theirs);
    const cams = ok(await platform.get("/api/v1/cameras/cameras"), (v) => cameraSchema.array().parse(v));
    expect(cams.find((c) => c.id === camera.id)?.store_id).toBe(theirs);

    const gone = await refusal(
      await platform.put(`/api/v1/cameras/systems/${system.id}`, { store_id: crypto.randomUUID() }),
    );
    expect(gone).toMatchObject({ path: "store_id", message: "Store not found" });
    const unknown = crypto.randomUUID();
    expect(await refusal(await platform.put(`/api/v1/cameras/systems/${unknown}`, { name: "X" }), 404)).toMatchObject({
      detail: `Camera system ${unknown} not found`,
    });
  });

  it("systems are listed by name; a store admin without stores sees none", async () => {
    const b = await addSystem({ name: "Ordning B" });
    const a = await addSystem({ name: "Ordning A" });
    const names = ok(await platform.get("/api/v1/cameras/systems"), (v) => cameraSystemSchema.array().parse(v)).map(
      (s) => s.id,
    );
    expect(names.indexOf(a.id)).toBeLessThan(names.indexOf(b.id));
    const nobody = as(ctx.app, (await signIn(ctx.app, "store_admin", [])).cookie);
    expect((await nobody.get("/api/v1/cameras/systems")).json()).toEqual([]);
    expect((await nobody.get("/api/v1/cameras/cameras")).json()).toEqual([]);
  });
});

describe("where a camera is placed", () => {
  it("each refusal names its field and says what to do", async () => {
    const system = await addSystem();
    expect(
      await refusal(
        await platform.post("/api/v1/cameras/cameras", { name: "K", camera_system_id: crypto.randomUUID() }),
      ),
    ).toMatchObject({ path: "camera_system_id", message: "Camera system not found" });
    expect(
      await refusal(
        await platform.post("/api/v1/cameras/cameras", { name: "K", camera_system_id: system.id, store_id: theirs }),
      ),
    ).toMatchObject({ path: "store_id", message: "A camera is in its system's store; choose that store or no system" });
    expect(await refusal(await platform.post("/api/v1/cameras/cameras", { name: "K" }))).toMatchObject({
      path: "store_id",
      message: "Store is required for a camera without a system",
    });
    expect(
      await refusal(await platform.post("/api/v1/cameras/cameras", { name: "K", store_id: crypto.randomUUID() })),
    ).toMatchObject({ path: "store_id", message: "Store not found" });
    // Naming the system's own store as well is fine.
    expect((await addCamera({ camera_system_id: system.id, store_id: mine })).store_id).toBe(mine);
  });

  it("a system without a store (its store deleted) needs a store for a new camera, and only a platform admin may", async () => {
    const store = (await platform.post("/api/v1/stores/", { name: "Stänger" })).json().id as string;
    const system = await addSystem({ store_id: store });
    const orphan = await addCamera({ camera_system_id: system.id });
    expect((await platform.delete(`/api/v1/stores/${store}`)).statusCode).toBe(204);
    // A camera without a store is held to the same fps range.
    expect(await refusal(await editCamera(orphan.id, { fps: 61 }))).toMatchObject({ path: "fps" });

    expect(
      await refusal(await platform.post("/api/v1/cameras/cameras", { name: "K", camera_system_id: system.id })),
    ).toMatchObject({ path: "store_id", message: "The camera system has no store; choose a store for it first" });
    const placed = await addCamera({ camera_system_id: system.id, store_id: mine });
    expect(placed).toMatchObject({ camera_system_id: system.id, store_id: mine });

    const denied = await refusal(
      await storeAdmin.post("/api/v1/cameras/cameras", { name: "K", camera_system_id: system.id, store_id: mine }),
      403,
    );
    expect(denied.detail).toBe("Only platform admins may manage unassigned cameras");
    await refusal(await storeAdmin.put(`/api/v1/cameras/systems/${system.id}`, { name: "Min" }), 403);
    // A platform admin may still edit the unassigned system and its cameras.
    expect((await platform.put(`/api/v1/cameras/systems/${system.id}`, { notes: "Ingen butik" })).statusCode).toBe(200);
    expect((await editCamera(placed.id, { name: "Kvar" })).statusCode).toBe(200);
  });

  it("an edit moves a camera between standalone and a system, and keeps its store when only the system goes", async () => {
    const other = await addSystem({ store_id: theirs });
    const standalone = await addCamera({ store_id: mine, stream_url: "rtsp://10.0.0.5/s" });

    // Onto a system without naming a store: the system's store.
    const hung = ok(await editCamera(standalone.id, { camera_system_id: other.id }), asCamera);
    expect(hung).toMatchObject({ camera_system_id: other.id, store_id: theirs });
    // Naming the system's store is fine, another store is refused.
    expect(ok(await editCamera(standalone.id, { store_id: theirs }), asCamera).store_id).toBe(theirs);
    expect(await refusal(await editCamera(standalone.id, { store_id: mine }))).toMatchObject({ path: "store_id" });
    // Off the system: stays where it is.
    const loose = ok(await editCamera(standalone.id, { camera_system_id: null }), asCamera);
    expect(loose).toMatchObject({ camera_system_id: null, store_id: theirs });
    // A standalone camera changes store by itself.
    expect(ok(await editCamera(standalone.id, { store_id: mine }), asCamera)).toMatchObject({
      camera_system_id: null,
      store_id: mine,
    });
    expect(await refusal(await editCamera(standalone.id, { camera_system_id: crypto.randomUUID() }))).toMatchObject({
      path: "camera_system_id",
    });
  });
});

describe("a store admin's own cameras", () => {
  it("may edit their store's system and camera, and add a standalone camera only in their stores", async () => {
    const system = await addSystem({ name: "Butikens NVR" });
    const camera = await addCamera({ camera_system_id: system.id });
    expect(ok(await storeAdmin.put(`/api/v1/cameras/systems/${system.id}`, { notes: "Min" }), asSystem).notes).toBe(
      "Min",
    );
    expect(
      ok(await storeAdmin.put(`/api/v1/cameras/cameras/${camera.id}`, { name: "Min kamera" }), asCamera).name,
    ).toBe("Min kamera");
    const standalone = { name: "Fristående", stream_url: "rtsp://10.0.0.8/s" };
    await refusal(await storeAdmin.post("/api/v1/cameras/cameras", { ...standalone, store_id: theirs }), 403);
    const own = ok(
      await storeAdmin.post("/api/v1/cameras/cameras", { ...standalone, store_id: mine, status: "inactive" }),
      asCamera,
      201,
    );
    // As sent: the answer is written before the health checker first looks at it.
    expect(own).toMatchObject({ store_id: mine, stream_url: "rtsp://10.0.0.8/s", status: "inactive" });
  });
});

describe("a camera's fields", () => {
  it("an edit changes every field it names and keeps the others", async () => {
    const camera = await addCamera({ store_id: mine, camera_index: 3, is_active: false, is_ai_enabled: false });
    expect(camera).toMatchObject({ camera_index: 3, is_active: false, is_ai_enabled: false, status: "unknown" });
    const changes = {
      name: "Kamera kyl",
      camera_index: 7,
      location_zone: "storage",
      stream_url: "rtsp://10.0.0.7:554/kyl",
      resolution: "2560x1440",
      fps: 20,
      is_active: true,
      is_ai_enabled: true,
      status: "inactive",
    };
    const edited = ok(await editCamera(camera.id, changes), asCamera);
    expect(edited).toMatchObject(changes);
    const renamed = ok(await editCamera(camera.id, { name: "Bara namnet" }), asCamera);
    expect(settled(renamed)).toEqual(settled({ ...edited, name: "Bara namnet" }));
  });

  it("an edit's fps is held to 15–60 with words, at both ends", async () => {
    const camera = await addCamera({ store_id: mine });
    for (const fps of [14, 61]) {
      expect(await refusal(await editCamera(camera.id, { fps }))).toMatchObject({
        path: "fps",
        message: "FPS must be from 15 to 60",
      });
    }
    for (const fps of [15, 60]) expect(ok(await editCamera(camera.id, { fps }), asCamera).fps).toBe(fps);
  });

  it("cameras are listed by index, then name; a camera that is gone is a 404", async () => {
    const second = await addCamera({ store_id: mine, camera_index: 251, name: "A" });
    const firstB = await addCamera({ store_id: mine, camera_index: 250, name: "B" });
    const firstA = await addCamera({ store_id: mine, camera_index: 250, name: "A" });
    const ids = ok(await platform.get("/api/v1/cameras/cameras"), (v) => cameraSchema.array().parse(v))
      .map((c) => c.id)
      .filter((id) => [second.id, firstA.id, firstB.id].includes(id));
    expect(ids).toEqual([firstA.id, firstB.id, second.id]);

    expect((await platform.delete(`/api/v1/cameras/cameras/${second.id}`)).statusCode).toBe(204);
    expect((await platform.delete(`/api/v1/cameras/cameras/${second.id}`)).statusCode).toBe(404);
    expect(await refusal(await editCamera(second.id, { name: "X" }), 404)).toMatchObject({
      detail: `Camera ${second.id} not found`,
    });
    expect((await platform.get(`/api/v1/cameras/cameras/${second.id}/history`)).statusCode).toBe(404);
  });
});

describe("the audit line of each change", () => {
  it("names the system or camera, and the store it is in", async () => {
    const system = await addSystem({ name: "Loggad NVR" });
    expect(await latestAudit("camera_system.create", system.id)).toMatchObject({
      entity_type: "camera_system",
      store_id: mine,
      summary: 'Camera system "Loggad NVR" created',
    });
    await platform.put(`/api/v1/cameras/systems/${system.id}`, { password: "ett-första-lösen" });
    // A first password shows as has_password; the password itself is never named.
    expect(await latestAudit("camera_system.update", system.id)).toMatchObject({
      entity_type: "camera_system",
      summary: 'Camera system "Loggad NVR" updated: has_password',
    });
    // A new one over it changes nothing the entry may show: it says "password".
    await platform.put(`/api/v1/cameras/systems/${system.id}`, { password: "ett-andra-lösen" });
    expect((await latestAudit("camera_system.update", system.id)).summary).toBe(
      'Camera system "Loggad NVR" updated: password',
    );
    const camera = await addCamera({ camera_system_id: system.id, name: "Loggad kamera" });
    expect(await latestAudit("camera.create", camera.id)).toMatchObject({
      entity_type: "camera",
      store_id: mine,
      summary: 'Camera "Loggad kamera" created',
    });
    await editCamera(camera.id, { location_zone: "exit" });
    expect(await latestAudit("camera.update", camera.id)).toMatchObject({
      entity_type: "camera",
      store_id: mine,
      summary: 'Camera "Loggad kamera" updated: location_zone',
    });
    expect((await platform.delete(`/api/v1/cameras/cameras/${camera.id}`)).statusCode).toBe(204);
    expect(await latestAudit("camera.delete", camera.id)).toMatchObject({
      entity_type: "camera",
      store_id: mine,
      summary: 'Camera "Loggad kamera" deleted',
    });
    expect((await platform.delete(`/api/v1/cameras/systems/${system.id}`)).statusCode).toBe(204);
    expect(await latestAudit("camera_system.delete", system.id)).toMatchObject({
      entity_type: "camera_system",
      store_id: mine,
      summary: 'Camera system "Loggad NVR" deleted with its cameras',
    });
  });
});

describe("the status history", () => {
  it("records a change of status once, newest first, with its words; the same status again only stamps the time", async () => {
    // Inactive and standalone, so the health checker leaves it alone.
    const camera = await addCamera({ store_id: mine, is_active: false });
    const db = ctx.app.db;
    expect(await recordStatus(db, { kind: "camera", id: camera.id }, "online", null, { hasPtz: true })).toBe(true);
    expect(await recordStatus(db, { kind: "camera", id: camera.id }, "online", "still there")).toBe(false);
    expect(await recordStatus(db, { kind: "camera", id: camera.id }, "offline", "Connection refused")).toBe(true);
    expect(await recordStatus(db, { kind: "camera", id: crypto.randomUUID() }, "online", null)).toBe(false);

    const history = ok(await platform.get(`/api/v1/cameras/cameras/${camera.id}/history`), (v) =>
      statusChangeSchema.array().parse(v),
    );
    expect(history.map((h) => [h.status, h.message])).toEqual([
      ["offline", "Connection refused"],
      ["online", null],
    ]);
    const seen = ok(await platform.get("/api/v1/cameras/cameras"), (v) => cameraSchema.array().parse(v)).find(
      (c) => c.id === camera.id,
    );
    // PTZ is kept when a later check does not say.
    expect(seen).toMatchObject({ status: "offline", has_ptz: true });
    expect(Date.parse(seen?.last_checked_at ?? "")).toBeGreaterThan(Date.now() - 60_000);
  });

  it("a system's change is recorded as the system's, on the system", async () => {
    const system = await addSystem();
    // "active" is a status the health checker never writes, so its own rounds cannot have set it first.
    expect(await recordStatus(ctx.app.db, { kind: "system", id: system.id }, "active", "Set by hand")).toBe(true);
    const rows = await ctx.app.db.select().from(cameraStatusChanges).where(eq(cameraStatusChanges.systemId, system.id));
    expect(rows.map((r) => [r.status, r.cameraId, r.message])).toContainEqual(["active", null, "Set by hand"]);
  });
});

describe.skipIf(!TEST_DATABASE_URL)("a system or store deleted while a camera is added", () => {
  it("names the field whose row went, not a 500", async () => {
    const system = await addSystem();
    const closing = (await platform.post("/api/v1/stores/", { name: "Stängs strax" })).json().id as string;
    const other = new pg.Client({ connectionString: ctx.databaseUrl });
    await other.connect();
    try {
      // The other side's delete is not yet committed when the camera's insert checks its reference, so
      // the camera's own checks before it still see the row; the insert then waits and finds it gone.
      for (const [table, id, body, path, message] of [
        ["camera_systems", system.id, { camera_system_id: system.id }, "camera_system_id", "Camera system not found"],
        ["stores", closing, { store_id: closing }, "store_id", "Store not found"],
      ] as const) {
        await other.query("begin");
        await other.query(`delete from ${table} where id = $1`, [id]);
        const adding = platform.post("/api/v1/cameras/cameras", { name: "Hann inte", ...body });
        await waitingForLocks(ctx.app.db, 1);
        await other.query("commit");
        expect(await refusal(await adding)).toMatchObject({ path, message });
      }
    } finally {
      await other.end();
    }
  });
});
