import { ShoppingCart } from "lucide-react";
import { sv } from "../sv.ts";

/** The header's cart icon; the badge with the number of pieces shows only when the cart has any. */
export function CartButton({ count, onOpen }: { count: number; onOpen(): void }) {
  return (
    <button
      type="button"
      onClick={onOpen}
      aria-label={sv.cart.open(count)}
      aria-haspopup="dialog"
      className="relative flex size-12 items-center justify-center rounded-full bg-secondary text-secondary-foreground"
    >
      <ShoppingCart aria-hidden="true" className="size-6" />
      {count > 0 && (
        <span
          aria-hidden="true"
          data-testid="cart-badge"
          className="absolute -top-1 -right-1 flex h-6 min-w-6 items-center justify-center rounded-full bg-primary px-1.5 text-sm font-bold text-primary-foreground"
        >
          {count}
        </span>
      )}
    </button>
  );
}
