import type { Cart } from "@glide/contracts";
import { describe, expect, it } from "vitest";
import { added, answer, atMemberPrice, cartOf, forNonMember, line, pricedAnswer } from "./cart-sync.fixtures.ts";
import { applyProductAdded, applyScanAnswer, cartKeeper, fromSocket, memberTotalOf } from "./cart-sync.ts";

const milk = line("line-milk", "milk", 1, 17.9);
/** Coffee at 64,90 kr, 49,90 kr for a member of the chain. */
const coffee = (quantity: number) => atMemberPrice(line("line-coffee", "coffee", quantity, 64.9), 49.9);

describe("what a member would pay, on a non-member's copy of the cart", () => {
  it("a scan's answer brings the server's members' total with its total", () => {
    const after = forNonMember(cartOf(milk, coffee(1)), 67.8);
    const next = applyScanAnswer(fromSocket(cartOf(milk)), pricedAnswer(after, coffee(1)));
    expect(next?.cart).toEqual(after);
    expect(next?.cart.member_total).toBe(67.8);
    expect(next?.cart.items[1]?.member_unit_price).toBe(49.9);
  });

  it("a scan's answer without a members' total takes it away (the shopper joined meanwhile)", () => {
    const synced = fromSocket(forNonMember(cartOf(coffee(1)), 49.9));
    const joined = line("line-coffee", "coffee", 2, 49.9);
    const next = applyScanAnswer(synced, pricedAnswer(cartOf(joined), joined));
    expect(next?.cart.member_total).toBeNull();
    expect(next?.cart.total).toBe(99.8);
  });

  it("an answer the copy already shows keeps the copy's members' total: its whole cart is as new", () => {
    const synced = fromSocket(forNonMember(cartOf(coffee(1)), 49.9));
    const next = applyScanAnswer(synced, pricedAnswer(cartOf(coffee(1)), coffee(1)));
    expect(next?.cart).toBe(synced.cart);
    expect(next?.cart.member_total).toBe(49.9);
  });

  it("an answer without totals (a server from before offers) keeps the saving the copy showed", () => {
    const next = applyScanAnswer(fromSocket(forNonMember(cartOf(coffee(1)), 49.9)), answer(coffee(2)));
    expect(next?.cart.total).toBe(129.8);
    // 15 kr less, as before; the cart_updated that follows brings the server's 99,80 kr.
    expect(next?.cart.member_total).toBe(114.8);
  });

  it("product_added moves the members' total with the total, keeping the saving, until cart_updated", () => {
    const next = applyProductAdded(fromSocket(forNonMember(cartOf(milk, coffee(1)), 67.8)), added(milk));
    expect(next.cart.total).toBe(100.7);
    expect(next.cart.member_total).toBe(85.7);
  });

  it("product_added on a member's cart (no members' total) leaves none", () => {
    const next = applyProductAdded(fromSocket(cartOf(milk)), added(milk));
    expect(next.cart.total).toBe(35.8);
    expect(next.cart.member_total).toBeNull();
  });

  it("a copy kept offline from before members has no members' total, and product_added counts none", () => {
    const { member_total: _, ...older } = cartOf(milk);
    expect(memberTotalOf(older as Cart)).toBeNull();
    const next = applyProductAdded(fromSocket(older as Cart), added(milk));
    expect(next.cart.member_total).toBeNull();
    expect(next.cart.total).toBe(35.8);
  });

  it("the keeper shows each answer's and whole cart's members' total, and none once the shopper has joined", async () => {
    const shown: Cart[] = [];
    const keeper = cartKeeper((cart) => shown.push(cart));
    keeper.socketCart(forNonMember(cartOf(coffee(1)), 49.9));
    const two = forNonMember(cartOf(coffee(2)), 99.8);
    expect(keeper.scanAnswered(await keeper.change(async () => pricedAnswer(two, coffee(2))))).toBe(true);
    keeper.productAdded(added(coffee(2)));
    keeper.socketCart(two);
    // Joined: the server gives the lines the members' price, and there is nothing more to save.
    keeper.socketCart(cartOf(line("line-coffee", "coffee", 2, 49.9)));
    expect(shown.map((cart) => cart.member_total)).toEqual([49.9, 99.8, 99.8, null]);
    expect(shown.map((cart) => cart.total)).toEqual([64.9, 129.8, 129.8, 99.8]);
  });
});
