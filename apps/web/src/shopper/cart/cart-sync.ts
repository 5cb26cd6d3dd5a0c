import type { Cart, CartDiscount, CartItem, CartVoucher } from "@glide/contracts";
import { sumKronor } from "../lib/money.ts";

/*
 * The phone's copy of the server's cart, kept in step without reading the
 * whole cart again after each scan (docs/live-cart.md). A scan's answer is
 * its line as it now stands; the socket's `product_added` is one more of a
 * product. Each is applied only when it fits the copy exactly; what does
 * not fit is left to a whole cart: the `cart_updated` the server sends after
 * every change, or a GET when the copy cannot take a scan's answer.
 *
 * The total is the server's: multi-buy offers ("3 för 2") are priced on the
 * server, so the phone takes the discounts and the total after them from
 * each whole cart and scan's answer, and counts a total itself only for a
 * change it applies without one (docs/offers.md). So is what the cart would
 * cost a member (`member_total`, shown to a non-member as "Som medlem").
 *
 * Pant machine vouchers (pantkvitton, docs/pant.md) come only with a whole
 * cart: a scan's answer lacks them, so the copy keeps the ones it has and
 * counts what the card pays (`to_pay`) from the new total itself.
 */

/**
 * What this module needs of a scan's answer (`POST /api/v1/cart/scan`): the
 * line as it now stands, and the cart's discounts, total and members' total
 * after the scan (absent from an answer of a server from before offers, or
 * before members).
 */
export type ScanAnswer = {
  item: CartItem;
  discounts?: CartDiscount[];
  total?: number;
  member_total?: number | null;
};

/** `product_added`'s product: the line's product and the price of one (kronor). */
export type AddedProduct = CartItem["product"] & { price: number };

export interface SyncedCart {
  cart: Cart;
  /**
   * Per product, the `product_added` messages still to come for changes this
   * phone already shows from their answers: each is its own echo, not one more.
   */
  echoes: Readonly<Record<string, number>>;
}

/** A cart's discounts; a copy kept offline from before offers lacks the field: it has none. */
export function discountsOf(cart: Cart): CartDiscount[] {
  return cart.discounts ?? [];
}

/** What the cart would cost a member; a copy kept offline from before members lacks the field: none. */
export function memberTotalOf(cart: Cart): number | null {
  return cart.member_total ?? null;
}

/** A cart's pant machine vouchers; a copy kept offline from before vouchers lacks the field: it has none. */
export function vouchersOf(cart: Cart): CartVoucher[] {
  return cart.vouchers ?? [];
}

/** What the card pays for `total` with `vouchers`, as the server counts it: never below 0 (vouchers are not paid out). */
export function payable(total: number, vouchers: readonly CartVoucher[]): number {
  return Math.max(0, sumKronor([total, ...vouchers.map((voucher) => -voucher.amount)]));
}

/** What the card pays: the server's, or for a copy kept offline from before vouchers, counted from its total. */
export function toPayOf(cart: Cart): number {
  return typeof cart.to_pay === "number" ? cart.to_pay : payable(cart.total, vouchersOf(cart));
}

/**
 * The copy this phone kept offline, with the fields a copy from an older
 * server lacks filled in as that server meant them: from before offers no
 * discounts (its total is its lines'), from before members no members'
 * total, from before vouchers none (the card pays the total).
 */
export function offlineCopyOf(cart: Cart): Cart {
  const total = cart.discounts ? cart.total : cartTotal(cart.items);
  const vouchers = vouchersOf(cart);
  return {
    ...cart,
    discounts: discountsOf(cart),
    total,
    member_total: memberTotalOf(cart),
    vouchers,
    to_pay: cart.vouchers && typeof cart.to_pay === "number" ? cart.to_pay : payable(total, vouchers),
  };
}

/** A whole cart from the socket (`ready`, `cart_updated`): it shows every change before it, echoes included. */
export function fromSocket(cart: Cart): SyncedCart {
  return { cart, echoes: {} };
}

/**
 * A whole cart from an HTTP answer (GET, a quantity change). Echoes stay: a
 * change's message may still be on its way on the socket although the
 * answer already shows the change.
 */
export function fromAnswer(previous: SyncedCart | null, cart: Cart): SyncedCart {
  return { cart, echoes: previous?.echoes ?? {} };
}

/** The copy, told that this phone's change will be echoed on the socket as `product_added` of the product. */
export function expectEcho(synced: SyncedCart, productId: string): SyncedCart {
  return { ...synced, echoes: { ...synced.echoes, [productId]: (synced.echoes[productId] ?? 0) + 1 } };
}

/**
 * The cart's total as the server counts it: every line's goods and its pant
 * (a line's `total_price` is the goods only). A copy kept offline from before
 * pant may lack the field: it counts as none.
 */
export function cartTotal(items: readonly CartItem[]): number {
  return sumKronor(items.flatMap((item) => [item.total_price, item.pant?.total ?? 0]));
}

/** `quantity` of one line, its goods and its pant counted anew in öre, as the server counts: exact to the öre. */
export function withQuantity(line: CartItem, quantity: number): CartItem {
  const times = (kronor: number) => (Math.round(kronor * 100) * quantity) / 100;
  const pant = line.pant ? { unit: line.pant.unit, total: times(line.pant.unit) } : null;
  return { ...line, quantity, total_price: times(line.unit_price), pant };
}

/**
 * The cart with `items`, for a change the server has not priced for this
 * copy: the discounts stay as they were (the `cart_updated` that follows
 * brings the server's), the total is the goods and pant less them. A
 * members' total keeps the saving it showed, so it moves with the total
 * rather than stand still below it; a members' price on the new piece is
 * left to the server.
 */
function withItems(cart: Cart, items: CartItem[]): Cart {
  const discounts = discountsOf(cart);
  const total = sumKronor([cartTotal(items), ...discounts.map((discount) => -discount.amount)]);
  const member = memberTotalOf(cart);
  const member_total = member === null ? null : sumKronor([total, -cart.total, member]);
  const vouchers = vouchersOf(cart);
  return { ...cart, items, discounts, total, member_total, vouchers, to_pay: payable(total, vouchers) };
}

/**
 * The cart with `items` as a scan's answer priced them: its discounts, total
 * and members' total, when it has them. The answer has no vouchers: the
 * copy's stay, and the card pays the new total less them.
 */
function withAnswer(cart: Cart, items: CartItem[], answer: ScanAnswer): Cart {
  const { discounts, total } = answer;
  if (!discounts || typeof total !== "number") return withItems(cart, items);
  const vouchers = vouchersOf(cart);
  return {
    ...cart,
    items,
    discounts,
    total,
    member_total: answer.member_total ?? null,
    vouchers,
    to_pay: payable(total, vouchers),
  };
}

/**
 * The copy with a scan's answer in it, or null when the answer does not fit
 * (the line is more than one ahead, or behind): then only a GET can say what
 * the cart is. The line is new (quantity 1, added last, as the server orders
 * lines by when they were made), one more than the copy has, or what the
 * copy already shows (the socket's cart came first, or a retry of a scan
 * that had counted). Either way the server echoes the scan as `product_added`.
 * A line one ahead takes the answer's discounts and total; a line the copy
 * already shows keeps the copy's, which came with the scan from a whole cart
 * at least as new as the answer (a later change elsewhere may be in it).
 */
export function applyScanAnswer(synced: SyncedCart | null, answer: ScanAnswer): SyncedCart | null {
  if (!synced) return null;
  const { item } = answer;
  const at = synced.cart.items.findIndex((line) => line.id === item.id);
  const shown = at === -1 ? 0 : synced.cart.items[at]!.quantity;
  if (item.quantity !== shown && item.quantity !== shown + 1) return null;
  if (item.quantity === shown) return expectEcho(synced, item.product.id);
  const items =
    at === -1 ? [...synced.cart.items, item] : synced.cart.items.map((line, index) => (index === at ? item : line));
  return expectEcho({ ...synced, cart: withAnswer(synced.cart, items, answer) }, item.product.id);
}

/**
 * The copy after `product_added`: this phone's own echo is passed over; else
 * the one line of that product at that price gets one more. A product with
 * no such line (a new line: its id is not in the message) or several (price
 * and weight labels) is left to the `cart_updated` that follows.
 */
export function applyProductAdded(synced: SyncedCart, product: AddedProduct): SyncedCart {
  const echoes = synced.echoes[product.id] ?? 0;
  if (echoes > 0) return { ...synced, echoes: { ...synced.echoes, [product.id]: echoes - 1 } };
  const lines = synced.cart.items.filter((line) => line.product.id === product.id && line.unit_price === product.price);
  if (lines.length !== 1) return synced;
  const line = lines[0]!;
  const more = withQuantity(line, line.quantity + 1);
  return {
    ...synced,
    cart: withItems(
      synced.cart,
      synced.cart.items.map((item) => (item === line ? more : item)),
    ),
  };
}

/** What the page does with the copy: show it (and keep it for offline), and read the whole cart when told. */
export interface CartKeeper {
  /** Forgets the copy: another visit, or a page opened anew. */
  reset(): void;
  /** `ready` or `cart_updated`: the whole cart, as the socket heard it. */
  socketCart(cart: Cart): void;
  /** A whole cart from an HTTP answer; `echoed` names the product whose one more the socket will echo. */
  answerCart(cart: Cart, echoed?: string): void;
  /**
   * Reads the whole cart (a GET) and shows it, unless the socket brought a
   * whole cart while the answer was on its way: that one may be newer, and a
   * connected socket brings every later change, so the answer is dropped
   * rather than let an older cart overwrite a newer one.
   */
  read(get: () => Promise<Cart>): Promise<void>;
  productAdded(product: AddedProduct): void;
  /** Runs one of this phone's cart changes: a `product_added` heard meanwhile is its echo, or left to `cart_updated`. */
  change<T>(run: () => Promise<T>): Promise<T>;
  /** Applies a scan's answer; false when the copy cannot take it and only reading the whole cart will do. */
  scanAnswered(answer: ScanAnswer): boolean;
}

/** The phone's copy of the cart, told of every answer and message, showing each new cart with `show`. */
export function cartKeeper(show: (cart: Cart) => void): CartKeeper {
  let synced: SyncedCart | null = null;
  let changing = 0;
  /** Whole carts the socket has brought: a read that saw this number change was overtaken. */
  let pushed = 0;
  const keep = (next: SyncedCart) => {
    const changed = next.cart !== synced?.cart;
    synced = next;
    if (changed) show(next.cart);
  };
  return {
    reset() {
      synced = null;
    },
    socketCart(cart) {
      pushed++;
      keep(fromSocket(cart));
    },
    answerCart(cart, echoed) {
      const next = fromAnswer(synced, cart);
      keep(echoed ? expectEcho(next, echoed) : next);
    },
    async read(get) {
      const before = pushed;
      const cart = await get();
      if (pushed === before) keep(fromAnswer(synced, cart));
    },
    productAdded(product) {
      if (synced && changing === 0) keep(applyProductAdded(synced, product));
    },
    async change(run) {
      changing++;
      try {
        return await run();
      } finally {
        changing--;
      }
    },
    scanAnswered(answer) {
      const next = applyScanAnswer(synced, answer);
      if (next) keep(next);
      // The whole cart that is read shows the scan; its echo is still to be passed over.
      else if (synced) synced = expectEcho(synced, answer.item.product.id);
      return next !== null;
    },
  };
}
