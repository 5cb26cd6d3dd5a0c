import type { Cart, CartDiscount } from "@glide/contracts";
import { describe, expect, it } from "vitest";
import { added, answer, cartOf, discounted, line, pricedAnswer } from "./cart-sync.fixtures.ts";
import { applyProductAdded, applyScanAnswer, cartKeeper, cartTotal, discountsOf, fromSocket } from "./cart-sync.ts";

const milk = line("line-milk", "milk", 1, 17.9);

describe("multi-buy discounts on the phone's copy of the cart", () => {
  const bregott = (quantity: number) => line("line-bregott", "bregott", quantity, 49.9);
  const threeForTwo: CartDiscount = { offer_id: "offer-1", label: "3 för 2 Bregott", times: 1, amount: 49.9 };

  it("a scan's answer brings the server's discounts and total after them, not the lines' sum", () => {
    const after = discounted([threeForTwo], milk, bregott(3));
    const next = applyScanAnswer(fromSocket(cartOf(milk, bregott(2))), pricedAnswer(after, bregott(3)));
    expect(next?.cart).toEqual(after);
    expect(next?.cart.total).toBe(117.7);
    expect(cartTotal(next?.cart.items ?? [])).toBe(167.6);
  });

  it("a scan's answer without a discount takes a discount away", () => {
    // The offer was deleted meanwhile: the server's answer has no discount, and the copy keeps none.
    const synced = fromSocket(discounted([threeForTwo], bregott(3)));
    const next = applyScanAnswer(synced, pricedAnswer(cartOf(milk, bregott(3)), milk));
    expect(next?.cart.discounts).toEqual([]);
    expect(next?.cart.total).toBe(167.6);
  });

  it("an answer the copy already shows keeps the copy's discounts and total: its whole cart is as new", () => {
    const synced = fromSocket(discounted([threeForTwo], bregott(3)));
    // The answer was counted before the whole cart, which may show later changes from elsewhere.
    const next = applyScanAnswer(synced, pricedAnswer(cartOf(bregott(3)), bregott(3)));
    expect(next?.cart).toBe(synced.cart);
  });

  it("an answer without discounts and total (a server from before offers) is counted on the phone", () => {
    const next = applyScanAnswer(fromSocket(discounted([threeForTwo], bregott(3))), answer(milk));
    expect(next?.cart.discounts).toEqual([threeForTwo]);
    expect(next?.cart.total).toBe(117.7);
  });

  it("product_added keeps the discounts until the cart_updated that follows, and counts the total less them", () => {
    const next = applyProductAdded(fromSocket(discounted([threeForTwo], bregott(3))), added(bregott(3)));
    expect(next.cart.items[0]?.quantity).toBe(4);
    expect(next.cart.discounts).toEqual([threeForTwo]);
    expect(next.cart.total).toBe(149.7);
  });

  it("a copy kept offline from before offers has no discounts: product_added counts the lines alone", () => {
    const { discounts: _, ...older } = cartOf(bregott(3));
    const next = applyProductAdded(fromSocket(older as Cart), added(bregott(3)));
    expect(next.cart.discounts).toEqual([]);
    expect(next.cart.total).toBe(199.6);
    expect(discountsOf(older as Cart)).toEqual([]);
  });

  it("the keeper shows each answer's and whole cart's total, not the lines' sum", async () => {
    const twoFor80: CartDiscount = { offer_id: "offer-2", label: "2 för 80 kr Bregott", times: 1, amount: 19.8 };
    const shown: Cart[] = [];
    const keeper = cartKeeper((cart) => shown.push(cart));
    keeper.socketCart(cartOf(bregott(1)));
    const two = discounted([twoFor80], bregott(2));
    expect(keeper.scanAnswered(await keeper.change(async () => pricedAnswer(two, bregott(2))))).toBe(true);
    keeper.productAdded(added(bregott(2)));
    keeper.socketCart(two);
    keeper.answerCart(await keeper.change(async () => cartOf(bregott(1))));
    expect(shown.map((cart) => cart.total)).toEqual([49.9, 80, 80, 49.9]);
    expect(shown.map((cart) => cart.discounts.length)).toEqual([0, 1, 1, 0]);
  });
});
