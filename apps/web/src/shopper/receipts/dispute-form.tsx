import type { Receipt } from "@glide/contracts";
import { useId, useState } from "react";
import { buttonClass } from "../components/button.ts";
import { Message } from "../components/message.tsx";
import { messageOf, shopperApi } from "../lib/client.ts";
import { sv } from "../sv.ts";

/** "Stämmer inte kvittot?": the shopper's dispute of a receipt, and its state and staff's answer once sent. */
export function DisputeForm({ receipt, onSent }: { receipt: Receipt; onSent: (dispute: Receipt["dispute"]) => void }) {
  const id = useId();
  const [message, setMessage] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const dispute = receipt.dispute;

  if (dispute && dispute.state === "open")
    return (
      <section aria-labelledby={`${id}-title`} className="flex flex-col gap-2 rounded-2xl border bg-card p-4">
        <h2 id={`${id}-title`} className="font-bold">
          {sv.receipts.disputeSent}
        </h2>
        <p className="text-sm text-muted-foreground">{sv.receipts.disputeState[dispute.state]}</p>
      </section>
    );

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!message.trim()) return setError(sv.receipts.disputeLabel);
    setSending(true);
    setError(null);
    try {
      onSent(await shopperApi.dispute(receipt.id, message.trim()));
    } catch (failure) {
      setError(messageOf(failure, sv.receipts.disputeFailed));
    } finally {
      setSending(false);
    }
  };

  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-2 rounded-2xl border bg-card p-4">
      {dispute ? (
        <p className="text-sm">
          {sv.receipts.disputeState[dispute.state]}
          {dispute.resolution ? ` · ${sv.receipts.disputeAnswer}: ${dispute.resolution}` : ""}
        </p>
      ) : null}
      <h2 id={`${id}-title`} className="font-bold">
        {sv.receipts.disputeTitle}
      </h2>
      <form onSubmit={submit} className="flex flex-col gap-2">
        <label htmlFor={`${id}-message`}>{sv.receipts.disputeLabel}</label>
        <textarea
          id={`${id}-message`}
          className="min-h-24 rounded-xl border bg-background p-3"
          maxLength={1000}
          value={message}
          aria-invalid={error ? true : undefined}
          onChange={(e) => setMessage(e.target.value)}
        />
        {error && <Message tone="error">{error}</Message>}
        <button type="submit" className={buttonClass("primary")} disabled={sending}>
          {sv.receipts.disputeSend}
        </button>
      </form>
    </section>
  );
}
