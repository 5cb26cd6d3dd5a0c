import type { CartVoucher } from "@glide/contracts";
import { X } from "lucide-react";
import { useEffect, useRef } from "react";
import { Link } from "react-router";
import { buttonClass } from "../components/button.ts";
import { formatKr } from "../lib/money.ts";
import { sv } from "../sv.ts";
import { CampaignPrice } from "./campaign-price.tsx";
import { ComparisonPrice } from "./comparison-price.tsx";
import { DiscountLines } from "./discount-lines.tsx";
import { MemberPrice, MemberTotal } from "./member-price.tsx";
import { PantLine } from "./pant-line.tsx";
import type { ShoppingCart } from "./use-cart.ts";
import { VoucherLines } from "./voucher-lines.tsx";

/** What the sheet shows of the cart. */
export type SheetCart = Pick<
  ShoppingCart,
  "items" | "discounts" | "total" | "memberTotal" | "vouchers" | "toPay" | "removeVoucher"
>;

/**
 * The 'Kundvagn' bottom sheet: each line's name, unit price, quantity and
 * total, its pant under it, the multi-buy discounts under the goods, the
 * server's total after them, the pant machine vouchers with what the card
 * then pays ('Att betala'), what a member would pay (for a shopper who is
 * none) and 'Betala'. A native modal dialog: focus moves in and
 * back, Escape and a tap on the backdrop close it.
 */
export function CartSheet({
  open,
  onClose,
  cart,
}: {
  open: boolean;
  onClose(): void;
  /** The lines, discounts, total, what a member would pay (null when that is no less), vouchers and what the card pays. */
  cart: SheetCart;
}) {
  const { items, discounts, total, memberTotal, vouchers, toPay } = cart;
  const dialog = useRef<HTMLDialogElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  /** The voucher's line and its button go: focus stays in the sheet, on its close button, rather than fall to the page. */
  const removeVoucher = (voucher: CartVoucher) => {
    closeButton.current?.focus();
    void cart.removeVoucher(voucher);
  };

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: Escape closes a modal dialog by itself; the click is the backdrop tap.
    <dialog
      ref={dialog}
      aria-labelledby="cart-sheet-title"
      onClose={onClose}
      // A click on the dialog element itself, outside its panel, is a click on the backdrop.
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
      className="sheet mx-auto mt-auto mb-0 w-full max-w-md rounded-t-3xl bg-card p-0 text-card-foreground"
    >
      {open && (
        <div className="flex max-h-[80svh] flex-col gap-4 p-5 pb-[max(1.25rem,env(safe-area-inset-bottom))]">
          <div className="flex items-center justify-between">
            <h2 id="cart-sheet-title" className="text-xl font-bold">
              {sv.cart.sheetTitle}
            </h2>
            <button
              ref={closeButton}
              type="button"
              onClick={onClose}
              aria-label={sv.cart.close}
              className="flex size-11 items-center justify-center rounded-full hover:bg-muted"
            >
              <X aria-hidden="true" className="size-6" />
            </button>
          </div>
          {items.length === 0 ? (
            <p className="text-muted-foreground">{sv.shop.empty}</p>
          ) : (
            <ul className="flex flex-col divide-y overflow-y-auto">
              {items.map((item) => (
                <li key={item.id} className="flex flex-col gap-1 py-3">
                  <div className="flex items-center justify-between gap-3">
                    <div className="min-w-0">
                      <p className="line-clamp-2 break-words font-semibold">{item.product.name}</p>
                      <p className="text-sm text-muted-foreground">
                        {formatKr(item.unit_price)} · {sv.cart.quantity(item.quantity)}
                      </p>
                      <CampaignPrice ordinary={item.ordinary_unit_price} />
                      <MemberPrice price={item.member_unit_price} />
                      <ComparisonPrice price={item.product.comparison_price} />
                    </div>
                    <p data-amount className="shrink-0 whitespace-nowrap font-bold tabular-nums">
                      {formatKr(item.total_price)}
                    </p>
                  </div>
                  <PantLine item={item} />
                </li>
              ))}
            </ul>
          )}
          <DiscountLines discounts={discounts} className="border-t pt-3" />
          <div className="flex items-center justify-between border-t pt-4 text-lg font-bold">
            <span>{sv.cart.total}</span>
            <span className="whitespace-nowrap tabular-nums">{formatKr(total)}</span>
          </div>
          {vouchers.length > 0 && (
            <>
              <VoucherLines vouchers={vouchers} onRemove={removeVoucher} className="border-t pt-3" />
              <div className="flex items-center justify-between border-t pt-4 text-lg font-bold">
                <span>{sv.cart.toPay}</span>
                <span className="whitespace-nowrap tabular-nums">{formatKr(toPay)}</span>
              </div>
            </>
          )}
          <MemberTotal total={memberTotal} />
          <Link to="/customer/exit" className={buttonClass("primary")}>
            {sv.cart.pay}
          </Link>
        </div>
      )}
    </dialog>
  );
}
