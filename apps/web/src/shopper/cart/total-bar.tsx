import { Link } from "react-router";
import { buttonClass } from "../components/button.ts";
import { formatAmount } from "../lib/money.ts";
import { sv } from "../sv.ts";
import { MemberTotalLink } from "./member-price.tsx";
import type { ShoppingCart } from "./use-cart.ts";

/**
 * The fixed bar at the bottom: 'Totalt' to two decimals, as the spec has it;
 * with pant machine vouchers in the cart, 'Att betala' under it (what the
 * card pays after them); then what a member would pay (for a shopper who is
 * none), and the way to the exit.
 */
export function TotalBar({ cart }: { cart: Pick<ShoppingCart, "total" | "memberTotal" | "toPay" | "vouchers"> }) {
  const { total, memberTotal, toPay } = cart;
  const hasVouchers = cart.vouchers.length > 0;
  return (
    <div className="fixed inset-x-0 bottom-0 z-10 border-t bg-card/95 backdrop-blur">
      <div className="mx-auto flex w-full max-w-md items-center gap-4 px-4 pt-3 pb-[max(0.75rem,env(safe-area-inset-bottom))]">
        <div className="shrink-0">
          <p className="text-sm text-muted-foreground">{sv.cart.total}</p>
          <p className="whitespace-nowrap text-2xl font-extrabold tabular-nums" data-testid="cart-total">
            {formatAmount(total)} kr
          </p>
          {hasVouchers && (
            <p className="whitespace-nowrap text-sm tabular-nums" data-testid="cart-to-pay">
              {sv.cart.toPay} {formatAmount(toPay)} kr
            </p>
          )}
          <MemberTotalLink total={memberTotal} />
        </div>
        <Link to="/customer/exit" className={buttonClass("primary", "flex-1")}>
          {sv.cart.checkout}
        </Link>
      </div>
    </div>
  );
}
