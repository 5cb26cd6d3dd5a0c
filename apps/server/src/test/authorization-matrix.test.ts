import { errorSchema } from "@glide/contracts";
import { sql } from "drizzle-orm";
import type { InjectOptions } from "fastify";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_COOKIE } from "../features/admin-auth/admin-auth.hooks.ts";
import { PRICING_MATRIX } from "./authorization-matrix.pricing-rows.ts";
import {
  CALLERS,
  type Caller,
  type Fixtures,
  MATRIX as MAIN_MATRIX,
  METRICS_TOKEN,
} from "./authorization-matrix.rows.ts";
import {
  as,
  createDeviceKey,
  createTestContext,
  putVisitIn,
  signIn,
  signInShopper,
  type TestContext,
} from "./harness.ts";
import { fillPath, listOperations, type Operation } from "./route-table.ts";

/** Every route the app serves: the main rows and the pricing rows. */
const MATRIX = { ...MAIN_MATRIX, ...PRICING_MATRIX };

/**
 * Who may call what, for every route the app serves: each route of the
 * OpenAPI document and of Fastify's route table (hidden ones too) must have a
 * row here. The callers hold real credentials, and the ids in the paths are
 * real rows of a store that is not theirs, so 403 and 404 mean what they say.
 */

let ctx: TestContext;
let fixtures: Fixtures;
let operations: Operation[];
const credentials = {} as Record<Caller, Record<string, string>>;
let storeB: string;

async function signInCallers() {
  const platform = await signIn(ctx.app);
  const storeAdmin = await signIn(ctx.app, "store_admin", [storeB]);
  const shopper = await signInShopper(ctx.app, "Matris Shopper");
  const device = await createDeviceKey(ctx.app, storeB);
  credentials.anonymous = {};
  credentials.shopper = { authorization: `Bearer ${shopper.accessToken}` };
  credentials.device = { authorization: `Device ${device.key}` };
  credentials.storeAdmin = { cookie: `${ADMIN_COOKIE}=${storeAdmin.cookie}` };
  credentials.platformAdmin = { cookie: `${ADMIN_COOKIE}=${platform.cookie}` };
}

beforeAll(async () => {
  ctx = await createTestContext({ DEV_TOOLS: "true", METRICS_TOKEN });
  const admin = await signIn(ctx.app);
  const api = as(ctx.app, admin.cookie);
  const created = async (url: string, body: unknown) => {
    const res = await api.post(url, body);
    if (res.statusCode !== 201) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  };
  const a = (await created("/api/v1/stores/", { name: "Butik A" })).id;
  storeB = (await created("/api/v1/stores/", { name: "Butik B" })).id;
  const toDelete = (await created("/api/v1/stores/", { name: "Butik som tas bort" })).id;
  const barcode = "7310865004703";
  const product = (await created("/api/v1/products/", { sku: "MATRIX-A", name: "Vara", price: 5, barcodes: [barcode] }))
    .id;
  const productToDelete = (await created("/api/v1/products/", { sku: "MATRIX-DEL", name: "Vara", price: 5 })).id;
  const moduleId = (await api.get(`/api/v1/stores/${a}/modules`)).json()[0].module_id;
  const image = await sharp({ create: { width: 2, height: 2, channels: 3, background: "#3a7" } })
    .png()
    .toBuffer();
  const upload = await ctx.app.inject({
    method: "POST",
    url: "/api/v1/products/images",
    payload: image,
    headers: { "content-type": "image/png", cookie: `${ADMIN_COOKIE}=${admin.cookie}` },
  });
  const other = await signInShopper(ctx.app, "Annan Shopper");
  const entry = await ctx.app.inject({
    method: "POST",
    url: "/api/v1/sessions/entry",
    payload: { store_id: a },
    headers: { authorization: `Bearer ${other.accessToken}` },
  });
  const visit = await ctx.app.inject({
    method: "POST",
    url: "/api/v1/sessions/entry",
    payload: { store_id: a },
    headers: { authorization: `Bearer ${other.accessToken}` },
  });
  const visitId = visit.json().session_id;
  await ctx.app.db.execute(
    sql`update shopping_sessions set door_opened_at = now(), entry_used_at = now(), state = 'in_store' where id = ${visitId}`,
  );
  const scanned = await ctx.app.inject({
    method: "POST",
    url: "/api/v1/cart/scan",
    payload: { session_id: visitId, barcode },
    headers: { authorization: `Bearer ${other.accessToken}` },
  });
  if (scanned.statusCode !== 200) throw new Error(`cart scan: ${scanned.statusCode} ${scanned.body}`);
  const system = (
    await created("/api/v1/cameras/systems", {
      name: "NVR A",
      connection_type: "onvif",
      host: "127.0.0.1",
      port: 1,
      store_id: a,
    })
  ).id;
  const camera = (await created("/api/v1/cameras/cameras", { name: "Kamera A", camera_system_id: system })).id;
  const systemToDelete = (
    await created("/api/v1/cameras/systems", { name: "NVR bort", host: "127.0.0.1", port: 1, store_id: a })
  ).id;
  const cameraToDelete = (await created("/api/v1/cameras/cameras", { name: "Kamera bort", camera_system_id: system }))
    .id;
  const [snapshot] = (
    (await ctx.app.db.execute(
      sql`insert into camera_snapshots (camera_id, content_type, image) values (${camera}, 'image/jpeg', ${Buffer.from([0xff, 0xd8, 0xff, 0xd9])}) returning id`,
    )) as unknown as { rows: { id: string }[] }
  ).rows;
  fixtures = {
    system,
    camera,
    systemToDelete,
    cameraToDelete,
    snapshot: snapshot!.id,
    visit: visitId,
    cartItem: scanned.json().item.id,
    storeA: a,
    storeToDelete: toDelete,
    moduleId,
    deviceKeyToDelete: (await createDeviceKey(ctx.app, a)).id,
    product,
    productToDelete,
    barcode,
    image,
    imageName: String(upload.json().image_url).split("/").pop() ?? "",
    adminEmail: admin.email,
    session: { id: entry.json().session_id, token: entry.json().session_token },
    refreshToken: async () => (await signInShopper(ctx.app, "Token Shopper")).refreshToken,
  };
  // --- issue 12: fixtures made here (each helper adds its own block below) ---
  {
    const rows = async (query: ReturnType<typeof sql>) =>
      ((await ctx.app.db.execute(query)) as unknown as { rows: { id: string }[] }).rows;
    const [order] = await rows(
      sql`insert into orders (store_id, state, total_ore, vat_ore, store_name, receipt_number, paid_at, payment_intent_id)
          values (${a}, 'paid', 1000, 200, 'Butik A', 1, now(), 'pi_matrix') returning id`,
    );
    const [dispute] = await rows(
      sql`insert into disputes (order_id, store_id, message) values (${order!.id}, ${a}, 'Fel') returning id`,
    );
    const [check] = await rows(
      sql`insert into spot_checks (order_id, store_id) values (${order!.id}, ${a}) returning id`,
    );
    Object.assign(fixtures, { paidOrder: order!.id, dispute: dispute!.id, spotCheck: check!.id });
  }
  // --- issue 22: fixtures ---
  {
    const inside = await signInShopper(ctx.app, "Utsläppt Shopper");
    const code = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/sessions/entry",
      payload: { store_id: a },
      headers: { authorization: `Bearer ${inside.accessToken}` },
    });
    fixtures.visitToLetOut = code.json().session_id;
    await putVisitIn(ctx.app.db, fixtures.visitToLetOut!, "in_store");
  }
  // --- issue 24: fixtures ---
  {
    const period = (body: object) => created("/api/v1/vat-rates", body).then((r: { id: string }) => r.id);
    fixtures.vatRate = await period({ country: "NO", category: "food", rate: 15, valid_from: "2024-01-01" });
    fixtures.vatRateToDelete = await period({ country: "NO", category: "exempt", rate: 0, valid_from: "2024-01-01" });
  }
  // --- issue 24: campaigns of store A ---
  {
    const campaign = () =>
      created("/api/v1/campaigns", {
        product_id: product,
        store_id: a,
        price: 1,
        starts_on: "2030-01-01",
        ends_on: "2030-01-31",
      }).then((r: { id: string }) => r.id);
    fixtures.campaign = await campaign();
    fixtures.campaignToDelete = await campaign();
  }
  // --- issue 24: multi-buy offers of store A ---
  {
    const offer = () =>
      created("/api/v1/offers", {
        label: "3 för 2",
        kind: "one_free",
        buy: 3,
        product_ids: [product],
        store_id: a,
        starts_on: "2030-01-01",
        ends_on: "2030-01-31",
        limit_per_visit: 1,
      }).then((r: { id: string }) => r.id);
    fixtures.offer = await offer();
    fixtures.offerToDelete = await offer();
  }
  // --- issue 24: store A's own price of the product, for the platform admin's DELETE ---
  {
    const set = await api.put(`/api/v1/stores/${a}/prices/${product}`, { price: 4.5 });
    if (set.statusCode !== 200) throw new Error(`store price: ${set.statusCode} ${set.body}`);
  }
  // --- price groups: store A in one, with the product's price in it; another group to delete ---
  {
    const group = (name: string) => created("/api/v1/price-groups", { name }).then((r: { id: string }) => r.id);
    fixtures.priceGroup = await group("Matrisgrupp");
    fixtures.priceGroupToDelete = await group("Matrisgrupp att ta bort");
    const put = await api.put(`/api/v1/stores/${a}/price-group`, { price_group_id: fixtures.priceGroup });
    if (put.statusCode !== 200) throw new Error(`price group: ${put.statusCode} ${put.body}`);
    const set = await api.put(`/api/v1/price-groups/${fixtures.priceGroup}/prices/${product}`, { price: 4 });
    if (set.statusCode !== 200) throw new Error(`group price: ${set.statusCode} ${set.body}`);
  }
  fixtures.auditEntry = String((await api.get(`/api/v1/admin/audit?action=store.create&entity_id=${a}`)).json()[0].id);
  await signInCallers();
  operations = await listOperations(ctx.app);
});
afterAll(() => ctx?.close());

function isApiError(body: string): boolean {
  try {
    return errorSchema.strict().safeParse(JSON.parse(body)).success;
  } catch {
    return false;
  }
}

function matches(expected: string, status: number): boolean {
  return expected === "2xx" ? status >= 200 && status < 300 : String(status) === expected;
}

describe("authorization matrix", () => {
  it("has a row for every route the app serves, and none for a route that is gone", () => {
    const keys = operations.map((op) => op.key);
    const missing = keys.filter((key) => !(key in MATRIX));
    expect(
      missing,
      "New routes: add each to MATRIX in apps/server/src/test/authorization-matrix.test.ts with the answer every caller should get",
    ).toEqual([]);
    expect(
      Object.keys(MATRIX).filter((key) => !keys.includes(key)),
      "Rows for routes that no longer exist",
    ).toEqual([]);
  });

  it("gives each caller the answer its row expects", async () => {
    const wrong: string[] = [];
    for (const op of operations) {
      const row = MATRIX[op.key];
      if (!row) continue;
      const expected = row.expect.split(" ");
      expect(expected, `${op.key}: one answer per caller`).toHaveLength(CALLERS.length);
      for (const [i, caller] of CALLERS.entries()) {
        const body = row.body ? await row.body(fixtures) : undefined;
        const headers: Record<string, string> = { ...credentials[caller] };
        if (row.contentType) headers["content-type"] = row.contentType;
        const res = await ctx.app.inject({
          method: op.method as InjectOptions["method"],
          url: fillPath(op.path, row.params?.(fixtures) ?? {}) + (row.query ?? ""),
          headers,
          ...(body !== undefined ? { payload: body as InjectOptions["payload"] } : {}),
        });
        if (!matches(expected[i]!, res.statusCode)) {
          wrong.push(
            `${op.key} as ${caller}: expected ${expected[i]}, got ${res.statusCode} ${res.body.slice(0, 160)}`,
          );
        } else if (res.statusCode >= 400 && !isApiError(res.body)) {
          wrong.push(`${op.key} as ${caller}: ${res.statusCode} is not {detail, code}: ${res.body.slice(0, 160)}`);
        }
        if (row.signsOut) await signInCallers();
      }
    }
    expect(wrong).toEqual([]);
  });
});
