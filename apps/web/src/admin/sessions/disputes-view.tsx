import type { Dispute } from "@glide/contracts";
import { useState } from "react";
import { useSearchParams } from "react-router";
import { toast } from "sonner";
import { errorMessage } from "../../lib/api.ts";
import { Badge } from "../../ui/badge.tsx";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogBody, DialogContent, DialogFooter, FormMessage } from "../../ui/dialog.tsx";
import { Field } from "../../ui/field.tsx";
import { Select } from "../../ui/select.tsx";
import { Textarea } from "../../ui/textarea.tsx";
import { useDateFormat } from "../settings/use-date-format.ts";
import { RefundDialog } from "./refund-dialog.tsx";
import { DISPUTES_PAGE, useDisputes, useResolveDispute } from "./use-refunds.ts";

/** Shoppers' disputes of their receipts: filter by state, answer them, refund from here. */
export default function DisputesView() {
  // The state filter lives in the URL, beside the Sessions screen's own parameters.
  const [params, setParams] = useSearchParams();
  const state = params.get("dispute_state") ?? "";
  const setState = (value: string | null) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value) next.set("dispute_state", value);
        else next.delete("dispute_state");
        return next;
      },
      { replace: true },
    );
  const [offset, setOffset] = useState(0);
  const disputes = useDisputes({ state: state || undefined, offset });
  const [answering, setAnswering] = useState<{ dispute: Dispute; state: "resolved" | "rejected" } | null>(null);
  const [refunding, setRefunding] = useState<string | null>(null);
  const total = disputes.data?.total ?? 0;
  const dates = useDateFormat();

  return (
    <section aria-labelledby="disputes-title" className="grid gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id="disputes-title" className="text-lg font-semibold">
          Disputes
        </h2>
        <label htmlFor="dispute-state" className="grid gap-1 text-sm">
          State
          <Select
            id="dispute-state"
            value={state}
            onChange={(event) => {
              setState(event.target.value || null);
              setOffset(0);
            }}
          >
            <option value="">All</option>
            <option value="open">Open</option>
            <option value="resolved">Resolved</option>
            <option value="rejected">Rejected</option>
          </Select>
        </label>
      </div>
      {disputes.isError ? <p role="alert">{errorMessage(disputes.error, "Disputes could not be loaded.")}</p> : null}
      {disputes.data?.items.length === 0 ? <p className="text-muted-foreground">No disputes.</p> : null}
      <ul className="grid gap-3">
        {disputes.data?.items.map((dispute) => (
          <li key={dispute.id} className="grid gap-2 rounded-lg border bg-card p-4">
            <div className="flex flex-wrap items-center gap-2">
              <Badge variant={dispute.state === "open" ? "default" : "secondary"}>{dispute.state}</Badge>
              <span className="font-semibold">Receipt {dispute.receipt_number ?? "—"}</span>
              <span className="text-sm text-muted-foreground">
                {dispute.store_name} · {dispute.customer_name ?? "Unknown shopper"} ·{" "}
                {dates.dateTime(dispute.created_at)}
              </span>
            </div>
            <blockquote className="border-l-2 pl-3 whitespace-pre-wrap">{dispute.message}</blockquote>
            {dispute.resolution ? <p className="text-sm">Answer: {dispute.resolution}</p> : null}
            <div className="flex flex-wrap gap-2">
              {dispute.state === "open" ? (
                <>
                  <Button size="sm" onClick={() => setAnswering({ dispute, state: "resolved" })}>
                    Resolve
                  </Button>
                  <Button size="sm" variant="outline" onClick={() => setAnswering({ dispute, state: "rejected" })}>
                    Reject
                  </Button>
                </>
              ) : null}
              <Button size="sm" variant="outline" onClick={() => setRefunding(dispute.order_id)}>
                Refund
              </Button>
            </div>
          </li>
        ))}
      </ul>
      {total > DISPUTES_PAGE ? (
        <div className="flex gap-2">
          <Button
            size="sm"
            variant="outline"
            disabled={offset === 0}
            onClick={() => setOffset(Math.max(0, offset - DISPUTES_PAGE))}
          >
            Previous
          </Button>
          <Button
            size="sm"
            variant="outline"
            disabled={offset + DISPUTES_PAGE >= total}
            onClick={() => setOffset(offset + DISPUTES_PAGE)}
          >
            Next
          </Button>
        </div>
      ) : null}
      {answering ? <AnswerDialog {...answering} onClose={() => setAnswering(null)} /> : null}
      {refunding ? (
        <RefundDialog orderId={refunding} open onOpenChange={(open) => !open && setRefunding(null)} />
      ) : null}
    </section>
  );
}

function AnswerDialog({
  dispute,
  state,
  onClose,
}: {
  dispute: Dispute;
  state: "resolved" | "rejected";
  onClose: () => void;
}) {
  const resolve = useResolveDispute();
  const [resolution, setResolution] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [message, setMessage] = useState<string | null>(null);
  const verb = state === "resolved" ? "Resolve" : "Reject";
  const submit = () => {
    if (!resolution.trim()) return setError("An answer for the shopper is required");
    resolve.mutate(
      { id: dispute.id, state, resolution: resolution.trim() },
      {
        onSuccess: () => {
          toast.success(`Dispute ${state}`);
          onClose();
        },
        onError: (failure) => setMessage(errorMessage(failure, "The answer could not be saved.")),
      },
    );
  };
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        title={`${verb} dispute`}
        description={`Receipt ${dispute.receipt_number ?? "—"}: "${dispute.message}"`}
      >
        <DialogBody>
          <Field label="Answer to the shopper" error={error}>
            {(id, control) => (
              <Textarea
                id={id}
                {...control}
                maxLength={1000}
                value={resolution}
                onChange={(e) => setResolution(e.target.value)}
              />
            )}
          </Field>
        </DialogBody>
        <FormMessage message={message} />
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={submit} disabled={resolve.isPending}>
            {verb}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
