import type { OpenVisit } from "@glide/contracts";
import { ShoppingCart } from "lucide-react";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import { buttonClass } from "../components/button.ts";
import { isAbort, shopperApi } from "../lib/client.ts";
import { log } from "../lib/log.ts";
import { formatKr } from "../lib/money.ts";
import { entryStore } from "../lib/storage.ts";
import { sv } from "../sv.ts";

/** The signed-in shopper's visit inside a store now, as the server knows it; null without one or signed out. */
function useOpenVisit(signedIn: boolean): OpenVisit | null {
  const [visit, setVisit] = useState<OpenVisit | null>(null);
  useEffect(() => {
    if (!signedIn) {
      setVisit(null);
      return;
    }
    const controller = new AbortController();
    shopperApi.openVisit(controller.signal).then(setVisit, (error: unknown) => {
      if (!isAbort(error)) log.warn("Could not read the open visit", error);
    });
    return () => controller.abort();
  }, [signedIn]);
  return visit;
}

/**
 * On the landing page during a visit: the store, the cart's total and
 * "Fortsätt handla" back to the shopping page, from whichever tab or phone
 * the shopper signed in on. The visit is taken from the server, so the
 * shopping page finds it even where this phone had forgotten it.
 */
export function OpenVisitCard({ signedIn }: { signedIn: boolean }) {
  const visit = useOpenVisit(signedIn);
  if (!visit) return null;
  return (
    <section
      aria-label={sv.landing.visitLabel}
      className="flex flex-col gap-3 rounded-2xl border-2 border-primary bg-card p-4"
    >
      <div className="flex items-start gap-3">
        <ShoppingCart aria-hidden="true" className="mt-1 size-6 shrink-0 text-primary" />
        <div className="min-w-0 flex-1">
          <h2 className="break-words text-lg font-semibold">{sv.landing.visitIn(visit.store_name)}</h2>
          <p className="flex flex-wrap justify-between gap-x-3 text-muted-foreground">
            <span>{sv.landing.visitCart(visit.item_count)}</span>
            <span
              className="whitespace-nowrap font-semibold text-foreground tabular-nums"
              data-testid="open-visit-total"
            >
              {formatKr(visit.total)}
            </span>
          </p>
        </div>
      </div>
      <Link to="/customer/shop" onClick={() => entryStore.resume(visit)} className={buttonClass("primary")}>
        {sv.landing.resume}
      </Link>
    </section>
  );
}
