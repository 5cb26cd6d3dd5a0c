import { productLookupSchema } from "@glide/contracts";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { as, signIn } from "../../test/harness.ts";
import { ADMIN_COOKIE } from "../admin-auth/admin-auth.hooks.ts";
import { admin, cookie, create, ctx, ean, sku, useProductsApp } from "./products.fixtures.ts";

/** Looking up a scanned code, who may do what (with the product looked up), and product images. */
useProductsApp();

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
