import { CreditCard } from "lucide-react";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import { isAbort, shopperApi } from "../lib/client.ts";
import { log } from "../lib/log.ts";
import { sv } from "../sv.ts";
import { cardPageFor } from "./return-path.ts";

/**
 * Says so when the signed-in shopper has no card on file, with the way to add
 * one and back to `returnTo` (the page it is on); nothing otherwise.
 */
export function CardNotice({ text, returnTo }: { text: string; returnTo: string }) {
  const [missing, setMissing] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    shopperApi.card(controller.signal).then(
      ({ card }) => setMissing(card === null),
      (error: unknown) => {
        if (!isAbort(error)) log.warn("Could not read the card on file", error);
      },
    );
    return () => controller.abort();
  }, []);
  if (!missing) return null;
  return (
    <div role="status" className="flex items-start gap-3 rounded-xl bg-warning-muted px-4 py-3 text-warning">
      <CreditCard aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
      <div className="flex flex-col gap-1 text-left">
        <p className="font-medium">{text}</p>
        <Link to={cardPageFor(returnTo)} className="font-semibold underline underline-offset-4">
          {sv.card.toCard}
        </Link>
      </div>
    </div>
  );
}
