import { randomBytes, randomUUID } from "node:crypto";
import { cartScanResponseSchema, cartSchema, errorSchema, gtinCheckDigit } from "@glide/contracts";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customers } from "../../db/schema/index.ts";
import { sha256 } from "../../platform/crypto.ts";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";
import { issueTokens } from "../shopper-auth/shopper-tokens.ts";
import { checkAgeLimit } from "./cart.service.ts";

const ean = (body12: string) => body12 + gtinCheckDigit(body12);

let ctx: TestContext;
let admin: ReturnType<typeof as>;
let store: string;
let plainStore: string;
const products: Record<string, { id: string; barcode: string }> = {};

type Shopper = { token: string; customerId: string };

async function shopperBorn(birthDate: string): Promise<Shopper> {
  const tag = randomBytes(6).toString("hex");
  const [customer] = await ctx.app.db
    .insert(customers)
    .values({ personalNumberHash: `cart-${tag}`, personalNumberSealed: `cart-${tag}`, name: "Kim Kund", birthDate })
    .returning();
  const tokens = await issueTokens(ctx.app.db, ctx.app.shopperKeys.jwt, customer!);
  return { token: tokens.access_token, customerId: customer!.id };
}

/** A visit through the door (or not yet, with entered=false). */
async function visit(shopper: Shopper, storeId = store, entered = true): Promise<string> {
  const res = await ctx.app.inject({
    method: "POST",
    url: "/api/v1/sessions/entry",
    headers: { authorization: `Bearer ${shopper.token}` },
    payload: { store_id: storeId },
  });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().session_id as string;
  if (entered) await ctx.app.db.execute(sql`update shopping_sessions set door_opened_at = now() where id = ${id}`);
  return id;
}

const scan = (shopper: Shopper, sessionId: string, barcode: string, scanId?: string) =>
  ctx.app.inject({
    method: "POST",
    url: "/api/v1/cart/scan",
    headers: { authorization: `Bearer ${shopper.token}` },
    payload: { session_id: sessionId, barcode, ...(scanId ? { scan_id: scanId } : {}) },
  });
const cartOf = async (shopper: Shopper, sessionId: string) => {
  const res = await ctx.app.inject({
    method: "GET",
    url: `/api/v1/cart/${sessionId}`,
    headers: { authorization: `Bearer ${shopper.token}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  return cartSchema.parse(res.json());
};
const item = (shopper: Shopper, method: "PUT" | "DELETE", itemId: string, quantity?: number) =>
  ctx.app.inject({
    method,
    url: `/api/v1/cart/item/${itemId}`,
    headers: { authorization: `Bearer ${shopper.token}` },
    ...(quantity !== undefined ? { payload: { quantity } } : {}),
  });

async function product(key: string, fields: Record<string, unknown>) {
  const res = await admin.post("/api/v1/products/", {
    sku: `cart-${key}-${randomBytes(3).toString("hex")}`,
    ...fields,
  });
  expect(res.statusCode, res.body).toBe(201);
  products[key] = { id: res.json().id, barcode: fields.barcode as string };
}

async function setModule(storeId: string, moduleId: string, enabled: boolean) {
  const res = await admin.post(`/api/v1/stores/${storeId}/modules/${moduleId}`, { enabled });
  expect(res.statusCode, res.body).toBe(200);
}

beforeAll(async () => {
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
});
afterAll(() => ctx.close());

describe("scanning into the cart", () => {
  it("adds a product, then raises its quantity; the cart and total follow", async () => {
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    const first = await scan(kim, s, products.milk!.barcode);
    expect(first.statusCode, first.body).toBe(200);
    const body = cartScanResponseSchema.parse(first.json());
    expect(body.product).toMatchObject({ id: products.milk!.id, name: "Mjölk" });
    expect(body.item).toMatchObject({ quantity: 1, unit_price: 17.9, total_price: 17.9 });
    const second = cartScanResponseSchema.parse((await scan(kim, s, products.milk!.barcode)).json());
    expect(second.item).toMatchObject({ id: body.item.id, quantity: 2, total_price: 35.8 });
    await scan(kim, s, products.bread!.barcode);
    const cart = await cartOf(kim, s);
    expect(cart.items.map((i) => [i.product.name, i.quantity])).toEqual([
      ["Mjölk", 2],
      ["Bröd", 1],
    ]);
    expect(cart.total).toBe(68.3);
  });

  it("reads the UPC-A and GTIN-14 forms of a code as the same product", async () => {
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    const code = products.bread!.barcode;
    expect((await scan(kim, s, `0${code}`)).json().item.quantity).toBe(1);
    expect((await scan(kim, s, `  ${code} `)).json().item.quantity).toBe(2);
  });

  it("gives a price label's line the printed price, and each label a line of its own", async () => {
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    const label = ean("200045604990"); // 49.90 kr
    const res = await scan(kim, s, label);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().item).toMatchObject({ unit_price: 49.9, quantity: 1, weight_grams: null });
    expect(res.json().product.id).toBe(products.cake!.id);
    await scan(kim, s, ean("200045601250"));
    const cart = await cartOf(kim, s);
    expect(cart.items.map((i) => i.unit_price)).toEqual([49.9, 12.5]);
    expect(cart.total).toBe(62.4);
  });

  it("prices a weight label as weight × price per kilogram, to the öre", async () => {
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    // Prefix 23: kilograms with three decimals, so 4567 is 4.567 kg; × 129 kr/kg = 589.143 → 589.14 kr.
    const res = await scan(kim, s, ean("230012304567"));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().item).toMatchObject({ weight_grams: 4567, unit_price: 589.14, quantity: 1 });
  });

  it("answers unknown, unreadable and inactive codes in Swedish, adding nothing", async () => {
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    const unknown = await scan(kim, s, ean("731999999999"));
    expect(unknown.statusCode).toBe(404);
    expect(errorSchema.parse(unknown.json())).toMatchObject({ code: "unknown_barcode", detail: "Produkt inte hittad" });
    const unreadable = await scan(kim, s, "7310000001010");
    expect(unreadable.statusCode).toBe(422);
    expect(unreadable.json().detail).toMatch(/Streckkoden/);
    const inactive = await scan(kim, s, products.old!.barcode);
    expect(inactive.statusCode).toBe(409);
    expect(inactive.json()).toMatchObject({ code: "product_inactive", detail: "Utgått säljs inte just nu." });
    // A variable-measure code of an item nobody registered is unknown too.
    expect((await scan(kim, s, ean("239999901000"))).statusCode).toBe(404);
    expect((await cartOf(kim, s)).items).toEqual([]);
  });

  it("refuses a visit that has not passed the door, has ended, or whose store closed", async () => {
    const kim = await shopperBorn("1990-05-05");
    const waiting = await visit(kim, store, false);
    const res = await scan(kim, waiting, products.milk!.barcode);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe("not_entered");

    const done = await visit(kim);
    await ctx.app.db.execute(sql`update shopping_sessions set checked_out_at = now() where id = ${done}`);
    expect((await scan(kim, done, products.milk!.barcode)).json().code).toBe("checked_out");

    const closing = (await admin.post("/api/v1/stores/", { name: "Stänger snart" })).json().id;
    const late = await visit(kim, closing);
    expect((await scan(kim, late, products.milk!.barcode)).statusCode).toBe(200);
    expect((await admin.put(`/api/v1/stores/${closing}`, { is_active: false })).statusCode).toBe(200);
    expect((await scan(kim, late, products.milk!.barcode)).json().code).toBe("store_inactive");
  });

  it("lets only the visit's own shopper scan, read or change it", async () => {
    const kim = await shopperBorn("1990-05-05");
    const other = await shopperBorn("1985-01-01");
    const s = await visit(kim);
    const added = (await scan(kim, s, products.milk!.barcode)).json().item.id as string;
    expect((await scan(other, s, products.milk!.barcode)).statusCode).toBe(403);
    const read = await ctx.app.inject({
      method: "GET",
      url: `/api/v1/cart/${s}`,
      headers: { authorization: `Bearer ${other.token}` },
    });
    expect(read.statusCode).toBe(403);
    expect((await item(other, "PUT", added, 5)).statusCode).toBe(403);
    expect((await item(other, "DELETE", added)).statusCode).toBe(403);
    expect((await cartOf(kim, s)).items[0]?.quantity).toBe(1);
    const anonymous = await ctx.app.inject({ method: "GET", url: `/api/v1/cart/${s}` });
    expect(anonymous.statusCode).toBe(401);
    expect((await scan(kim, randomUUID(), products.milk!.barcode)).statusCode).toBe(404);
  });
});

describe("scans sent more than once", () => {
  it("counts a scan_id once, answering the same line", async () => {
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    const id = randomUUID();
    const a = await scan(kim, s, products.milk!.barcode, id);
    const b = await scan(kim, s, products.milk!.barcode, id);
    expect(b.statusCode).toBe(200);
    expect(b.json().item).toEqual(a.json().item);
    expect((await scan(kim, s, products.milk!.barcode, randomUUID())).json().item.quantity).toBe(2);
  });

  it("counts a scan_id once when it arrives many times at once", async () => {
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    const id = randomUUID();
    const answers = await Promise.all(Array.from({ length: 20 }, () => scan(kim, s, products.bread!.barcode, id)));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    expect((await cartOf(kim, s)).items[0]?.quantity).toBe(1);
  });

  it("refuses a scan_id already used in another visit", async () => {
    const kim = await shopperBorn("1990-05-05");
    const id = randomUUID();
    expect((await scan(kim, await visit(kim), products.milk!.barcode, id)).statusCode).toBe(200);
    const again = await scan(kim, await visit(kim), products.milk!.barcode, id);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe("scan_id_reused");
  });

  it("ends 100 parallel scans of one product at quantity 100, on one line", async () => {
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => scan(kim, s, products.milk!.barcode, i % 2 ? randomUUID() : undefined)),
    );
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(100);
    const cart = await cartOf(kim, s);
    expect(cart.items).toHaveLength(1);
    expect(cart.items[0]?.quantity).toBe(100);
    expect(cart.total).toBe(1790);
  });
});

describe("changing quantities", () => {
  it("sets a quantity, removes at 0 and on DELETE, and refuses bad quantities", async () => {
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    const milk = (await scan(kim, s, products.milk!.barcode)).json().item.id as string;
    const bread = (await scan(kim, s, products.bread!.barcode)).json().item.id as string;
    const three = await item(kim, "PUT", milk, 3);
    expect(three.statusCode, three.body).toBe(200);
    expect(cartSchema.parse(three.json()).total).toBe(86.2);
    for (const bad of [-1, 1.5, 1000]) expect((await item(kim, "PUT", milk, bad)).statusCode).toBe(422);
    const zero = cartSchema.parse((await item(kim, "PUT", bread, 0)).json());
    expect(zero.items.map((i) => i.product.name)).toEqual(["Mjölk"]);
    const gone = cartSchema.parse((await item(kim, "DELETE", milk)).json());
    expect(gone).toMatchObject({ items: [], total: 0 });
    expect((await item(kim, "DELETE", milk)).statusCode).toBe(404);
  });

  it("refuses changes once the visit has ended", async () => {
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    const milk = (await scan(kim, s, products.milk!.barcode)).json().item.id as string;
    await ctx.app.db.execute(sql`update shopping_sessions set checked_out_at = now() where id = ${s}`);
    expect((await item(kim, "PUT", milk, 2)).json().code).toBe("checked_out");
    expect((await item(kim, "DELETE", milk)).json().code).toBe("checked_out");
  });
});

describe("age-limited goods", () => {
  it("sells to a shopper of age in a store with age verification, and refuses one under it, in Swedish", async () => {
    const adult = await shopperBorn("1990-05-05");
    expect((await scan(adult, await visit(adult), products.snus!.barcode)).statusCode).toBe(200);
    const teen = await shopperBorn(`${new Date().getFullYear() - 16}-01-01`);
    const res = await scan(teen, await visit(teen), products.snus!.barcode);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: "under_age", detail: "Du måste vara minst 18 år för att köpa Snus." });
  });

  it("refuses age-limited goods in a store without the age_verification module, even to adults", async () => {
    const adult = await shopperBorn("1970-01-01");
    const res = await scan(adult, await visit(adult, plainStore), products.snus!.barcode);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe("age_limited_not_sold");
    expect((await scan(adult, await visit(adult, plainStore), products.milk!.barcode)).statusCode).toBe(200);
  });

  it("counts the birthday itself as of age, on the store's calendar day", () => {
    const session = { age_verification: true, timezone: "Europe/Stockholm" };
    const snus = { name: "Snus", age_limit: 18 };
    // 23:30 UTC on 14 March is already 15 March in Stockholm.
    const now = new Date("2026-03-14T23:30:00Z");
    expect(() => checkAgeLimit({ ...session, birth_date: "2008-03-15" }, snus, now)).not.toThrow();
    expect(() => checkAgeLimit({ ...session, birth_date: "2008-03-16" }, snus, now)).toThrow(/minst 18 år/);
    expect(() => checkAgeLimit({ ...session, birth_date: "2008-03-15", timezone: "UTC" }, snus, now)).toThrow(
      /minst 18 år/,
    );
    expect(() =>
      checkAgeLimit({ ...session, birth_date: "2000-01-01" }, { name: "Mjölk", age_limit: null }, now),
    ).not.toThrow();
  });
});

describe("the recognition worker", () => {
  async function workerKey(storeId: string, kind = "camera_worker") {
    const key = `gd_${randomBytes(16).toString("hex")}`;
    await ctx.app.db.execute(
      sql`insert into store_device_keys (store_id, kind, key_hash) values (${storeId}, ${kind}, ${sha256(key)})`,
    );
    return key;
  }
  const worker = (key: string | null, body: object) =>
    ctx.app.inject({
      method: "POST",
      url: "/api/v1/cart/worker",
      headers: key ? { authorization: `Device ${key}` } : {},
      payload: body,
    });

  it("adds and removes one product in its own store's visits, with the module on", async () => {
    await setModule(store, "ai_product_recognition", true);
    const key = await workerKey(store);
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    const add = { session_id: s, product_id: products.bread!.id, action: "add" };
    expect((await worker(key, add)).statusCode).toBe(200);
    const event = randomUUID();
    expect(cartSchema.parse((await worker(key, { ...add, event_id: event })).json()).items[0]?.quantity).toBe(2);
    expect(cartSchema.parse((await worker(key, { ...add, event_id: event })).json()).items[0]?.quantity).toBe(2);
    const remove = { ...add, action: "remove" };
    expect(cartSchema.parse((await worker(key, remove)).json()).items[0]?.quantity).toBe(1);
    expect(cartSchema.parse((await worker(key, remove)).json()).items).toEqual([]);
    expect((await worker(key, remove)).json().code).toBe("not_in_cart");
    // Age limits hold for the worker too: this store sells snus only to adults, and Kim is one.
    expect((await worker(key, { ...add, product_id: products.snus!.id })).statusCode).toBe(200);
  });

  it("refuses another store's visit, a wrong kind of key, no key, and a store without the module", async () => {
    await setModule(store, "ai_product_recognition", true);
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    const add = { session_id: s, product_id: products.milk!.id, action: "add" };
    expect((await worker(await workerKey(plainStore), add)).statusCode).toBe(403);
    expect((await worker(await workerKey(store, "door_scanner"), add)).statusCode).toBe(401);
    expect((await worker(null, add)).statusCode).toBe(401);
    await setModule(store, "ai_product_recognition", false);
    const off = await worker(await workerKey(store), add);
    expect(off.statusCode).toBe(403);
    expect(off.json().code).toBe("module_disabled");
    expect((await cartOf(kim, s)).items).toEqual([]);
  });
});
