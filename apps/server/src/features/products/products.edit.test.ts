import { randomUUID } from "node:crypto";
import { productSchema } from "@glide/contracts";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { TEST_DATABASE_URL, waitingForLocks } from "../../test/harness.ts";
import { admin, adminEmail, auditOf, create, ctx, ean, useProductsApp } from "./products.fixtures.ts";

/** Editing and deleting products, also two changes at the same moment. */
useProductsApp();

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
