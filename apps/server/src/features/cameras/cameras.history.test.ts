import { cameraSchema, statusChangeSchema } from "@glide/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cameraStatusChanges } from "../../db/schema/index.ts";
import { recordStatus } from "./camera-status.ts";
import {
  addCamera,
  addSystem,
  ctx,
  editCamera,
  latestAudit,
  mine,
  ok,
  openCameraEditTests,
  platform,
} from "./cameras.edits.fixtures.ts";

/** What a camera edit leaves behind: the audit line of each change, and the status history the health checker writes. */
beforeAll(openCameraEditTests);
afterAll(() => ctx.close());

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
