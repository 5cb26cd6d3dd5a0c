import { useState } from "react";
import { Navigate } from "react-router";
import { CartButton } from "../cart/cart-button.tsx";
import { CartSection } from "../cart/cart-section.tsx";
import { CartSheet } from "../cart/cart-sheet.tsx";
import { ScanPanel } from "../cart/scan-panel.tsx";
import { TotalBar } from "../cart/total-bar.tsx";
import { useCart } from "../cart/use-cart.ts";
import { PageShell } from "../components/page-shell.tsx";
import { entryStore } from "../lib/storage.ts";
import { sv } from "../sv.ts";
import { TypedBarcodeForm } from "./typed-barcode-form.tsx";

/**
 * /customer/manual-scan (spec §2 Manual scan): scanning with a 250×250 box,
 * a field to type the barcode where the camera cannot read it, the cart with
 * its buttons, the total bar once something is in it. The same server cart
 * as the shopping page.
 */
export default function ManualScanPage() {
  const [sessionId] = useState(() => entryStore.sessionId());
  const cart = useCart(sessionId);
  const [sheetOpen, setSheetOpen] = useState(false);

  if (cart.forbidden) return <Navigate to="/customer" replace />;
  const empty = cart.items.length === 0;

  return (
    <PageShell
      tagline={sv.manual.subtitle}
      taglineIsTitle
      className={empty ? undefined : "pb-36"}
      actions={<CartButton count={cart.count} onOpen={() => setSheetOpen(true)} />}
    >
      <section aria-label={sv.manual.start} className="flex flex-col gap-4 rounded-2xl border bg-card p-4">
        <ScanPanel cart={cart} box="fixed" startLabel={sv.manual.start} prompt={sv.manual.prompt} />
        {/* When the camera fails or a code will not read: the same scan, typed. */}
        <TypedBarcodeForm cart={cart} />
      </section>
      <CartSection cart={cart} layout="manual" emptyHint={sv.manual.emptyHint} />
      {!empty && <TotalBar cart={cart} />}
      <CartSheet open={sheetOpen} onClose={() => setSheetOpen(false)} cart={cart} />
    </PageShell>
  );
}
