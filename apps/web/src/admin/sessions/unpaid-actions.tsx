import type { SessionDetail } from "@glide/contracts";
import { useEffect, useRef, useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { formatKronor } from "../../lib/format.ts";
import { ErrorAlert } from "../../ui/alert.tsx";
import { ConfirmDialog } from "../../ui/alert-dialog.tsx";
import { Button } from "../../ui/button.tsx";
import { useChargeUnpaid } from "./use-sessions.ts";
import { WriteOffDialog } from "./write-off-dialog.tsx";

/**
 * What staff do with a visit left unpaid (docs/sessions.md): charge the card
 * on file, after a confirmation naming the amount, or write the goods off
 * with a reason. Problems are said here, in the visit's dialog, once. Once
 * settled, the buttons go and a line says what was done; it takes the focus
 * the gone button had.
 */
export function UnpaidActions({ session }: { session: SessionDetail }) {
  const charge = useChargeUnpaid(session.id);
  const [confirming, setConfirming] = useState(false);
  const [writingOff, setWritingOff] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const doneLine = useRef<HTMLParagraphElement>(null);
  const amount = formatKronor(session.total);

  useEffect(() => {
    if (done) doneLine.current?.focus();
  }, [done]);

  const chargeCard = () => {
    setProblem(null);
    charge.mutate(undefined, {
      onSuccess: (detail) =>
        setDone(
          `Charged ${formatKronor(detail.total)} to the card on file${detail.receipt_number !== null ? `, receipt ${detail.receipt_number}` : ""}.`,
        ),
      onError: (failure) => setProblem(errorMessage(failure, "Failed to charge the card on file")),
    });
  };

  return (
    <>
      {/* While the charge runs the live feed already shows the visit as being charged: the panel stays till it answers. */}
      {session.status === "left_unpaid" || charge.isPending ? (
        <section
          aria-labelledby="session-unpaid"
          className="grid gap-3 rounded-lg border border-destructive/50 bg-destructive-muted p-4"
        >
          <div className="grid gap-1">
            <h3 id="session-unpaid" className="font-semibold">
              Left unpaid: <span className="tabular-nums">{amount}</span>
            </h3>
            <p className="text-sm">
              The shopper left with goods and no payment. Charge the card they saved, or write the goods off.
            </p>
          </div>
          {problem ? <ErrorAlert className="bg-card">{problem}</ErrorAlert> : null}
          <div className="flex flex-wrap gap-2">
            {/* aria-disabled, not disabled: the button keeps the focus the confirmation gave back while it runs. */}
            <Button
              className="aria-disabled:cursor-wait aria-disabled:opacity-50"
              aria-disabled={charge.isPending || undefined}
              onClick={() => {
                if (!charge.isPending) setConfirming(true);
              }}
            >
              {charge.isPending ? "Charging…" : "Charge card on file"}
            </Button>
            <Button
              variant="outline"
              className="aria-disabled:opacity-50"
              aria-disabled={charge.isPending || undefined}
              onClick={() => {
                if (!charge.isPending) setWritingOff(true);
              }}
            >
              Write off
            </Button>
          </div>
        </section>
      ) : null}
      {done ? (
        <p ref={doneLine} role="status" tabIndex={-1} className="rounded-lg border p-3 text-sm font-medium">
          {done}
        </p>
      ) : null}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Charge ${amount} to the shopper's card on file?`}
        description="The card is charged once, however often this is asked; the shopper gets the receipt."
        confirmLabel={`Charge ${amount}`}
        onConfirm={chargeCard}
      />
      <WriteOffDialog
        sessionId={session.id}
        amount={session.total}
        open={writingOff}
        onOpenChange={setWritingOff}
        onWrittenOff={(detail) => {
          setWritingOff(false);
          setDone(`Written off ${formatKronor(detail.total)}.`);
        }}
      />
    </>
  );
}
