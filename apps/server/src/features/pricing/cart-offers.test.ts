import { describe, expect, it } from "vitest";
import { shopper, walkIn } from "../../test/factories.ts";
import { cartOf, clearOffers, offerWorldOfFile, postOffer, scan } from "./cart-offers.fixtures.ts";

/**
 * What the shopper's cart says of multi-buy offers: each discount is its own
 * line, the total is after them, and both are evaluated anew on every change.
 * The checkout, the kvitto, refunds and analytics are in cart-offers.orders.test.ts.
 */
const world = offerWorldOfFile(clearOffers);

/** A shopper through the door of `store`, with `barcode` scanned `times` times; the last scan's answer. */
async function scanned(barcode: string, times: number, store = world.lund) {
  const who = await shopper(world.ctx.app);
  const visit = await walkIn(world.ctx.app, who, store);
  let last = null as Awaited<ReturnType<typeof scan>> | null;
  for (let i = 0; i < times; i++) last = await scan(who, visit, barcode);
  return { who, visit, last: last! };
}

describe("a 3 för 2 on the cart", () => {
  it("takes the third Bregott off on the scan that completes it, and the cart says the same", async () => {
    const offer = await postOffer(world, { label: "3 för 2 Bregott", product_ids: [world.ids.butter] });
    const { who, visit, last } = await scanned(world.codes.butter, 2);
    expect(last).toMatchObject({ discounts: [], total: 99.8 });
    const third = await scan(who, visit, world.codes.butter);
    expect(third.discounts).toEqual([{ offer_id: offer, label: "3 för 2 Bregott", times: 1, amount: 49.9 }]);
    expect(third.total).toBe(99.8);
    expect(await cartOf(who, visit)).toMatchObject({
      discounts: [{ label: "3 för 2 Bregott", amount: 49.9 }],
      total: 99.8,
    });
  });

  it("is taken away when a Bregott is put back, and given again when it comes back", async () => {
    await postOffer(world, { product_ids: [world.ids.butter] });
    const { who, last } = await scanned(world.codes.butter, 3);
    const put = await who.call({ method: "PUT", url: `/api/v1/cart/item/${last.item.id}`, payload: { quantity: 2 } });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ discounts: [], total: 99.8 });
    const again = await who.call({ method: "PUT", url: `/api/v1/cart/item/${last.item.id}`, payload: { quantity: 6 } });
    expect(again.json()).toMatchObject({ discounts: [{ times: 2, amount: 99.8 }], total: 199.6 });
    const gone = await who.call({ method: "DELETE", url: `/api/v1/cart/item/${last.item.id}` });
    expect(gone.json()).toMatchObject({ items: [], discounts: [], total: 0 });
  });

  it("counts the goods no offer takes at their price beside the discounted ones", async () => {
    await postOffer(world, { product_ids: [world.ids.butter] });
    const who = await shopper(world.ctx.app);
    const visit = await walkIn(world.ctx.app, who, world.lund);
    await scan(who, visit, world.codes.soap);
    await scan(who, visit, world.codes.butter);
    await scan(who, visit, world.codes.butter);
    const last = await scan(who, visit, world.codes.butter);
    // 24,90 + 3 × 49,90 − 49,90; the scan's answer and the cart agree.
    expect(last).toMatchObject({ discounts: [{ amount: 49.9 }], total: 124.7 });
    expect((await scan(who, visit, world.codes.soap)).total).toBe(149.6);
    expect((await cartOf(who, visit)).total).toBe(149.6);
  });

  it("is used at most limit_per_visit times", async () => {
    await postOffer(world, { product_ids: [world.ids.butter], limit_per_visit: 1 });
    const { last } = await scanned(world.codes.butter, 6);
    expect(last).toMatchObject({ discounts: [{ times: 1, amount: 49.9 }], total: 249.5 });
  });

  it("counts in its own store and not in another; a chain-wide one counts in both", async () => {
    await postOffer(world, { product_ids: [world.ids.butter], store_id: world.malmo });
    expect((await scanned(world.codes.butter, 3, world.lund)).last.discounts).toEqual([]);
    expect((await scanned(world.codes.butter, 3, world.malmo)).last.total).toBe(99.8);
  });

  it("counts from the first to the last second of its days in the store's time zone", async () => {
    await postOffer(world, { product_ids: [world.ids.butter], starts_on: "2026-11-10", ends_on: "2026-11-20" });
    // Stockholm is UTC+1 in November.
    const totalAt = async (at: string) => {
      world.setSaleAt(at);
      return (await scanned(world.codes.butter, 3)).last.total;
    };
    expect(await totalAt("2026-11-09T22:59:59Z")).toBe(149.7);
    expect(await totalAt("2026-11-09T23:00:00Z")).toBe(99.8);
    expect(await totalAt("2026-11-20T22:59:59Z")).toBe(99.8);
    expect(await totalAt("2026-11-20T23:00:00Z")).toBe(149.7);
  });

  it("leaves price-labelled goods alone: three labelled cakes pay their labels", async () => {
    await postOffer(world, { product_ids: [world.ids.cake] });
    const { who, visit, last } = await scanned(world.codes.cakeLabel, 3);
    expect(last).toMatchObject({ discounts: [], total: 149.7 });
    // The cart read on its own says the same (its lines are priced apart from the scan's answer).
    expect(await cartOf(who, visit)).toMatchObject({ discounts: [], total: 149.7 });
  });

  it("never discounts the pant: three cans of läsk pay two cans and three pant", async () => {
    await postOffer(world, { product_ids: [world.ids.soda] });
    const { last } = await scanned(world.codes.soda, 3);
    // 3 × 12,90 + 3 × 2,00 pant − 12,90.
    expect(last).toMatchObject({ discounts: [{ amount: 12.9 }], total: 31.8 });
  });
});

describe("other deals", () => {
  it("2 för 35 kr: two juices pay 35,00, a third its own price", async () => {
    await postOffer(world, {
      label: "2 för 35 kr",
      kind: "amount",
      amount: 35,
      buy: 2,
      product_ids: [world.ids.juice],
    });
    const { who, visit, last } = await scanned(world.codes.juice, 2);
    expect(last).toMatchObject({ discounts: [{ label: "2 för 35 kr", amount: 4.8 }], total: 35 });
    expect((await scan(who, visit, world.codes.juice)).total).toBe(54.9);
  });

  it("mix and match: Bregott, juice and soap in one 3 för 2 give the cheapest free", async () => {
    await postOffer(world, { product_ids: [world.ids.butter, world.ids.juice, world.ids.soap] });
    const who = await shopper(world.ctx.app);
    const visit = await walkIn(world.ctx.app, who, world.lund);
    await scan(who, visit, world.codes.butter);
    await scan(who, visit, world.codes.soap);
    const last = await scan(who, visit, world.codes.juice);
    expect(last).toMatchObject({ discounts: [{ amount: 19.9 }], total: 74.8 });
  });

  it("overlapping offers over the same Bregott: the shopper gets the one worth more", async () => {
    // Two Bregott and a juice: the 3 för 2 takes the juice off (19,90); 2 för 70 kr takes 29,80 off the Bregott.
    await postOffer(world, { label: "3 för 2 mix", product_ids: [world.ids.butter, world.ids.juice] });
    await postOffer(world, {
      label: "2 för 70 kr",
      kind: "amount",
      amount: 70,
      buy: 2,
      product_ids: [world.ids.butter],
    });
    const who = await shopper(world.ctx.app);
    const visit = await walkIn(world.ctx.app, who, world.lund);
    for (const code of [world.codes.juice, world.codes.butter, world.codes.butter]) await scan(who, visit, code);
    const cart = await cartOf(who, visit);
    expect(cart.discounts.map((d) => [d.label, d.amount])).toEqual([["2 för 70 kr", 29.8]]);
    expect(cart.total).toBe(89.9);
  });
});
