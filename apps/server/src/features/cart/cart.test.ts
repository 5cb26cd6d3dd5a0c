import { randomBytes, randomUUID } from "node:crypto";
import { cartScanResponseSchema, cartSchema, errorSchema, gtinCheckDigit } from "@glide/contracts";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/client.ts";
import { customers } from "../../db/schema/index.ts";
import { sha256 } from "../../platform/crypto.ts";
import {
  as,
  createTestContext,
  listenToSessions,
  putVisitIn,
  signIn,
  TEST_DATABASE_URL,
  type TestContext,
  waitingForLocks,
} from "../../test/harness.ts";
import { issueTokens } from "../shopper-auth/shopper-tokens.ts";
import { cartTopic } from "./cart.events.ts";
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
  if (entered)
    await ctx.app.db.execute(
      sql`update shopping_sessions set door_opened_at = now(), entry_used_at = now(), state = 'in_store' where id = ${id}`,
    );
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

/** A recognition worker's device key for `storeId` (or a key of another kind). */
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
    await putVisitIn(ctx.app.db, done, "ended_empty");
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
    const first = await visit(kim);
    expect((await scan(kim, first, products.milk!.barcode, id)).statusCode).toBe(200);
    await putVisitIn(ctx.app.db, first, "paid");
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
    await putVisitIn(ctx.app.db, s, "ended_empty");
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

/** The visit's timeline as the console shows it, oldest first. */
const eventsOf = (sessionId: string) =>
  queryRows<{ kind: string; source: string; detail: Record<string, unknown> | null }>(
    ctx.app.db,
    sql`select kind, source, detail from session_events where session_id = ${sessionId} and kind <> 'entry_issued'
        order by id`,
  );

describe("every refusal in its own words", () => {
  it("names what is wrong with the visit, in the order a shopper would hear it", async () => {
    const kim = await shopperBorn("1990-05-05");
    const other = await shopperBorn("1990-05-05");
    const refusal = async (res: Awaited<ReturnType<typeof scan>>) => [
      res.statusCode,
      res.json().code,
      res.json().detail,
    ];
    expect(await refusal(await scan(kim, randomUUID(), products.milk!.barcode))).toEqual([
      404,
      "unknown_session",
      "Sessionen finns inte.",
    ]);
    const s = await visit(kim);
    expect(await refusal(await scan(other, s, products.milk!.barcode))).toEqual([
      403,
      "forbidden",
      "Det här är inte din session.",
    ]);
    await putVisitIn(ctx.app.db, s, "paid");
    expect(await refusal(await scan(kim, await visit(kim, store, false), products.milk!.barcode))).toEqual([
      409,
      "not_entered",
      "Du har inte gått in i butiken än. Visa QR-koden vid dörren först.",
    ]);
    const done = await visit(kim);
    await putVisitIn(ctx.app.db, done, "ended_empty");
    expect(await refusal(await scan(kim, done, products.milk!.barcode))).toEqual([
      409,
      "checked_out",
      "Besöket är avslutat. Starta ett nytt besök för att handla.",
    ]);
    const left = await visit(kim);
    await ctx.app.db.execute(
      sql`update shopping_sessions set state = 'ended_empty', abandoned_at = now() where id = ${left}`,
    );
    expect(await refusal(await scan(kim, left, products.milk!.barcode))).toEqual([
      409,
      "visit_abandoned",
      "Besöket avslutades efter en stund utan aktivitet och debiteras inte.",
    ]);
    const owing = await shopperBorn("1990-05-05");
    const unpaid = await visit(owing);
    expect((await scan(owing, unpaid, products.milk!.barcode)).statusCode).toBe(200);
    await putVisitIn(ctx.app.db, unpaid, "left_unpaid");
    expect(await refusal(await scan(owing, unpaid, products.milk!.barcode))).toEqual([
      409,
      "visit_left_unpaid",
      "Besöket avslutades utan betalning. Betala det i appen eller kontakta butiken.",
    ]);
    const closing = (await admin.post("/api/v1/stores/", { name: "Stängd butik" })).json().id;
    const late = await visit(kim, closing);
    expect((await admin.put(`/api/v1/stores/${closing}`, { is_active: false })).statusCode).toBe(200);
    expect(await refusal(await scan(kim, late, products.milk!.barcode))).toEqual([
      409,
      "store_inactive",
      "Butiken är stängd just nu.",
    ]);
    // A code that is no barcode at all is heard only once the visit itself is fine.
    expect(await refusal(await scan(other, s, "12345"))).toEqual([403, "forbidden", "Det här är inte din session."]);
    expect(await refusal(await scan(kim, await visit(kim), "12345"))).toEqual([
      422,
      "invalid_barcode",
      "Streckkoden gick inte att läsa. Försök igen.",
    ]);
    for (const ended of [done, left, late]) expect((await cartOf(kim, ended)).items).toEqual([]);
  });

  it("answers reading another's cart, or none, and changing a line that is not there", async () => {
    const kim = await shopperBorn("1990-05-05");
    const other = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    const read = (who: Shopper, id: string) =>
      ctx.app.inject({ method: "GET", url: `/api/v1/cart/${id}`, headers: { authorization: `Bearer ${who.token}` } });
    expect((await read(kim, randomUUID())).json()).toMatchObject({
      code: "unknown_session",
      detail: "Sessionen finns inte.",
    });
    const theirs = await read(other, s);
    expect([theirs.statusCode, theirs.json()]).toMatchObject([
      403,
      { code: "forbidden", detail: "Det här är inte din session." },
    ]);
    for (const res of [await item(kim, "PUT", randomUUID(), 2), await item(kim, "DELETE", randomUUID())]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: "unknown_item", detail: "Varan finns inte i kundvagnen." });
    }
  });

  it("says why age-limited goods are not sold in a store without age verification", async () => {
    const adult = await shopperBorn("1970-01-01");
    const s = await visit(adult, plainStore);
    const res = await scan(adult, s, products.snus!.barcode);
    expect(res.json()).toMatchObject({
      code: "age_limited_not_sold",
      detail: "Snus har åldersgräns (18 år) och säljs inte i den här butiken.",
    });
    expect((await cartOf(adult, s)).items).toEqual([]);
  });

  it("adds nothing for an under-age shopper, not even for a moment", async () => {
    const teen = await shopperBorn(`${new Date().getFullYear() - 16}-01-01`);
    const s = await visit(teen);
    expect((await scan(teen, s, products.snus!.barcode)).json().code).toBe("under_age");
    expect((await cartOf(teen, s)).items).toEqual([]);
    expect(await eventsOf(s)).toEqual([]);
  });
});

describe("scan ids whose line is gone or whose visit is another", () => {
  it("answers a scan id again after its line was removed as already counted, adding nothing", async () => {
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    const id = randomUUID();
    const line = (await scan(kim, s, products.milk!.barcode, id)).json().item.id as string;
    expect((await item(kim, "DELETE", line)).statusCode).toBe(200);
    const again = await scan(kim, s, products.milk!.barcode, id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: "scan_already_counted", detail: "Skanningen är redan registrerad." });
    expect((await cartOf(kim, s)).items).toEqual([]);
  });

  it("says a scan id belongs to another visit", async () => {
    const kim = await shopperBorn("1990-05-05");
    const id = randomUUID();
    const first = await visit(kim);
    await scan(kim, first, products.milk!.barcode, id);
    await putVisitIn(ctx.app.db, first, "paid");
    const again = await scan(kim, await visit(kim), products.milk!.barcode, id);
    expect(again.json()).toMatchObject({ code: "scan_id_reused", detail: "Skanningen hör till ett annat besök." });
  });
});

describe("what each change records and announces", () => {
  it("a scan: one item_added from the phone with the product, the code and the line's quantity", async () => {
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    const bus = await listenToSessions(ctx.app);
    const id = randomUUID();
    await scan(kim, s, products.milk!.barcode, id);
    await scan(kim, s, products.milk!.barcode, id); // the same scan again adds and records nothing
    await scan(kim, s, products.milk!.barcode);
    const label = ean("200045604990");
    await scan(kim, s, label);
    const milk = { product: "Mjölk", product_id: products.milk!.id, quantity: 1, barcode: products.milk!.barcode };
    expect(await eventsOf(s)).toEqual([
      { kind: "item_added", source: "phone", detail: { ...milk, line_quantity: 1, label: false } },
      { kind: "item_added", source: "phone", detail: { ...milk, line_quantity: 2, label: false } },
      {
        kind: "item_added",
        source: "phone",
        detail: {
          product: "Tårta",
          product_id: products.cake!.id,
          quantity: 1,
          line_quantity: 1,
          barcode: label,
          label: true,
        },
      },
    ]);
    await bus.settle();
    bus.stop();
    expect(bus.of(s, "item_added")).toEqual(Array(3).fill({ store_id: store, session_id: s, kind: "item_added" }));
  });

  it("a quantity change and a removal: from, to and what went, from the phone; an unchanged quantity is neither", async () => {
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    const line = (await scan(kim, s, products.bread!.barcode)).json().item.id as string;
    const bus = await listenToSessions(ctx.app);
    expect((await item(kim, "PUT", line, 3)).statusCode).toBe(200);
    expect((await item(kim, "PUT", line, 3)).statusCode).toBe(200);
    expect((await item(kim, "DELETE", line)).statusCode).toBe(200);
    const bread = { product: "Bröd", product_id: products.bread!.id };
    expect((await eventsOf(s)).slice(1)).toEqual([
      { kind: "quantity_changed", source: "phone", detail: { ...bread, from: 1, to: 3 } },
      { kind: "item_removed", source: "phone", detail: { ...bread, quantity: 3 } },
    ]);
    await bus.settle();
    bus.stop();
    // The scan's own announcement may still be on its way; what the changes told is one each.
    const told = bus.of(s).filter((m) => m.kind !== "item_added");
    expect(told).toEqual([
      { store_id: store, session_id: s, kind: "quantity_changed" },
      { store_id: store, session_id: s, kind: "item_removed" },
    ]);
  });

  it("two removals of one line at once: one takes it, the other finds it gone; one event", async () => {
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    const line = (await scan(kim, s, products.bread!.barcode)).json().item.id as string;
    const answers = await Promise.all(Array.from({ length: 10 }, () => item(kim, "DELETE", line)));
    expect(answers.every((r) => r.statusCode === 200 || r.statusCode === 404)).toBe(true);
    expect(answers.filter((r) => r.statusCode === 200).length).toBeGreaterThanOrEqual(1);
    expect((await eventsOf(s)).filter((e) => e.kind === "item_removed")).toHaveLength(1);
    expect((await cartOf(kim, s)).items).toEqual([]);
  });
});

describe("the recognition worker's refusals and records", () => {
  it("answers each refusal with its code and words, changing nothing", async () => {
    await setModule(store, "ai_product_recognition", true);
    const key = await workerKey(store);
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    const add = { session_id: s, product_id: products.milk!.id, action: "add" };
    const refusal = async (res: Awaited<ReturnType<typeof worker>>) => [
      res.statusCode,
      res.json().code,
      res.json().detail,
    ];
    expect(await refusal(await worker(await workerKey(plainStore), add))).toEqual([
      403,
      "wrong_store",
      "The session belongs to another store",
    ]);
    expect(await refusal(await worker(key, { ...add, session_id: randomUUID() }))).toEqual([
      404,
      "unknown_session",
      "Sessionen finns inte.",
    ]);
    expect(await refusal(await worker(key, { ...add, product_id: randomUUID() }))).toEqual([
      404,
      "unknown_product",
      "Unknown product",
    ]);
    expect(await refusal(await worker(key, { ...add, product_id: products.old!.id }))).toEqual([
      409,
      "product_inactive",
      "Utgått säljs inte just nu.",
    ]);
    expect(await refusal(await worker(key, { ...add, action: "remove" }))).toEqual([
      404,
      "not_in_cart",
      "Mjölk finns inte i kundvagnen.",
    ]);
    const teen = await shopperBorn(`${new Date().getFullYear() - 16}-01-01`);
    const young = await visit(teen);
    expect(await refusal(await worker(key, { ...add, session_id: young, product_id: products.snus!.id }))).toEqual([
      403,
      "under_age",
      "Du måste vara minst 18 år för att köpa Snus.",
    ]);
    await setModule(store, "ai_product_recognition", false);
    expect(await refusal(await worker(key, add))).toEqual([
      403,
      "module_disabled",
      "The store does not have the ai_product_recognition module",
    ]);
    expect((await cartOf(kim, s)).items).toEqual([]);
    expect((await cartOf(teen, young)).items).toEqual([]);
  });

  it("records each sighting from the camera worker and tells the screens and the phone", async () => {
    await setModule(store, "ai_product_recognition", true);
    const key = await workerKey(store);
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    await ctx.app.bus.ready();
    const phone: { type: string; product_id?: string; product?: { id: string } }[] = [];
    const stopPhone = ctx.app.bus.subscribe(cartTopic(s), (m) => phone.push(m as (typeof phone)[number]));
    const bus = await listenToSessions(ctx.app);
    const add = { session_id: s, product_id: products.bread!.id, action: "add" };
    const remove = { ...add, action: "remove" };
    for (const body of [add, add, remove, remove]) expect((await worker(key, body)).statusCode).toBe(200);
    const bread = { product: "Bröd", product_id: products.bread!.id };
    expect(await eventsOf(s)).toEqual([
      { kind: "item_added", source: "camera_worker", detail: { ...bread, quantity: 1 } },
      { kind: "item_added", source: "camera_worker", detail: { ...bread, quantity: 1 } },
      { kind: "quantity_changed", source: "camera_worker", detail: { ...bread, from: 2, to: 1 } },
      { kind: "item_removed", source: "camera_worker", detail: { ...bread, from: 1, to: 0 } },
    ]);
    await bus.settle();
    bus.stop();
    stopPhone();
    expect(bus.of(s).filter((m) => m.kind !== "entry_issued" && m.kind !== "door_opened")).toEqual(
      ["item_added", "item_added", "quantity_changed", "item_removed"].map((kind) => ({
        store_id: store,
        session_id: s,
        kind,
      })),
    );
    expect(phone.map((m) => [m.type, m.product?.id ?? m.product_id])).toEqual([
      ["product_added", products.bread!.id],
      ["product_added", products.bread!.id],
      ["product_removed", products.bread!.id],
      ["product_removed", products.bread!.id],
    ]);
  });

  it("counts one sighting sent many times at once once, and refuses its id in another visit or after its line went", async () => {
    await setModule(store, "ai_product_recognition", true);
    const key = await workerKey(store);
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    const event = randomUUID();
    const add = { session_id: s, product_id: products.milk!.id, action: "add", event_id: event };
    const answers = await Promise.all(Array.from({ length: 20 }, () => worker(key, add)));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    expect((await cartOf(kim, s)).items.map((i) => i.quantity)).toEqual([1]);
    expect((await eventsOf(s)).filter((e) => e.kind === "item_added")).toHaveLength(1);

    const elsewhere = await worker(key, { ...add, session_id: await visit(await shopperBorn("1991-06-06")) });
    expect(elsewhere.json()).toMatchObject({ code: "scan_id_reused", detail: "Skanningen hör till ett annat besök." });
    expect((await worker(key, { ...add, action: "remove", event_id: undefined })).statusCode).toBe(200);
    const gone = await worker(key, add);
    expect(gone.json()).toMatchObject({ code: "scan_already_counted", detail: "Skanningen är redan registrerad." });
    expect((await cartOf(kim, s)).items).toEqual([]);
  });
});

/**
 * Two sends that cross inside the database. A row the change touches last is held by a transaction of
 * our own, so the first send stops just before it commits; the second then runs into the first one's
 * unwritten line and waits on it. PGlite runs one transaction at a time, so only PostgreSQL can cross.
 */
describe.skipIf(!TEST_DATABASE_URL)("sends that cross inside the database (PostgreSQL)", () => {
  /** Holds `sql` (a row lock) in a transaction of its own until the returned release is called. */
  async function hold(statement: string, params: unknown[]) {
    const client = new pg.Client({ connectionString: ctx.databaseUrl });
    await client.connect();
    await client.query("begin");
    await client.query(statement, params);
    return async () => {
      await client.query("commit");
      await client.end();
    };
  }
  /** The visit's row, held: a scan that adds something moves its last activity there, last of all. */
  async function holdVisit(sessionId: string) {
    await ctx.app.db.execute(
      sql`update shopping_sessions set last_activity_at = now() - interval '5 minutes' where id = ${sessionId}`,
    );
    return hold("select 1 from shopping_sessions where id = $1 for update", [sessionId]);
  }

  it("one scan id sent twice: the second finds the first's line and counts nothing", async () => {
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    const id = randomUUID();
    const release = await holdVisit(s);
    const first = scan(kim, s, products.milk!.barcode, id);
    await waitingForLocks(ctx.app.db, 1); // line and scan written, waiting to move the visit's activity
    const second = scan(kim, s, products.milk!.barcode, id);
    await waitingForLocks(ctx.app.db, 2); // waiting on the first one's line
    await release();
    const [a, b] = await Promise.all([first, second]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(b.json().item).toEqual(a.json().item);
    expect((await cartOf(kim, s)).items.map((i) => i.quantity)).toEqual([1]);
    expect((await eventsOf(s)).filter((e) => e.kind === "item_added")).toHaveLength(1);
  });

  it("one sighting sent twice by the worker: counted once", async () => {
    await setModule(store, "ai_product_recognition", true);
    const key = await workerKey(store);
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    const body = { session_id: s, product_id: products.bread!.id, action: "add", event_id: randomUUID() };
    const release = await holdVisit(s);
    const first = worker(key, body);
    await waitingForLocks(ctx.app.db, 1);
    const second = worker(key, body);
    await waitingForLocks(ctx.app.db, 2);
    await release();
    const answers = await Promise.all([first, second]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
    expect((await cartOf(kim, s)).items.map((i) => i.quantity)).toEqual([1]);
    expect((await eventsOf(s)).filter((e) => e.kind === "item_added")).toHaveLength(1);
  });

  it("a line removed twice at once: one removal, one event, no error", async () => {
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    const line = (await scan(kim, s, products.bread!.barcode)).json().item.id as string;
    const release = await hold("select 1 from cart_items where id = $1 for update", [line]);
    const removals = [item(kim, "DELETE", line), item(kim, "DELETE", line)];
    await waitingForLocks(ctx.app.db, 2); // both past the owner check, waiting to delete
    await release();
    const answers = await Promise.all(removals);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(answers.map((r) => r.json().items)).toEqual([[], []]);
    expect((await eventsOf(s)).filter((e) => e.kind === "item_removed")).toHaveLength(1);
  });
});
