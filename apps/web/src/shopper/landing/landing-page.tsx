import { MapPin, Store } from "lucide-react";
import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { buttonClass } from "../components/button.ts";
import { Message } from "../components/message.tsx";
import { PageShell } from "../components/page-shell.tsx";
import { shopperApi } from "../lib/client.ts";
import { log } from "../lib/log.ts";
import { entryStore, tokenStore } from "../lib/storage.ts";
import { sv } from "../sv.ts";
import { UnpaidNotice } from "../unpaid/unpaid-notice.tsx";
import { OpenVisitCard } from "./open-visit.tsx";
import { type StoreLookup, storeAddress, usePublicStore } from "./use-public-store.ts";

function StoreCard({ lookup }: { lookup: StoreLookup }) {
  if (lookup.state === "none") return null;
  if (lookup.state === "failed") return <Message tone="error">{lookup.message}</Message>;
  return (
    <section
      aria-label={sv.landing.storeLabel}
      aria-busy={lookup.state === "loading"}
      className="rounded-2xl border bg-card p-4"
    >
      {lookup.state === "loading" ? (
        <p className="text-muted-foreground">{sv.landing.storeLoading}</p>
      ) : (
        <div className="flex items-start gap-3">
          <Store aria-hidden="true" className="mt-1 size-6 shrink-0 text-primary" />
          <div className="min-w-0">
            <h2 className="text-lg font-semibold">{lookup.store.name}</h2>
            {storeAddress(lookup.store) && (
              <p className="flex items-center gap-1 text-muted-foreground">
                <MapPin aria-hidden="true" className="size-4 shrink-0" />
                {storeAddress(lookup.store)}
              </p>
            )}
            {!lookup.store.is_active && <p className="mt-2 font-medium text-destructive">{sv.landing.storeClosed}</p>}
          </div>
        </div>
      )}
    </section>
  );
}

/**
 * Signing out on a shared phone: the server ends the sign-in (its tokens stop
 * working), then the phone forgets it. Not offered during a visit: the exit
 * needs the sign-in.
 */
function useSignOut() {
  const [signedIn, setSignedIn] = useState(() => tokenStore.access() !== null);
  const [signedOut, setSignedOut] = useState(false);
  const [busy, setBusy] = useState(false);
  const signOut = async () => {
    setBusy(true);
    const refresh = tokenStore.refresh();
    // The phone forgets the sign-in even when the server cannot be reached; the tokens then expire by themselves.
    if (refresh) await shopperApi.signOut(refresh).catch((error: unknown) => log.warn("Sign-out failed", error));
    tokenStore.clear();
    setBusy(false);
    setSignedIn(false);
    setSignedOut(true);
  };
  return { signedIn, signedOut, busy, canSignOut: signedIn && entryStore.sessionId() === null, signOut };
}

/** /customer: where the QR code at the store's door leads (spec §2 Landing). */
export function LandingPage() {
  const [params] = useSearchParams();
  const storeId = params.get("store_id");
  const lookup = usePublicStore(storeId, sv.landing.storeFailed);
  const session = useSignOut();

  return (
    <PageShell>
      <section className="flex flex-col gap-3 pt-4">
        <h1 className="text-3xl font-extrabold tracking-tight">{sv.landing.title}</h1>
        <p className="text-lg text-muted-foreground">{sv.landing.intro}</p>
      </section>

      <UnpaidNotice signedIn={session.signedIn} />

      <OpenVisitCard signedIn={session.signedIn} />

      <StoreCard lookup={lookup} />

      <section aria-labelledby="how-it-works" className="flex flex-col gap-3">
        <h2 id="how-it-works" className="text-xl font-bold">
          {sv.landing.howItWorks}
        </h2>
        <ol className="flex flex-col gap-3">
          {sv.landing.steps.map((step, index) => (
            <li key={step.title} className="flex items-start gap-4 rounded-2xl border bg-card p-4">
              <span
                aria-hidden="true"
                className="flex size-10 shrink-0 items-center justify-center rounded-full bg-primary text-lg font-bold text-primary-foreground"
              >
                {index + 1}
              </span>
              <div>
                <h3 className="font-semibold">{step.title}</h3>
                <p className="text-muted-foreground">{step.text}</p>
              </div>
            </li>
          ))}
        </ol>
      </section>

      <div className="mt-auto flex flex-col gap-2 pt-2">
        <Link
          to={`/customer/login?store_id=${encodeURIComponent(storeId || "demo")}`}
          className={buttonClass("primary")}
        >
          {sv.landing.demo}
        </Link>
        {session.signedIn && (
          <div className="flex gap-2">
            <Link to="/customer/betalkort" className={buttonClass("ghost", "flex-1")}>
              {sv.card.title}
            </Link>
            <Link to="/customer/receipts" className={buttonClass("ghost", "flex-1")}>
              {sv.receipts.title}
            </Link>
          </div>
        )}
        {session.canSignOut && (
          <button
            type="button"
            onClick={() => void session.signOut()}
            disabled={session.busy}
            aria-busy={session.busy}
            className={buttonClass("ghost")}
          >
            {sv.landing.signOut}
          </button>
        )}
        {session.signedOut && <p role="status">{sv.landing.signedOut}</p>}
      </div>
    </PageShell>
  );
}
