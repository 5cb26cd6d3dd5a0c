import { Sparkles } from "lucide-react";
import { useEffect, useState } from "react";
import { Navigate, useNavigate } from "react-router";
import { CartButton } from "../cart/cart-button.tsx";
import { CartSection } from "../cart/cart-section.tsx";
import { CartSheet } from "../cart/cart-sheet.tsx";
import { ScanPanel } from "../cart/scan-panel.tsx";
import { TotalBar } from "../cart/total-bar.tsx";
import { useCart } from "../cart/use-cart.ts";
import { PageShell } from "../components/page-shell.tsx";
import { Spinner } from "../components/spinner.tsx";
import { isAbort, shopperApi } from "../lib/client.ts";
import { log } from "../lib/log.ts";
import { entryStore } from "../lib/storage.ts";
import { sv } from "../sv.ts";
import { IosBanner } from "./ios-banner.tsx";

/**
 * /customer/shop, behind its gate (spec §2 Shopping page): no visit → /customer,
 * door status unknown → /customer, door still shut → /customer/qr-entry.
 */
export default function ShopPage() {
  const navigate = useNavigate();
  const [sessionId] = useState(() => entryStore.sessionId());
  const [doorOpened, setDoorOpened] = useState(false);

  useEffect(() => {
    if (!sessionId) return;
    const controller = new AbortController();
    shopperApi.doorStatus(sessionId, controller.signal).then(
      ({ door_opened }) => {
        if (door_opened) setDoorOpened(true);
        else void navigate("/customer/qr-entry", { replace: true });
      },
      (error: unknown) => {
        if (isAbort(error)) return;
        log.warn("Could not check door status", error);
        void navigate("/customer", { replace: true });
      },
    );
    return () => controller.abort();
  }, [sessionId, navigate]);

  if (!sessionId) return <Navigate to="/customer" replace />;
  if (!doorOpened) return <Spinner label={sv.shop.checking} className="min-h-svh" />;
  return <Shopping sessionId={sessionId} />;
}

function Shopping({ sessionId }: { sessionId: string }) {
  const cart = useCart(sessionId);
  const [sheetOpen, setSheetOpen] = useState(false);

  if (cart.forbidden) return <Navigate to="/customer" replace />;

  return (
    <PageShell
      tagline={sv.shop.tagline}
      taglineIsTitle
      className="pb-36"
      actions={<CartButton count={cart.count} onOpen={() => setSheetOpen(true)} />}
    >
      <IosBanner />
      <section aria-labelledby="ai-title" className="flex flex-col gap-4 rounded-2xl border bg-card p-4">
        <div className="flex items-start gap-3">
          <Sparkles aria-hidden="true" className="mt-1 size-6 shrink-0 text-primary" />
          <div>
            <h2 id="ai-title" className="text-lg font-bold">
              {sv.shop.aiTitle}
            </h2>
            <p className="text-muted-foreground">{sv.shop.aiText}</p>
          </div>
        </div>
        <ScanPanel cart={cart} box="share" zoom startLabel={sv.shop.scanProduct} />
      </section>
      <CartSection cart={cart} layout="shop" emptyHint={sv.shop.emptyHint} />
      <TotalBar cart={cart} />
      <CartSheet open={sheetOpen} onClose={() => setSheetOpen(false)} cart={cart} />
    </PageShell>
  );
}
