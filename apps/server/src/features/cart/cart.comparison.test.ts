import { randomUUID } from "node:crypto";
import { cartScanResponseSchema, cartSchema } from "@glide/contracts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { cartTopic } from "./cart.events.ts";
import { admin, cartOf, ctx, ean, item, openCartTests, products, scan, shopperBorn, visit } from "./cart.fixtures.ts";

beforeAll(openCartTests);
afterAll(() => ctx.close());

describe("the jämförpris of a cart's lines", () => {
  it("is the product's, per litre, in the scan's answer, the cart, a changed quantity and the event", async () => {
    const barcode = ean("731000000191");
    const made = await admin.post("/api/v1/products/", {
      sku: `cart-cola-${randomUUID().slice(0, 6)}`,
      name: "Cola 33 cl",
      price: 12.9,
      net_content: 330,
      net_content_unit: "ml",
      barcode,
    });
    expect(made.statusCode, made.body).toBe(201);
    const perLitre = { price: 39.09, unit: "l" };
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    const heard: unknown[] = [];
    const stop = ctx.app.bus.subscribe(cartTopic(s), (event) => heard.push(event));
    const scanId = randomUUID();
    const first = cartScanResponseSchema.parse((await scan(kim, s, barcode, scanId)).json());
    expect(first.product.comparison_price).toEqual(perLitre);
    expect(first.item.product.comparison_price).toEqual(perLitre);
    // The same scan sent again answers the line it went to, with the same.
    const again = cartScanResponseSchema.parse((await scan(kim, s, barcode, scanId)).json());
    expect([again.item.quantity, again.product.comparison_price]).toEqual([1, perLitre]);
    // Each answer's event tells the shopper's other screens; the repeat's too.
    await vi.waitFor(() => expect(heard).toHaveLength(2));
    stop();
    for (const event of heard)
      expect(event).toMatchObject({ type: "product_added", product: { price: 12.9, comparison_price: perLitre } });
    const two = cartSchema.parse((await item(kim, "PUT", first.item.id, 2)).json());
    expect(two.items[0]).toMatchObject({ total_price: 25.8, product: { comparison_price: perLitre } });
    // A product without a net content has none.
    await scan(kim, s, products.bread!.barcode);
    const cart = await cartOf(kim, s);
    expect(cart.items.map((i) => [i.product.name, i.product.comparison_price])).toEqual([
      ["Cola 33 cl", perLitre],
      ["Bröd", null],
    ]);
  });

  it("of a weight label is the price per kilogram; of a price label, none", async () => {
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    // Färs at 129 kr/kg: 0.450 kg on the label.
    const weighed = cartScanResponseSchema.parse((await scan(kim, s, ean("230012300450"))).json());
    expect(weighed.item).toMatchObject({ weight_grams: 450, unit_price: 58.05 });
    expect(weighed.product.comparison_price).toEqual({ price: 129, unit: "kg" });
    // Tårta with a printed price of 49.90 kr: its amount is not on the label, whatever the product's own net
    // content (a whole cake's) says.
    const withContent = await admin.put(`/api/v1/products/${products.cake!.id}`, {
      net_content: 1000,
      net_content_unit: "g",
    });
    expect(withContent.statusCode, withContent.body).toBe(200);
    const priced = cartScanResponseSchema.parse((await scan(kim, s, ean("200045604990"))).json());
    expect(priced.product.comparison_price).toBeNull();
    const cart = await cartOf(kim, s);
    expect(cart.items.map((i) => i.product.comparison_price)).toEqual([{ price: 129, unit: "kg" }, null]);
  });
});
