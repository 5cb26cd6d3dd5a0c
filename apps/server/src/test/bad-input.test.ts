import { errorSchema } from "@glide/contracts";
import { sql } from "drizzle-orm";
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import { queryRows } from "../db/client.ts";
import { ADMIN_COOKIE } from "../features/admin-auth/admin-auth.hooks.ts";
import { probes, real, VALID_BODIES } from "./bad-input.probes.ts";
import { shopper as newShopper, shop, walkIn } from "./factories.ts";
import {
  as,
  createDeviceKey,
  createTestContext,
  putVisitIn,
  signIn,
  signInShopper,
  type TestContext,
} from "./harness.ts";
import { startPaymentHarness } from "./payments.ts";
import { listOperations, type Operation } from "./route-table.ts";

/**
 * Every route, fed malformed paths, queries and bodies generated from its
 * OpenAPI schemas: no answer is a 5xx, every error is `{detail, code}`, and a
 * refused write leaves every table as it was.
 */

/**
 * Rows a refused request may write by design: sessions slide on every
 * request, rate limits and login counters count refused attempts, and the
 * door records every scan. A background job's timer claims its rounds in
 * job_rounds whatever requests come.
 */
const WRITTEN_ON_ANY_REQUEST = new Set(["admin_sessions", "rate_limits", "job_rounds"]);
const MAY_WRITE_WHEN_REFUSED: Record<string, string[]> = {
  "POST /api/v1/admin/login": ["admin_users"],
  "POST /api/v1/sessions/door/scan": ["door_events", "store_device_keys"],
  // A pant machine's key is marked used before the code it sent is read.
  "POST /api/v1/pant-vouchers": ["store_device_keys"],
  // The gate's refusal of a real exit code is on the visit's timeline.
  "POST /api/v1/exit/scan": ["session_events"],
  // A camera that answers it has no PTZ is remembered, so the screen disables the pad.
  "POST /api/v1/cameras/cameras/:id/ptz": ["cameras"],
  "GET /api/v1/cameras/cameras/:id/ptz/presets": ["cameras"],
};

/**
 * A row trigger on every table logs each committed row change; a rolled-back
 * transaction takes its log rows with it, so only real (half-)writes show.
 */
async function logWrites(): Promise<void> {
  await ctx.app.db.execute(sql`create table test_write_log (table_name text not null)`);
  await ctx.app.db.execute(
    sql.raw(`create function test_log_write() returns trigger language plpgsql as $$
      begin insert into test_write_log values (TG_TABLE_NAME); return null; end $$`),
  );
  const rows = await queryRows<{ table_name: string }>(
    ctx.app.db,
    sql`select table_name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' and table_name <> 'test_write_log'`,
  );
  for (const { table_name: t } of rows) {
    if (WRITTEN_ON_ANY_REQUEST.has(t)) continue;
    await ctx.app.db.execute(
      sql.raw(`create trigger test_log_write after insert or update or delete on "${t}"
               for each row execute function test_log_write()`),
    );
  }
}

/** The tables written since the last call. */
async function writtenTables(): Promise<string[]> {
  const rows = await queryRows<{ table_name: string }>(
    ctx.app.db,
    sql`delete from test_write_log returning table_name`,
  );
  return [...new Set(rows.map((r) => r.table_name))].sort();
}

/** Signs the admin in again if a route (logout) ended the session. */
async function keepSignedIn(): Promise<void> {
  const me = await ctx.app.inject({ method: "GET", url: "/api/v1/admin/me", headers });
  if (me.statusCode === 200) return;
  headers.cookie = `${ADMIN_COOKIE}=${(await signIn(ctx.app)).cookie}`;
}

// Set up before the tests are collected, so each route is a test of its own.
const pay = await startPaymentHarness();
const ctx: TestContext = await createTestContext({
  DEV_TOOLS: "true",
  STRIPE_SECRET_KEY: pay.simulator.secretKey,
  STRIPE_API_BASE: pay.apiBase,
});
const admin = await signIn(ctx.app);
const api = as(ctx.app, admin.cookie);
/** A request that must succeed while the rows are made; its JSON. */
const made = async (res: LightMyRequestResponse) => {
  if (res.statusCode >= 300) throw new Error(`setup: ${res.statusCode} ${res.body}`);
  return res.json();
};
real.store = (await made(await api.post("/api/v1/stores/", { name: "Butik" }))).id;
real.store_id = real.store!;
real.code = "7310865004703";
real.product = (
  await made(await api.post("/api/v1/products/", { sku: "BI-A", name: "Vara", price: 5, barcodes: [real.code] }))
).id;
real.moduleId = (await api.get(`/api/v1/stores/${real.store}/modules`)).json()[0].module_id;
real.category = "store";
real.key = "types";
real.keyId = (await createDeviceKey(ctx.app, real.store!, "exit_gate")).id;
real.system = (
  await made(
    await api.post("/api/v1/cameras/systems", { name: "System", host: "127.0.0.1", port: 1, store_id: real.store }),
  )
).id;
real.camera = (
  await made(await api.post("/api/v1/cameras/cameras", { name: "Kamera", camera_system_id: real.system }))
).id;
real.snapshot = (
  await queryRows<{ id: string }>(
    ctx.app.db,
    sql`insert into camera_snapshots (camera_id, content_type, image) values (${real.camera}, 'image/jpeg', '\\xffd8ffd9'::bytea) returning id`,
  )
)[0]!.id;
// No timed health round in the middle of a probe: one now, then none for an hour (a camera change probes only what changed).
await made(await api.put("/api/v1/settings/camera/health_check_interval", { value: 3600 }));
ctx.app.cameraHealth.kick();
await ctx.app.cameraHealth.idle();
const shopper = await signInShopper(ctx.app);
const headers: Record<string, string> = {
  cookie: `${ADMIN_COOKIE}=${admin.cookie}`,
  authorization: `Bearer ${shopper.accessToken}`,
};
const asShopper = (method: InjectOptions["method"], url: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: { authorization: headers.authorization! }, ...(payload ? { payload } : {}) });
/** Into the store through the door, with `units` of the product in the cart. */
async function visit(units: number): Promise<string> {
  const id = (await made(await asShopper("POST", "/api/v1/sessions/entry", { store_id: real.store! }))).session_id;
  await ctx.app.db.execute(
    sql`update shopping_sessions set door_opened_at = now(), entry_used_at = now(), state = 'in_store' where id = ${id}`,
  );
  for (let i = 0; i < units; i++)
    await made(await asShopper("POST", "/api/v1/cart/scan", { session_id: id, barcode: real.code! }));
  return id;
}
// A paid visit (an order to refund, a receipt to dispute, a spot check to decide), then an open one to shop in.
await made(await asShopper("PUT", "/api/v1/payment-method", { payment_method: "pm_card_visa" }));
real.paid_session = await visit(20);
const receipt = (await made(await asShopper("POST", "/api/v1/checkout", { user_id: shopper.customerId }))).receipt;
real.order = receipt.id;
real.order_line = (await made(await api.get(`/api/v1/admin/orders/${real.order}/refunds`))).lines[0].id;
real.dispute = (
  await made(await asShopper("POST", `/api/v1/receipts/${real.order}/dispute`, { message: "Fel pris" }))
).id;
real.spot_check = (
  await queryRows<{ id: string }>(
    ctx.app.db,
    sql`insert into spot_checks (session_id, order_id, store_id, customer_id)
        values (${real.paid_session}, ${real.order}, ${real.store}, ${shopper.customerId}) returning id`,
  )
)[0]!.id;
/** Another shopper's visit left unpaid, for staff to charge or write off (its shopper could enter nowhere now). */
async function unpaidVisit(name: string): Promise<string> {
  const owing = await newShopper(ctx.app, { name });
  const id = await shop(ctx.app, owing, real.store!, [[real.code!, 1]]);
  await putVisitIn(ctx.app.db, id, "left_unpaid");
  return id;
}
real.unpaid_session = await unpaidVisit("Obetald Olle");
real.unpaid_session_to_write_off = await unpaidVisit("Obetald Ossian");
/** Another shopper inside the store, for staff to let out. */
real.session_to_let_out = await walkIn(ctx.app, await newShopper(ctx.app, { name: "Inne Ingrid" }), real.store!);
await visit(1);
real.undisputed_order = (
  await made(await asShopper("POST", "/api/v1/checkout", { user_id: shopper.customerId }))
).receipt.id;
real.vat_rate = (
  await made(
    await api.post("/api/v1/vat-rates", { country: "NO", category: "standard", rate: 25, valid_from: "2080-01-01" }),
  )
).id;
real.price_group = (await made(await api.post("/api/v1/price-groups", { name: "Grupp" }))).id;
real.campaign = (
  await made(
    await api.post("/api/v1/campaigns", {
      product_id: real.product,
      store_id: real.store,
      price: 1,
      starts_on: "2090-01-01",
      ends_on: "2090-01-31",
    }),
  )
).id;
real.offer = (
  await made(
    await api.post("/api/v1/offers", {
      label: "3 för 2",
      kind: "one_free",
      buy: 3,
      product_ids: [real.product],
      store_id: real.store,
      starts_on: "2090-01-01",
      ends_on: "2090-01-31",
      limit_per_visit: null,
    }),
  )
).id;
real.audit = String((await made(await api.get("/api/v1/admin/audit?limit=1")))[0].id);
real.session_id = await visit(1);
real.item_id = (await made(await asShopper("GET", `/api/v1/cart/${real.session_id}`))).items[0].id;
/** The devices' routes are probed with a key of their kind, so the probes reach past the key. */
const deviceHeaders: Record<string, { authorization: string }> = {
  "POST /api/v1/sessions/door/scan": { authorization: `Device ${(await createDeviceKey(ctx.app, real.store!)).key}` },
  "POST /api/v1/pant-vouchers": {
    authorization: `Device ${(await createDeviceKey(ctx.app, real.store!, "pant_machine")).key}`,
  },
};
const operations: Operation[] = await listOperations(ctx.app);
await logWrites();
afterAll(async () => {
  await ctx.close();
  await pay.close();
});

function problem(op: Operation, res: LightMyRequestResponse): string | null {
  // An outside system that is not configured here (BankID) is the one 5xx a route may declare.
  const declared = op.responses.filter((s) => s.startsWith("5") && s !== "500");
  if (res.statusCode >= 500 && !declared.includes(String(res.statusCode))) return `answered ${res.statusCode}`;
  if (res.statusCode < 400) return null;
  let body: unknown;
  try {
    body = res.json();
  } catch {
    return `error is not JSON: ${res.body.slice(0, 80)}`;
  }
  if (!errorSchema.strict().safeParse(body).success) return `error is not {detail, code}: ${res.body.slice(0, 120)}`;
  if (/\bat .*\.ts:\d+|\b(select|insert into|update .* set)\b/i.test((body as { detail: string }).detail)) {
    return `error leaks internals: ${res.body.slice(0, 120)}`;
  }
  return null;
}

describe("bad input on every route: no 5xx, errors as {detail, code}, nothing half-written", () => {
  it("covers every route of the app and sees every write", async () => {
    expect(operations.length).toBeGreaterThan(40);
    await writtenTables();
    await as(ctx.app, admin.cookie).put(`/api/v1/stores/${real.store}`, { city: "Lund" });
    expect(await writtenTables()).toContain("stores");
    expect(await writtenTables()).toEqual([]);
  });

  for (const op of operations) {
    it(op.key, { timeout: 60_000 }, async () => {
      const found: string[] = [];
      const allowed = new Set(MAY_WRITE_WHEN_REFUSED[op.key] ?? []);
      let accepted = 0;
      await writtenTables();
      for (const probe of probes(op)) {
        const res = await ctx.app
          .inject({
            method: op.method as InjectOptions["method"],
            url: probe.url,
            headers: {
              ...(probe.headers ?? deviceHeaders[op.key] ?? headers),
              ...(probe.contentType ? { "content-type": probe.contentType } : {}),
            },
            ...(probe.payload !== undefined ? { payload: probe.payload } : {}),
          })
          // A reply that breaks off after its headers (a stream that failed) rejects here.
          .catch((err: Error) => err);
        if (res instanceof Error) {
          found.push(`[${probe.label}]: the answer broke off: ${res.message}`);
          continue;
        }
        // A camera change probes what changed and records the devices' state: let it finish here, not in the next probe.
        await ctx.app.cameraHealth.idle();
        if (res.statusCode < 300) accepted++;
        const wrong = problem(op, res);
        if (wrong) found.push(`[${probe.label}]: ${wrong}`);
        const written = (await writtenTables()).filter((t) => !allowed.has(t));
        if (res.statusCode >= 400 && written.length) {
          found.push(`[${probe.label}]: refused with ${res.statusCode} but wrote ${written.join(", ")}`);
        }
      }
      await keepSignedIn();
      expect(found).toEqual([]);
      // Some variations are still valid (an extra field, a tab in a name): they prove the probes reach the handler.
      if (op.key in VALID_BODIES) expect(accepted, "no probe reached the handler").toBeGreaterThan(0);
    });
  }
});
