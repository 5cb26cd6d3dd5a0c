import { randomBytes } from "node:crypto";
import { cartSchema, gtinCheckDigit } from "@glide/contracts";
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import { queryRows } from "../../db/client.ts";
import { sha256 } from "../../platform/crypto.ts";
import { shopper as newShopper } from "../../test/factories.ts";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";

/**
 * What the cart tests share: one app per test file (opened by
 * `openCartTests`), a store with age verification and one without, the
 * products below, and the shopper's and the recognition worker's calls.
 */
/** A barcode: the 12 digits given and their check digit. */
export const ean = (body12: string) => body12 + gtinCheckDigit(body12);

export let ctx: TestContext;
export let admin: ReturnType<typeof as>;
export let store: string;
export let plainStore: string;
/** The products made for the file, by name: milk, bread, snus, old, mince and cake. */
export const products: Record<string, { id: string; barcode: string }> = {};

/** A shopper as these tests call the API: their token and customer id. */
export type Shopper = { token: string; customerId: string };

/** A shopper born on `birthDate`, without a card. */
export async function shopperBorn(birthDate: string): Promise<Shopper> {
  const who = await newShopper(ctx.app, { card: null, name: "Kim Kund", birthDate });
  return { token: who.token, customerId: who.id };
}

/** A visit through the door (or not yet, with entered=false). */
export async function visit(shopper: Shopper, storeId = store, entered = true): Promise<string> {
  const res = await ctx.app.inject({
    method: "POST",
    url: "/api/v1/sessions/entry",
    headers: { authorization: `Bearer ${shopper.token}` },
    payload: { store_id: storeId },
  });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().session_id as string;
  if (entered)
    await ctx.app.db.execute(
      sql`update shopping_sessions set door_opened_at = now(), entry_used_at = now(), state = 'in_store' where id = ${id}`,
    );
  return id;
}

/** A scan from the phone, with its scan id when one is given. */
export const scan = (shopper: Shopper, sessionId: string, barcode: string, scanId?: string) =>
  ctx.app.inject({
    method: "POST",
    url: "/api/v1/cart/scan",
    headers: { authorization: `Bearer ${shopper.token}` },
    payload: { session_id: sessionId, barcode, ...(scanId ? { scan_id: scanId } : {}) },
  });
/** The cart of a visit as its shopper reads it. */
export const cartOf = async (shopper: Shopper, sessionId: string) => {
  const res = await ctx.app.inject({
    method: "GET",
    url: `/api/v1/cart/${sessionId}`,
    headers: { authorization: `Bearer ${shopper.token}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  return cartSchema.parse(res.json());
};
/** A change of one cart line: a new quantity, or its removal. */
export const item = (shopper: Shopper, method: "PUT" | "DELETE", itemId: string, quantity?: number) =>
  ctx.app.inject({
    method,
    url: `/api/v1/cart/item/${itemId}`,
    headers: { authorization: `Bearer ${shopper.token}` },
    ...(quantity !== undefined ? { payload: { quantity } } : {}),
  });

/** A recognition worker's device key for `storeId` (or a key of another kind). */
export async function workerKey(storeId: string, kind = "camera_worker") {
  const key = `gd_${randomBytes(16).toString("hex")}`;
  await ctx.app.db.execute(
    sql`insert into store_device_keys (store_id, kind, key_hash) values (${storeId}, ${kind}, ${sha256(key)})`,
  );
  return key;
}
/** A sighting sent by the recognition worker with `key`. */
export const worker = (key: string | null, body: object) =>
  ctx.app.inject({
    method: "POST",
    url: "/api/v1/cart/worker",
    headers: key ? { authorization: `Device ${key}` } : {},
    payload: body,
  });

async function product(key: string, fields: Record<string, unknown>) {
  const res = await admin.post("/api/v1/products/", {
    sku: `cart-${key}-${randomBytes(3).toString("hex")}`,
    ...fields,
  });
  expect(res.statusCode, res.body).toBe(201);
  products[key] = { id: res.json().id, barcode: fields.barcode as string };
}

/** Turns a store's module on or off. */
export async function setModule(storeId: string, moduleId: string, enabled: boolean) {
  const res = await admin.post(`/api/v1/stores/${storeId}/modules/${moduleId}`, { enabled });
  expect(res.statusCode, res.body).toBe(200);
}

/** Opens this test file's app, its two stores and its products (its `beforeAll`). */
export async function openCartTests(): Promise<void> {
  ctx = await createTestContext();
  admin = as(ctx.app, (await signIn(ctx.app)).cookie);
  store = (await admin.post("/api/v1/stores/", { name: "Kundvagnsbutiken" })).json().id;
  plainStore = (await admin.post("/api/v1/stores/", { name: "Utan åldersmodul" })).json().id;
  await setModule(store, "age_verification", true);
  await setModule(plainStore, "age_verification", false);
  await product("milk", { name: "Mjölk", price: 17.9, barcode: ean("731000000101") });
  await product("bread", { name: "Bröd", price: 32.5, barcode: ean("731000000102") });
  await product("snus", { name: "Snus", price: 59, age_limit: 18, barcode: ean("731000000103") });
  await product("old", { name: "Utgått", price: 10, is_active: false, barcode: ean("731000000104") });
  // Variable-measure items: registered once by their label with value 0000.
  await product("mince", { name: "Färs", price: 129, barcode: ean("230012300000") });
  await product("cake", { name: "Tårta", price: 0, barcode: ean("200045600000") });
}

/** The visit's timeline as the console shows it, oldest first. */
export const eventsOf = (sessionId: string) =>
  queryRows<{ kind: string; source: string; detail: Record<string, unknown> | null }>(
    ctx.app.db,
    sql`select kind, source, detail from session_events where session_id = ${sessionId} and kind <> 'entry_issued'
        order by id`,
  );
