import { type AuditEntry, type AuditListItem, auditEntrySchema, auditListItemSchema } from "@glide/contracts";
import { expect } from "vitest";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";

/**
 * What the audit tests share: one app per test file (opened by
 * `openAuditTests`), a platform admin, and a store admin of the store `mine`.
 */
export let ctx: TestContext;
export let platform: ReturnType<typeof as>;
export let platformAdmin: { cookie: string; email: string; id: string };
export let storeAdmin: ReturnType<typeof as>;
export let storeAdminEmail: string;
export let mine: string;

/** Opens this test file's app and signs in its two admins (its `beforeAll`). */
export async function openAuditTests(): Promise<void> {
  // The audit tests' camera system is on loopback, where cameras may be only when the configuration says so.
  ctx = await createTestContext({ CAMERA_NETWORKS: "127.0.0.0/8" });
  platformAdmin = await signIn(ctx.app);
  platform = as(ctx.app, platformAdmin.cookie);
  mine = (await platform.post("/api/v1/stores/", { name: "Revisionsbutiken" })).json().id;
  const signedIn = await signIn(ctx.app, "store_admin", [mine]);
  storeAdmin = as(ctx.app, signedIn.cookie);
  storeAdminEmail = signedIn.email;
}

/** One page of the audit log as the platform admin reads it, with the total. */
export async function list(query = ""): Promise<{ items: AuditListItem[]; total: number }> {
  const res = await platform.get(`/api/v1/admin/audit${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return { items: auditListItemSchema.array().parse(res.json()), total: Number(res.headers["x-total-count"]) };
}

/** The newest entry of `action` for `entityId`, with its before and after. */
export async function latest(action: string, entityId: string): Promise<AuditEntry> {
  const { items } = await list(`?action=${action}&entity_id=${encodeURIComponent(entityId)}&limit=1`);
  expect(items, `no ${action} entry for ${entityId}`).toHaveLength(1);
  const res = await platform.get(`/api/v1/admin/audit/${items[0]!.id}`);
  expect(res.statusCode, res.body).toBe(200);
  return auditEntrySchema.parse(res.json());
}

/** How many entries the log holds. */
export const count = async () => (await list("?limit=1")).total;

/** The parsed body of an answer that must have `status`. */
export function expectOk(res: { statusCode: number; body: string }, status = 200) {
  expect(res.statusCode, res.body).toBe(status);
  return JSON.parse(res.body || "null");
}
