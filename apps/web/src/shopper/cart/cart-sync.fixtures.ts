import type { Cart, CartDiscount, CartItem, CartVoucher } from "@glide/contracts";
import type { AddedProduct } from "./cart-sync.ts";

/** Carts, lines and answers as the server sends them, for the tests of the phone's copy of the cart. */

const SESSION = "6f1c2b4e-8a47-4d3e-9a51-0c7d2e9b1f30";

/** A line as the server sends it; `pantUnit` is the pant of one in kronor, for a drink with a pant mark. */
export function line(id: string, productId: string, quantity: number, unitPrice: number, pantUnit?: number): CartItem {
  return {
    id,
    quantity,
    unit_price: unitPrice,
    total_price: Math.round(unitPrice * 100 * quantity) / 100,
    ordinary_unit_price: null,
    member_unit_price: null,
    weight_grams: null,
    product: { id: productId, name: `Produkt ${productId}`, image_url: null, comparison_price: null },
    pant: pantUnit === undefined ? null : { unit: pantUnit, total: Math.round(pantUnit * 100 * quantity) / 100 },
  };
}

/** A cart as the server sends it without offers: its total counts every line's goods and pant. */
export function cartOf(...items: CartItem[]): Cart {
  return discounted([], ...items);
}

/** A cart as the server sends it with `discounts`: its total is every line's goods and pant less them. */
export function discounted(discounts: CartDiscount[], ...items: CartItem[]): Cart {
  const ore = items.reduce(
    (sum, item) => sum + Math.round(item.total_price * 100) + Math.round((item.pant?.total ?? 0) * 100),
    0,
  );
  const off = discounts.reduce((sum, discount) => sum + Math.round(discount.amount * 100), 0);
  const total = (ore - off) / 100;
  return { session_id: SESSION, items, discounts, vouchers: [], to_pay: total, total, member_total: null };
}

/** `cart` as the server sends it with `vouchers` in it: the card pays its total less them, never below 0. */
export function withVouchers(cart: Cart, ...vouchers: CartVoucher[]): Cart {
  const off = vouchers.reduce((sum, voucher) => sum + Math.round(voucher.amount * 100), 0);
  return { ...cart, vouchers, to_pay: Math.max(0, Math.round(cart.total * 100) - off) / 100 };
}

/** A voucher as a pant machine prints it (the code's check digit does not matter to the copy). */
export const voucher = (serial: string, amount: number): CartVoucher => ({
  code: `980${serial}${String(amount).padStart(4, "0")}0`,
  amount,
});

export const added = (item: CartItem): AddedProduct => ({ ...item.product, price: item.unit_price });
export const answer = (item: CartItem) => ({ product: item.product, item });
/** A scan's answer as the server sends it: the line, and the cart's discounts, total and members' total after the scan. */
export const pricedAnswer = (cart: Cart, item: CartItem) => ({
  ...answer(item),
  discounts: cart.discounts,
  total: cart.total,
  member_total: cart.member_total,
});

/** `cart` as a non-member's: a member would pay `memberTotal`. */
export const forNonMember = (cart: Cart, memberTotal: number): Cart => ({ ...cart, member_total: memberTotal });

/** `line` as a non-member's: a member would pay `memberUnit` for one. */
export const atMemberPrice = (item: CartItem, memberUnit: number): CartItem => ({
  ...item,
  member_unit_price: memberUnit,
});
