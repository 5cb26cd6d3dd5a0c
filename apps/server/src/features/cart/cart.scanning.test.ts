import { randomUUID } from "node:crypto";
import { cartScanResponseSchema, cartSchema, errorSchema } from "@glide/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { putVisitIn } from "../../test/harness.ts";

import {
  admin,
  cartOf,
  ctx,
  ean,
  item,
  openCartTests,
  products,
  scan,
  shopperBorn,
  store,
  visit,
} from "./cart.fixtures.ts";

beforeAll(openCartTests);
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
