import { CreditCard } from "lucide-react";
import { useEffect, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { buttonClass } from "../components/button.ts";
import { Message } from "../components/message.tsx";
import { PageShell } from "../components/page-shell.tsx";
import { Spinner } from "../components/spinner.tsx";
import { isAbort, messageOf, shopperApi } from "../lib/client.ts";
import { log } from "../lib/log.ts";
import { tokenStore } from "../lib/storage.ts";
import { sv } from "../sv.ts";
import { FaceConsent } from "./face-consent.tsx";
import { MembershipSection } from "./membership.tsx";
import { ReceiptEmail } from "./receipt-email.tsx";
import { cardPageFor, safeReturnPath } from "./return-path.ts";

type Card = { brand: string; last4: string } | null;

/**
 * /customer/betalkort: the card that is charged at the exit. "Lägg till kort"
 * leads to the payment provider's card page, which returns here with
 * ?payment_method=pm_…; the card is then saved on the server. `?return=` is
 * where the shopper came from (the exit, the entry code): it goes to the
 * provider's page and back in the address this page gives it, and
 * "Tillbaka" leads there (else to the start page), never back into the
 * provider's form.
 */
export default function CardPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const returned = params.get("payment_method");
  const returnTo = safeReturnPath(params.get("return"));
  /** This page as the shopper should come back to it, without the provider's answer. */
  const here = returnTo ? cardPageFor(returnTo) : "/customer/betalkort";
  const [card, setCard] = useState<Card | undefined>(undefined);
  const [cardPage, setCardPage] = useState<string | null>(null);
  const [message, setMessage] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const signedIn = tokenStore.access() !== null;

  useEffect(() => {
    if (!signedIn) return;
    const controller = new AbortController();
    void shopperApi.config().then(
      (config) => setCardPage(config.card_page_url),
      () => setCardPage(null),
    );
    (async () => {
      try {
        if (returned) {
          // Back from the card page: save what it made, then drop it from the address.
          setCard((await shopperApi.saveCard(returned)).card);
          setMessage({ tone: "success", text: sv.card.saved });
          void navigate(here, { replace: true });
        } else {
          setCard((await shopperApi.card(controller.signal)).card);
        }
      } catch (error) {
        if (isAbort(error)) return;
        log.warn("Card call failed", error);
        setMessage({ tone: "error", text: messageOf(error, sv.card.failed) });
        setCard((current) => current ?? null);
      }
    })();
    return () => controller.abort();
  }, [signedIn, returned, navigate, here]);

  if (!signedIn) {
    return (
      <PageShell>
        <h1 className="text-2xl font-bold">{sv.card.title}</h1>
        <p>{sv.card.signIn}</p>
        <Link to="/customer" className={buttonClass("primary")}>
          {sv.common.backToStart}
        </Link>
      </PageShell>
    );
  }
  if (card === undefined) return <Spinner label={sv.common.loading} className="min-h-svh" />;

  const remove = async () => {
    setBusy(true);
    try {
      await shopperApi.removeCard();
      setCard(null);
      setMessage({ tone: "success", text: sv.card.removed });
    } catch (error) {
      setMessage({ tone: "error", text: messageOf(error, sv.card.failed) });
    } finally {
      setBusy(false);
    }
  };

  const back = `${window.location.origin}${here}`;
  const backLink = (
    <Link to={returnTo ?? "/customer"} className={buttonClass(returnTo && card ? "primary" : "ghost")}>
      {sv.card.back}
    </Link>
  );
  const addHref = cardPage
    ? `${cardPage}${cardPage.includes("?") ? "&" : "?"}return_url=${encodeURIComponent(back)}&cancel_url=${encodeURIComponent(back)}`
    : null;

  return (
    <PageShell>
      <h1 className="text-2xl font-bold">{sv.card.title}</h1>
      <p className="text-muted-foreground">{sv.card.intro}</p>
      {message && <Message tone={message.tone}>{message.text}</Message>}
      <section aria-label={sv.card.title} className="flex items-center gap-4 rounded-2xl border bg-card p-4">
        <CreditCard aria-hidden="true" className="size-8 shrink-0 text-primary" />
        <p className="text-lg font-semibold" data-testid="card-on-file">
          {card ? sv.card.current(card.brand, card.last4) : sv.card.none}
        </p>
      </section>
      {addHref ? (
        <a href={addHref} className={buttonClass("primary")}>
          {card ? sv.card.replace : sv.card.add}
        </a>
      ) : (
        <p className="text-muted-foreground">{sv.card.unavailable}</p>
      )}
      {card && (
        <button type="button" disabled={busy} onClick={() => void remove()} className={buttonClass("secondary")}>
          {sv.card.remove}
        </button>
      )}
      {/* Sent here from the exit or the entry code: the way back is what the shopper came for, right under the card. */}
      {returnTo && backLink}
      <ReceiptEmail />
      <FaceConsent />
      <MembershipSection />
      {!returnTo && backLink}
    </PageShell>
  );
}
