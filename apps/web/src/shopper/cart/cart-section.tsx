import { ShoppingBasket, WifiOff } from "lucide-react";
import { sv } from "../sv.ts";
import { CartLines } from "./cart-lines.tsx";
import type { ShoppingCart } from "./use-cart.ts";

/** 'Din kundvagn': its lines, or the empty state with the page's own hint. */
export function CartSection({
  cart,
  layout,
  emptyHint,
}: {
  cart: ShoppingCart;
  layout: "shop" | "manual";
  emptyHint: string;
}) {
  const empty = cart.items.length === 0 && cart.pending.length === 0;
  return (
    <section aria-labelledby="cart-title" className="flex flex-col gap-3">
      <h2 id="cart-title" className="text-xl font-bold">
        {sv.shop.cartTitle}
      </h2>
      {cart.stale && (
        <p className="flex items-center gap-2 text-sm text-muted-foreground">
          <WifiOff aria-hidden="true" className="size-4" />
          {sv.cart.offline}
        </p>
      )}
      {empty ? (
        <div className="flex flex-col items-center gap-2 rounded-2xl border bg-card px-4 py-10 text-center">
          <ShoppingBasket aria-hidden="true" className="size-12 text-muted-foreground" />
          <p className="text-lg font-semibold">{sv.shop.empty}</p>
          <p className="text-muted-foreground">{emptyHint}</p>
        </div>
      ) : (
        <CartLines
          items={cart.items}
          pending={cart.pending}
          layout={layout}
          onQuantity={cart.setQuantity}
          onRemove={cart.remove}
        />
      )}
    </section>
  );
}
