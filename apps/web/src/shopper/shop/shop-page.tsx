import { ShoppingBasket } from "lucide-react";
import { useEffect, useState } from "react";
import { Navigate, useNavigate } from "react-router";
import { PageShell } from "../components/page-shell.tsx";
import { Spinner } from "../components/spinner.tsx";
import { isAbort, shopperApi } from "../lib/client.ts";
import { log } from "../lib/log.ts";
import { entryStore } from "../lib/storage.ts";
import { sv } from "../sv.ts";

/**
 * /customer/shop, behind its gate (spec §2 Shopping page): no visit → /customer,
 * door status unknown → /customer, door still shut → /customer/qr-entry.
 */
export function ShopPage() {
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

  return (
    <PageShell tagline={sv.shop.tagline}>
      <section aria-labelledby="cart-title" className="flex flex-col gap-3">
        <h1 id="cart-title" className="text-xl font-bold">
          {sv.shop.cartTitle}
        </h1>
        <div className="flex flex-col items-center gap-2 rounded-2xl border bg-card px-4 py-10 text-center">
          <ShoppingBasket aria-hidden="true" className="size-12 text-muted-foreground" />
          <p className="text-lg font-semibold">{sv.shop.empty}</p>
          <p className="text-muted-foreground">{sv.shop.emptyHint}</p>
        </div>
      </section>
    </PageShell>
  );
}
