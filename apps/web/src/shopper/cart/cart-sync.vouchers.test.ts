import type { Cart } from "@glide/contracts";
import { describe, expect, it } from "vitest";
import { added, answer, cartOf, line, pricedAnswer, voucher, withVouchers } from "./cart-sync.fixtures.ts";
import {
  applyProductAdded,
  applyScanAnswer,
  cartKeeper,
  fromSocket,
  offlineCopyOf,
  payable,
  toPayOf,
  vouchersOf,
} from "./cart-sync.ts";

const milk = line("line-milk", "milk", 1, 17.9);
const coffee = (quantity: number) => line("line-coffee", "coffee", quantity, 64.9);
const bottles = voucher("12345", 24);
const cans = voucher("54321", 10);

describe("pant machine vouchers on the phone's copy of the cart", () => {
  it("a scan's answer has no vouchers: the copy keeps its own, and the card pays the new total less them", () => {
    const synced = fromSocket(withVouchers(cartOf(coffee(1)), bottles));
    const next = applyScanAnswer(synced, pricedAnswer(cartOf(coffee(1), milk), milk));
    expect(next?.cart.total).toBe(82.8);
    expect(next?.cart.vouchers).toEqual([bottles]);
    expect(next?.cart.to_pay).toBe(58.8);
  });

  it("without vouchers the card pays the whole total after a scan", () => {
    const next = applyScanAnswer(fromSocket(cartOf(coffee(1))), pricedAnswer(cartOf(coffee(2)), coffee(2)));
    expect(next?.cart.vouchers).toEqual([]);
    expect(next?.cart.to_pay).toBe(129.8);
  });

  it("vouchers worth more than the cart leave nothing to pay, never less than nothing", () => {
    const synced = fromSocket(withVouchers(cartOf(), bottles, cans));
    expect(synced.cart.to_pay).toBe(0);
    const next = applyScanAnswer(synced, pricedAnswer(cartOf(milk), milk));
    expect(next?.cart.to_pay).toBe(0);
    // The scan's own echo first, then one more from another phone: 35,80 less 34,00, the card pays 1,80.
    const echo = applyProductAdded(next!, added(milk));
    expect(echo.cart).toBe(next?.cart);
    const more = applyProductAdded(echo, added(milk));
    expect(more.cart.total).toBe(35.8);
    expect(more.cart.to_pay).toBe(1.8);
  });

  it("an answer from a server from before offers (no total) is counted on the phone, vouchers kept", () => {
    const next = applyScanAnswer(fromSocket(withVouchers(cartOf(coffee(1)), cans)), answer(milk));
    expect(next?.cart.total).toBe(82.8);
    expect(next?.cart.to_pay).toBe(72.8);
  });

  it("product_added counts the card's part anew from the total it counts", () => {
    const next = applyProductAdded(fromSocket(withVouchers(cartOf(coffee(1)), bottles)), added(coffee(1)));
    expect(next.cart.total).toBe(129.8);
    expect(next.cart.vouchers).toEqual([bottles]);
    expect(next.cart.to_pay).toBe(105.8);
  });

  it("a whole cart brings the server's vouchers and what the card pays, a voucher taken out included", () => {
    const shown: Cart[] = [];
    const keeper = cartKeeper((cart) => shown.push(cart));
    keeper.socketCart(cartOf(coffee(1)));
    keeper.answerCart(withVouchers(cartOf(coffee(1)), bottles));
    keeper.socketCart(cartOf(coffee(1)));
    expect(shown.map((cart) => cart.vouchers.length)).toEqual([0, 1, 0]);
    expect(shown.map((cart) => cart.to_pay)).toEqual([64.9, 40.9, 64.9]);
  });

  it("a copy kept offline from before vouchers has none, and the card pays its total", () => {
    const { vouchers: _, to_pay: __, ...older } = cartOf(coffee(2));
    const copy = offlineCopyOf(older as Cart);
    expect(copy.vouchers).toEqual([]);
    expect(copy.to_pay).toBe(129.8);
    expect(vouchersOf(older as Cart)).toEqual([]);
    expect(toPayOf(older as Cart)).toBe(129.8);
    // Applying a scan to it works the same.
    const next = applyScanAnswer(fromSocket(older as Cart), pricedAnswer(cartOf(coffee(2), milk), milk));
    expect(next?.cart.vouchers).toEqual([]);
    expect(next?.cart.to_pay).toBe(147.7);
  });

  it("a copy kept offline with vouchers keeps them and the server's amount to pay", () => {
    const kept = withVouchers(cartOf(coffee(2)), bottles);
    expect(offlineCopyOf(kept)).toEqual(kept);
  });

  it("payable is exact to the öre", () => {
    expect(payable(0.3, [{ code: "x", amount: 0.1 }])).toBe(0.2);
    expect(payable(24, [bottles])).toBe(0);
    expect(payable(23.99, [bottles])).toBe(0);
    expect(payable(24.01, [bottles])).toBe(0.01);
  });
});
