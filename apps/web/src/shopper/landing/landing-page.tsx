import { MapPin, Store } from "lucide-react";
import { Link, useSearchParams } from "react-router";
import { buttonClass } from "../components/button.ts";
import { Message } from "../components/message.tsx";
import { PageShell } from "../components/page-shell.tsx";
import { tokenStore } from "../lib/storage.ts";
import { sv } from "../sv.ts";
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

/** /customer: where the QR code at the store's door leads (spec §2 Landing). */
export function LandingPage() {
  const [params] = useSearchParams();
  const storeId = params.get("store_id");
  const lookup = usePublicStore(storeId, sv.landing.storeFailed);

  return (
    <PageShell>
      <section className="flex flex-col gap-3 pt-4">
        <h1 className="text-3xl font-extrabold tracking-tight">{sv.landing.title}</h1>
        <p className="text-lg text-muted-foreground">{sv.landing.intro}</p>
      </section>

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
        {tokenStore.access() && (
          <div className="flex gap-2">
            <Link to="/customer/betalkort" className={buttonClass("ghost", "flex-1")}>
              {sv.card.title}
            </Link>
            <Link to="/customer/receipts" className={buttonClass("ghost", "flex-1")}>
              {sv.receipts.title}
            </Link>
          </div>
        )}
      </div>
    </PageShell>
  );
}
