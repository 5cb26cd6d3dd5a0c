import {
  type AuditListItem,
  auditListItemSchema,
  type Camera,
  type CameraSystem,
  cameraSchema,
  cameraSystemSchema,
  errorSchema,
} from "@glide/contracts";
import { expect } from "vitest";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";

/**
 * What the tests of camera systems and cameras as an operator edits them
 * share: one app per test file (opened by `openCameraEditTests`), a platform
 * admin, a store admin of `mine`, another store `theirs`, and the calls and
 * checks they make.
 */
export let ctx: TestContext;
export let platform: ReturnType<typeof as>;
export let storeAdmin: ReturnType<typeof as>;
export let mine: string;
export let theirs: string;

/** Opens this test file's app, its two stores and its two admins (its `beforeAll`). */
export async function openCameraEditTests(): Promise<void> {
  ctx = await createTestContext();
  platform = as(ctx.app, (await signIn(ctx.app)).cookie);
  mine = (await platform.post("/api/v1/stores/", { name: "Redigeringsbutiken" })).json().id;
  theirs = (await platform.post("/api/v1/stores/", { name: "Andra butiken" })).json().id;
  storeAdmin = as(ctx.app, (await signIn(ctx.app, "store_admin", [mine])).cookie);
}

/** An answer as the checks below read it. */
export type Reply = { statusCode: number; body: string; json(): unknown };

/** The parsed body of an answer that must have `status`. */
export function ok<T>(res: Reply, parse: (v: unknown) => T, status = 200): T {
  expect(res.statusCode, res.body).toBe(status);
  return parse(res.json());
}
/** A camera system's body, checked against its contract. */
export const asSystem = (v: unknown) => cameraSystemSchema.parse(v);
/** A camera's body, checked against its contract. */
export const asCamera = (v: unknown) => cameraSchema.parse(v);

/** A camera system in `mine` made by the platform admin, with `body` over the defaults. */
export async function addSystem(body: Record<string, unknown> = {}): Promise<CameraSystem> {
  const res = await platform.post("/api/v1/cameras/systems", {
    name: "NVR",
    host: "10.0.0.1",
    port: 554,
    store_id: mine,
    ...body,
  });
  return ok(res, asSystem, 201);
}

/** A camera made by the platform admin. */
export const addCamera = async (body: Record<string, unknown>): Promise<Camera> =>
  ok(await platform.post("/api/v1/cameras/cameras", { name: "Kamera", ...body }), asCamera, 201);

/** What an edit set, without what the health checker may write meanwhile (a kick follows every change). */
export const settled = <T extends { status: string; last_checked_at: string | null }>({
  status,
  last_checked_at,
  ...rest
}: T) => rest;

/** An edit of a camera by the platform admin. */
export const editCamera = (id: string, body: Record<string, unknown>) =>
  platform.put(`/api/v1/cameras/cameras/${id}`, body);

/** The field named by a refusal, with its words. */
export async function refusal(res: Reply, status = 422): Promise<{ path?: string; message?: string; detail: string }> {
  expect(res.statusCode, res.body).toBe(status);
  const err = errorSchema.parse(res.json());
  return { path: err.errors?.[0]?.path, message: err.errors?.[0]?.message, detail: err.detail };
}

/** The newest audit entry of `action` for `entityId`. */
export async function latestAudit(action: string, entityId: string): Promise<AuditListItem> {
  const res = await platform.get(`/api/v1/admin/audit?action=${action}&entity_id=${entityId}&limit=1`);
  const [entry] = ok(res, (v) => auditListItemSchema.array().parse(v));
  expect(entry, `no ${action} entry for ${entityId}`).toBeDefined();
  return entry!;
}
