import { useState } from "react";
import { Link } from "react-router";
import { buttonClass } from "../components/button.ts";
import { Message } from "../components/message.tsx";
import { messageOf, ShopperApiError, shopperApi } from "../lib/client.ts";
import { log } from "../lib/log.ts";
import { tokenStore } from "../lib/storage.ts";
import { sv } from "../sv.ts";

interface Failure {
  text: string;
  /** No card on file: the way on is the card page. */
  needsCard: boolean;
}

/**
 * "Betala nu": pays every visit the shopper owes with the card on file (the
 * checkout settles them all), then hands over to `onPaid`. A refusal is shown
 * in the server's Swedish, with the card page when there is no card.
 */
export function PayUnpaid({ onPaid }: { onPaid: () => void }) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);

  async function pay() {
    if (busy) return;
    const userId = tokenStore.userId();
    setBusy(true);
    setFailure(null);
    try {
      if (!userId) throw new Error("No user id stored");
      await shopperApi.checkout(userId);
      setBusy(false);
      onPaid();
    } catch (error) {
      log.warn("Could not pay the unpaid visit", error);
      setBusy(false);
      setFailure({
        text: messageOf(error, sv.unpaid.failed),
        needsCard: error instanceof ShopperApiError && error.code === "no_payment_method",
      });
    }
  }

  return (
    <div className="flex flex-col gap-3">
      {failure && <Message tone="error">{failure.text}</Message>}
      {failure?.needsCard && (
        <Link to="/customer/betalkort" className={buttonClass("secondary")}>
          {sv.card.toCard}
        </Link>
      )}
      {/* aria-disabled keeps the focus on the button while the payment runs. */}
      <button
        type="button"
        className={buttonClass("primary", busy ? "cursor-wait opacity-60" : undefined)}
        aria-disabled={busy || undefined}
        aria-busy={busy || undefined}
        onClick={() => void pay()}
      >
        {sv.unpaid.payNow}
      </button>
      {busy && (
        <p role="status" className="text-center text-muted-foreground">
          {sv.unpaid.paying}
        </p>
      )}
    </div>
  );
}
