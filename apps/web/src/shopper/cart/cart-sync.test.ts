import type { Cart, CartItem } from "@glide/contracts";
import { describe, expect, it } from "vitest";
import { added, answer, cartOf, line } from "./cart-sync.fixtures.ts";
import {
  applyProductAdded,
  applyScanAnswer,
  cartKeeper,
  cartTotal,
  expectEcho,
  fromAnswer,
  fromSocket,
  type SyncedCart,
  withQuantity,
} from "./cart-sync.ts";

const milk = line("line-milk", "milk", 1, 17.9);
const bread = line("line-bread", "bread", 2, 32.5);

describe("a scan's answer on the phone's copy of the cart", () => {
  it("takes one more of a line where it is, with the line's and the cart's totals as the server has them", () => {
    const synced = fromSocket(cartOf(milk, bread));
    const next = applyScanAnswer(synced, answer(line("line-milk", "milk", 2, 17.9)));
    expect(next?.cart).toEqual(cartOf(line("line-milk", "milk", 2, 17.9), bread));
    expect(next?.cart.total).toBe(100.8);
    // The server echoes the scan on the socket; that message is not one more.
    expect(next?.echoes).toEqual({ milk: 1 });
  });

  it("adds a new line last, where the server puts the newest line", () => {
    const juice = line("line-juice", "juice", 1, 24.95);
    const next = applyScanAnswer(fromSocket(cartOf(milk, bread)), answer(juice));
    expect(next?.cart.items.map((item) => item.id)).toEqual(["line-milk", "line-bread", "line-juice"]);
    expect(next?.cart.total).toBe(107.85);
  });

  it("changes nothing when the copy already shows the scan (the socket's cart came first, or a retry)", () => {
    const synced = fromSocket(cartOf(milk, bread));
    const next = applyScanAnswer(synced, answer(milk));
    expect(next?.cart).toEqual(synced.cart);
    expect(next?.echoes).toEqual({ milk: 1 });
  });

  it("cannot take an answer more than one ahead, behind, or before the cart was heard: a GET must say", () => {
    const synced = fromSocket(cartOf(milk, bread));
    expect(applyScanAnswer(synced, answer(line("line-milk", "milk", 3, 17.9)))).toBeNull();
    expect(applyScanAnswer(synced, answer(line("line-bread", "bread", 1, 32.5)))).toBeNull();
    expect(applyScanAnswer(synced, answer(line("line-juice", "juice", 2, 24.95)))).toBeNull();
    expect(applyScanAnswer(null, answer(milk))).toBeNull();
  });

  it("applies answers one after another, in the order the scans were sent", () => {
    let synced: SyncedCart | null = fromSocket(cartOf(milk));
    for (const quantity of [2, 3, 4])
      synced = applyScanAnswer(synced, answer(line("line-milk", "milk", quantity, 17.9)));
    expect(synced?.cart).toEqual(cartOf(line("line-milk", "milk", 4, 17.9)));
    expect(synced?.echoes).toEqual({ milk: 3 });
  });
});

describe("the socket's product_added on the phone's copy of the cart", () => {
  it("adds one to the product's line, in öre as the server counts", () => {
    const pricey = line("line-cheese", "cheese", 3, 0.1);
    const next = applyProductAdded(fromSocket(cartOf(pricey, milk)), added(pricey));
    expect(next.cart.items[0]).toMatchObject({ quantity: 4, total_price: 0.4 });
    expect(next.cart).toEqual(cartOf(line("line-cheese", "cheese", 4, 0.1), milk));
  });

  it("passes over this phone's own scans, once each, and then counts the next", () => {
    const synced = applyScanAnswer(fromSocket(cartOf(milk)), answer(line("line-milk", "milk", 2, 17.9)))!;
    const echoed = applyProductAdded(synced, added(milk));
    expect(echoed.cart).toBe(synced.cart);
    expect(echoed.echoes).toEqual({ milk: 0 });
    expect(applyProductAdded(echoed, added(milk)).cart.items[0]?.quantity).toBe(3);
  });

  it("leaves a product with no line, or several lines, to the cart_updated that follows", () => {
    const labelled = line("line-mince", "mince", 1, 48.2);
    const another = line("line-mince-2", "mince", 1, 48.2);
    const synced = fromSocket(cartOf(milk, labelled, another));
    expect(
      applyProductAdded(synced, { id: "juice", name: "Juice", image_url: null, comparison_price: null, price: 24.95 }),
    ).toBe(synced);
    expect(applyProductAdded(synced, added(labelled))).toBe(synced);
    // A price label's line is not the product at its shelf price.
    expect(applyProductAdded(synced, { ...added(milk), price: 12 })).toBe(synced);
  });

  it("a whole cart from the socket ends the echoes; one from an HTTP answer keeps them", () => {
    const synced = expectEcho(fromSocket(cartOf(milk)), "milk");
    expect(fromAnswer(synced, cartOf(bread)).echoes).toEqual({ milk: 1 });
    expect(fromSocket(cartOf(bread)).echoes).toEqual({});
    expect(fromAnswer(null, cartOf(bread))).toEqual({ cart: cartOf(bread), echoes: {} });
  });
});

describe("the phone's cart kept from answers and messages", () => {
  function keeperShowing() {
    const shown: Cart[] = [];
    return { keeper: cartKeeper((cart) => shown.push(cart)), shown };
  }
  const scanOf = (item: CartItem) => answer(item);

  it("a scan shows from its answer, whichever of the answer and the socket's echo comes first, and needs no GET", async () => {
    const milk2 = line("line-milk", "milk", 2, 17.9);
    for (const echoFirst of [true, false]) {
      const { keeper, shown } = keeperShowing();
      keeper.socketCart(cartOf(milk, bread));
      const sent = keeper.change(async () => {
        if (echoFirst) keeper.productAdded(added(milk));
        return scanOf(milk2);
      });
      expect(keeper.scanAnswered(await sent)).toBe(true);
      if (!echoFirst) keeper.productAdded(added(milk));
      keeper.socketCart(cartOf(milk2, bread));
      // Never one too many on the screen, at any step.
      expect(shown.map((cart) => cart.items[0]?.quantity)).toEqual([1, 2, 2]);
      expect(shown.at(-1)?.total).toBe(100.8);
    }
  });

  it("a read overtaken by the socket's whole cart is dropped; a read the socket did not overtake shows", async () => {
    const milk2 = line("line-milk", "milk", 2, 17.9);
    const { keeper, shown } = keeperShowing();
    keeper.socketCart(cartOf(milk));
    // The GET was read before a scan; the scan's cart_updated comes first: the older answer must not win.
    await keeper.read(async () => {
      keeper.socketCart(cartOf(milk2, bread));
      return cartOf(milk);
    });
    expect(shown.at(-1)).toEqual(cartOf(milk2, bread));
    // With nothing from the socket meanwhile, the answer is the newest there is.
    await keeper.read(async () => cartOf(milk));
    expect(shown.at(-1)).toEqual(cartOf(milk));
    expect(shown).toHaveLength(3);
  });

  it("another device's scans show from product_added, in order, before their cart_updated", () => {
    const { keeper, shown } = keeperShowing();
    keeper.socketCart(cartOf(milk, bread));
    keeper.productAdded(added(bread));
    keeper.productAdded(added(milk));
    keeper.productAdded(added(bread));
    expect(shown.at(-1)).toEqual(cartOf(line("line-milk", "milk", 2, 17.9), line("line-bread", "bread", 4, 32.5)));
  });

  it("a retried scan that had already counted is not counted again, though the server echoes it again", async () => {
    for (const echoFirst of [true, false]) {
      const { keeper, shown } = keeperShowing();
      keeper.socketCart(cartOf(milk));
      const retried = keeper.change(async () => {
        if (echoFirst) keeper.productAdded(added(milk));
        return scanOf(milk);
      });
      expect(keeper.scanAnswered(await retried)).toBe(true);
      if (!echoFirst) keeper.productAdded(added(milk));
      expect(shown.map((cart) => cart.items[0]?.quantity)).toEqual(shown.map(() => 1));
    }
  });

  it("an answer that does not fit the copy asks for a GET, whose cart passes over the scan's echo", () => {
    const { keeper, shown } = keeperShowing();
    keeper.socketCart(cartOf(milk));
    // A change was missed: the line is two ahead of what the phone shows.
    expect(keeper.scanAnswered(scanOf(line("line-milk", "milk", 3, 17.9)))).toBe(false);
    expect(shown).toHaveLength(1);
    keeper.answerCart(cartOf(line("line-milk", "milk", 3, 17.9)));
    keeper.productAdded(added(milk));
    expect(shown.at(-1)?.items[0]?.quantity).toBe(3);
  });

  it("before the first cart, and after a reset, every answer asks for a GET and messages wait for a whole cart", () => {
    const { keeper, shown } = keeperShowing();
    expect(keeper.scanAnswered(scanOf(milk))).toBe(false);
    keeper.productAdded(added(milk));
    expect(shown).toEqual([]);
    keeper.socketCart(cartOf(milk));
    keeper.reset();
    expect(keeper.scanAnswered(scanOf(line("line-milk", "milk", 2, 17.9)))).toBe(false);
  });

  it("the plus button's answer shows, and its echo is not one more", async () => {
    const { keeper, shown } = keeperShowing();
    keeper.socketCart(cartOf(milk));
    const milk2 = cartOf(line("line-milk", "milk", 2, 17.9));
    keeper.answerCart(await keeper.change(async () => milk2), "milk");
    keeper.productAdded(added(milk));
    expect(shown.map((cart) => cart.items[0]?.quantity)).toEqual([1, 2]);
  });
});

describe("pant on the phone's copy of the cart", () => {
  const can = line("line-can", "can", 1, 12.9, 2);

  it("counts each line's pant in the cart's total; a line's own total stays the goods", () => {
    const next = applyScanAnswer(fromSocket(cartOf(milk)), answer(can));
    expect(next?.cart.items[1]).toMatchObject({ total_price: 12.9, pant: { unit: 2, total: 2 } });
    expect(next?.cart.total).toBe(32.8);
    expect(cartTotal([milk, can])).toBe(32.8);
  });

  it("one more from product_added counts the line's pant anew, as it does its goods", () => {
    const next = applyProductAdded(fromSocket(cartOf(can)), added(can));
    expect(next.cart.items[0]).toEqual(line("line-can", "can", 2, 12.9, 2));
    expect(next.cart.items[0]?.pant).toEqual({ unit: 2, total: 4 });
    expect(next.cart.total).toBe(29.8);
  });

  it("is exact to the öre: 3 × 12,90 kr and 3 × 2,00 kr of pant are 44,70 kr", () => {
    const three = withQuantity(can, 3);
    expect(three).toMatchObject({ quantity: 3, total_price: 38.7, pant: { unit: 2, total: 6 } });
    expect(cartTotal([three])).toBe(44.7);
    // Amounts that floating point gets wrong: 0,10 + 0,20 kr of pant, three times each.
    const odd = withQuantity(line("line-odd", "odd", 1, 0.1, 0.2), 3);
    expect(odd).toMatchObject({ total_price: 0.3, pant: { unit: 0.2, total: 0.6 } });
    expect(cartTotal([odd, withQuantity(line("line-odd-2", "odd2", 1, 0.2, 0.1), 3)])).toBe(1.8);
  });

  it("a line without pant, or from a copy kept offline before pant, counts none", () => {
    expect(withQuantity(milk, 2).pant).toBeNull();
    const { pant: _, ...older } = milk;
    expect(cartTotal([older as CartItem, can])).toBe(32.8);
  });
});
