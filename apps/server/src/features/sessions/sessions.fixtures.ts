import { type EntrySession, entryResponseSchema } from "@glide/contracts";
import { afterAll, beforeAll, expect } from "vitest";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";

/**
 * What the door tests share: two stores with a door scanner key each,
 * shoppers signed in through the dev tools, their entry codes, and the
 * scanner's request.
 */

export let ctx: TestContext;
export let admin: ReturnType<typeof as>;
export let storeA: string;
export let storeB: string;
export let keyA: string;
export let keyB: string;

/** A request with the headers given. */
export const inject = (
  app: TestContext["app"],
  method: "GET" | "POST",
  url: string,
  headers: Record<string, string>,
  payload?: object,
) => app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

/** A shopper signed in through the dev tools; returns the access token. */
export async function shopper(app = ctx.app): Promise<string> {
  const res = await app.inject({ method: "POST", url: "/api/v1/auth/dev-login" });
  return res.json().access_token;
}
/** An entry code for the store, as the phone gets it. */
export async function entry(token: string, storeId = storeA, app = ctx.app): Promise<EntrySession> {
  const res = await inject(
    app,
    "POST",
    "/api/v1/sessions/entry",
    { authorization: `Bearer ${token}` },
    { store_id: storeId },
  );
  expect(res.statusCode, res.body).toBe(200);
  return entryResponseSchema.parse(res.json());
}
/** The door scanner reading an entry code, with fields changed as told. */
export const scan = (e: EntrySession, authorization: string, overrides: object = {}, app = ctx.app) =>
  inject(
    app,
    "POST",
    "/api/v1/sessions/door/scan",
    { authorization },
    {
      session_id: e.session_id,
      session_token: e.session_token,
      store_id: e.store_id,
      ...overrides,
    },
  );
/** What the phone is told about the door. */
export const status = (sessionId: string, token: string) =>
  inject(ctx.app, "GET", `/api/v1/sessions/${sessionId}/door-status`, { authorization: `Bearer ${token}` });

/**
 * Starts the app with the dev tools on, two stores and a door scanner key for
 * each, for the test file that calls it.
 */
export function useDoorApp(): void {
  beforeAll(async () => {
    ctx = await createTestContext({ DEV_TOOLS: "true", ENTRY_TOKEN_TTL_SECONDS: "600" });
    admin = as(ctx.app, (await signIn(ctx.app)).cookie);
    storeA = (await admin.post("/api/v1/stores/", { name: "Butik A", address: "Storgatan 1", city: "Lund" })).json().id;
    storeB = (await admin.post("/api/v1/stores/", { name: "Butik B" })).json().id;
    keyA = (await admin.post(`/api/v1/stores/${storeA}/device-keys`, { kind: "door_scanner", label: "Entré" })).json()
      .key;
    keyB = (await admin.post(`/api/v1/stores/${storeB}/device-keys`, { kind: "door_scanner" })).json().key;
  });
  afterAll(() => ctx.close());
}
