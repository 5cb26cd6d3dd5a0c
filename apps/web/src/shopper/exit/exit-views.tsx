import { CreditCard, DoorClosed, LogIn, Receipt } from "lucide-react";
import { Link } from "react-router";
import { cardPageFor } from "../card/return-path.ts";
import { buttonClass } from "../components/button.ts";
import { PageShell } from "../components/page-shell.tsx";
import { entryStore } from "../lib/storage.ts";
import { sv } from "../sv.ts";

/** A line the shopper must not miss at the gate: the payment's progress, or a staff check. */
export function Notice({ text }: { text: string }) {
  return (
    <p role="status" className="rounded-xl bg-warning-muted px-4 py-3 font-medium text-warning">
      {text}
    </p>
  );
}

/**
 * No card on file, so nothing could be paid (the gate or the fallback said
 * so): one message, and the card page that comes back to the exit, where the
 * next exit code pays.
 */
export function NeedsCardView({ text }: { text: string }) {
  return (
    <PageShell>
      <div className="flex flex-col items-center gap-4 text-center">
        <CreditCard aria-hidden="true" className="size-16 text-primary" />
        <h1 className="text-2xl font-bold">{sv.exit.cardTitle}</h1>
        <p role="alert" className="text-lg">
          {text}
        </p>
        <Link to={cardPageFor("/customer/exit")} className={buttonClass("primary")}>
          {sv.card.toCard}
        </Link>
      </div>
    </PageShell>
  );
}

/** Nothing to leave: the shopper has no visit in a store now. */
export function NoVisitView({ text }: { text: string }) {
  return (
    <PageShell>
      <div className="flex flex-col items-center gap-4 text-center">
        <DoorClosed aria-hidden="true" className="size-16 text-muted-foreground" />
        <h1 className="text-2xl font-bold">{sv.exit.noVisitTitle}</h1>
        <p className="text-lg">{text}</p>
        <Link to="/customer" className={buttonClass("primary")}>
          {sv.common.backToStart}
        </Link>
      </div>
    </PageShell>
  );
}

/**
 * The pant machine vouchers are worth the whole cart or more, and are never
 * paid out: nothing was charged and the cart is open. The server's line says
 * what to do; the way back to the cart is one tap.
 */
export function VouchersCoverView({ text }: { text: string }) {
  return (
    <PageShell>
      <div className="flex flex-col items-center gap-4 text-center">
        <Receipt aria-hidden="true" className="size-16 text-primary" />
        <h1 className="text-2xl font-bold">{sv.exit.vouchersTitle}</h1>
        <p role="alert" className="text-lg">
          {text}
        </p>
        <Link to="/customer/shop" className={buttonClass("primary")}>
          {sv.exit.backToCart}
        </Link>
      </div>
    </PageShell>
  );
}

/** Signed out (or the sign-in ran out): signing in again, for the store of the visit when the phone knows it. */
export function SignedOutView() {
  const storeId = entryStore.storeId();
  return (
    <PageShell>
      <div className="flex flex-col items-center gap-4 text-center">
        <LogIn aria-hidden="true" className="size-16 text-primary" />
        <h1 className="text-2xl font-bold">{sv.exit.signedOutTitle}</h1>
        <p className="text-lg">{sv.exit.signedOut}</p>
        {storeId && (
          <Link to={`/customer/login?store_id=${encodeURIComponent(storeId)}`} className={buttonClass("primary")}>
            {sv.exit.signIn}
          </Link>
        )}
        <Link to="/customer" className={buttonClass(storeId ? "ghost" : "primary")}>
          {sv.common.backToStart}
        </Link>
      </div>
    </PageShell>
  );
}
