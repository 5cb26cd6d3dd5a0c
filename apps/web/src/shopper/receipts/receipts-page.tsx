import type { Receipt } from "@glide/contracts";
import { Receipt as ReceiptIcon } from "lucide-react";
import { useEffect, useState } from "react";
import { Link, useParams } from "react-router";
import { buttonClass } from "../components/button.ts";
import { Message } from "../components/message.tsx";
import { PageShell } from "../components/page-shell.tsx";
import { Spinner } from "../components/spinner.tsx";
import { isAbort, messageOf, shopperApi } from "../lib/client.ts";
import { formatKr } from "../lib/money.ts";
import { sv } from "../sv.ts";
import { DisputeForm } from "./dispute-form.tsx";
import { ReceiptCard } from "./receipt-card.tsx";

type Summary = { id: string; number: number; store_name: string; paid_at: string; total: number; refunded?: number };

/** /customer/receipts and /customer/receipts/:id: the shopper's receipts, newest first, and one of them. */
export default function ReceiptsPage() {
  const { id } = useParams();
  const [list, setList] = useState<Summary[] | null>(null);
  const [receipt, setReceipt] = useState<Receipt | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    setError(null);
    const load = id
      ? shopperApi.receipt(id, controller.signal).then(setReceipt)
      : shopperApi.receipts(controller.signal).then(setList);
    load.catch((failure: unknown) => {
      if (!isAbort(failure)) setError(messageOf(failure, sv.receipts.failed));
    });
    return () => controller.abort();
  }, [id]);

  return (
    <PageShell>
      <h1 className="text-2xl font-bold">{sv.receipts.title}</h1>
      {error && <Message tone="error">{error}</Message>}
      {id ? (
        receipt ? (
          <>
            <ReceiptCard receipt={receipt} />
            <DisputeForm receipt={receipt} onSent={(dispute) => setReceipt({ ...receipt, dispute })} />
          </>
        ) : (
          !error && <Spinner label={sv.common.loading} />
        )
      ) : list === null ? (
        !error && <Spinner label={sv.common.loading} />
      ) : list.length === 0 ? (
        <p className="text-muted-foreground">{sv.receipts.none}</p>
      ) : (
        <ul className="flex flex-col gap-2">
          {list.map((item) => (
            <li key={item.id}>
              <Link
                to={`/customer/receipts/${item.id}`}
                className="flex items-center gap-3 rounded-2xl border bg-card p-4 hover:bg-muted"
              >
                <ReceiptIcon aria-hidden="true" className="size-6 shrink-0 text-primary" />
                <span className="min-w-0 flex-1">
                  <span className="block truncate font-semibold">{item.store_name}</span>
                  <span className="block text-sm text-muted-foreground">
                    {new Date(item.paid_at).toLocaleString("sv-SE")} · {sv.exit.receiptNumber(item.number)}
                  </span>
                </span>
                <span className="shrink-0 whitespace-nowrap font-bold tabular-nums">{formatKr(item.total)}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      <Link to={id ? "/customer/receipts" : "/customer"} className={buttonClass("ghost")}>
        {id ? sv.receipts.all : sv.common.backToStart}
      </Link>
    </PageShell>
  );
}
