import type { UnpaidVisit } from "@glide/contracts";
import { CircleAlert } from "lucide-react";
import { useEffect, useState } from "react";
import { Message } from "../components/message.tsx";
import { isAbort, shopperApi } from "../lib/client.ts";
import { log } from "../lib/log.ts";
import { formatKr } from "../lib/money.ts";
import { sv } from "../sv.ts";
import { PayUnpaid } from "./pay-unpaid.tsx";

/** The signed-in shopper's visits left unpaid, read again by `refresh`; empty while signed out. */
function useUnpaidVisits(signedIn: boolean) {
  const [visits, setVisits] = useState<UnpaidVisit[]>([]);
  const [round, setRound] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `round` is how a payment asks for the list again.
  useEffect(() => {
    if (!signedIn) {
      setVisits([]);
      return;
    }
    const controller = new AbortController();
    shopperApi.unpaidVisits(controller.signal).then(setVisits, (error: unknown) => {
      if (!isAbort(error)) log.warn("Could not read the unpaid visits", error);
    });
    return () => controller.abort();
  }, [signedIn, round]);
  return { visits, refresh: () => setRound((n) => n + 1) };
}

/**
 * On the landing page: what the shopper owes for visits left with goods and
 * no payment, store by store, and "Betala nu". The server refuses a new
 * entry code until it is paid, so it is said before the shopper tries.
 */
export function UnpaidNotice({ signedIn }: { signedIn: boolean }) {
  const { visits, refresh } = useUnpaidVisits(signedIn);
  const [paid, setPaid] = useState(false);

  if (visits.length === 0) return paid ? <Message tone="success">{sv.unpaid.paid}</Message> : null;
  return (
    <section
      aria-labelledby="unpaid-title"
      className="flex flex-col gap-3 rounded-2xl border-2 border-warning bg-warning-muted p-4"
    >
      <h2 id="unpaid-title" className="flex items-center gap-2 text-xl font-bold text-warning">
        <CircleAlert aria-hidden="true" className="size-6 shrink-0" />
        {sv.unpaid.title}
      </h2>
      <p>{sv.unpaid.intro}</p>
      <ul aria-label={sv.unpaid.listLabel} className="flex flex-col gap-1">
        {visits.map((visit) => (
          <li key={visit.session_id} className="flex justify-between gap-3 font-medium">
            <span className="min-w-0 break-words">{visit.store_name}</span>
            <span className="shrink-0 tabular-nums">{formatKr(visit.total)}</span>
          </li>
        ))}
      </ul>
      <PayUnpaid
        onPaid={() => {
          setPaid(true);
          refresh();
        }}
      />
    </section>
  );
}
