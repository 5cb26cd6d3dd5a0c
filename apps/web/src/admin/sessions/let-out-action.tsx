import type { SessionDetail } from "@glide/contracts";
import { useEffect, useRef, useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { formatKronor } from "../../lib/format.ts";
import { ErrorAlert } from "../../ui/alert.tsx";
import { ConfirmDialog } from "../../ui/alert-dialog.tsx";
import { Button } from "../../ui/button.tsx";
import { useLetOut } from "./use-sessions.ts";

/** Inside the store, and no charge under way (the server refuses to let out a visit being charged). */
const canLetOut = (session: SessionDetail) =>
  (session.status === "entered" || session.status === "shopping") &&
  session.payment_state !== "charging" &&
  session.payment_state !== "unsettled";

/**
 * A shopper inside who cannot pay at the exit (no card on file, a card the
 * bank declines: the gate's refusal is on the timeline) is let out by staff,
 * after a confirmation saying what follows: with goods the visit is left
 * unpaid, for staff to charge or write off (UnpaidActions then shows); with
 * an empty cart it simply ends. Once done, a line says so and takes the focus
 * the gone button had.
 */
export function LetOutAction({ session }: { session: SessionDetail }) {
  const letOut = useLetOut(session.id);
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const doneLine = useRef<HTMLParagraphElement>(null);
  const amount = formatKronor(session.total);
  const hasGoods = session.lines > 0;

  useEffect(() => {
    if (done) doneLine.current?.focus();
  }, [done]);

  const confirm = () => {
    setProblem(null);
    letOut.mutate(undefined, {
      onSuccess: (detail) =>
        setDone(
          detail.status === "left_unpaid"
            ? `Let out through the exit gate. The visit is left unpaid (${formatKronor(detail.total)}).`
            : "Let out through the exit gate. The cart was empty, so nothing is owed.",
        ),
      onError: (failure) => setProblem(errorMessage(failure, "Failed to let the shopper out")),
    });
  };

  return (
    <>
      {canLetOut(session) || letOut.isPending ? (
        <section aria-labelledby="session-let-out" className="grid gap-3 rounded-lg border p-4">
          <div className="grid gap-1">
            <h3 id="session-let-out" className="font-semibold">
              In the store: <span className="tabular-nums">{amount}</span> in the cart
            </h3>
            <p className="text-sm text-muted-foreground">
              If the shopper cannot pay at the exit (no card on file, a declined card), open the gate for them.
            </p>
          </div>
          {problem ? <ErrorAlert>{problem}</ErrorAlert> : null}
          <div>
            {/* aria-disabled, not disabled: the button keeps the focus the confirmation gave back while it runs. */}
            <Button
              variant="outline"
              className="aria-disabled:cursor-wait aria-disabled:opacity-50"
              aria-disabled={letOut.isPending || undefined}
              onClick={() => {
                if (!letOut.isPending) setConfirming(true);
              }}
            >
              {letOut.isPending ? "Letting out…" : "Let out unpaid"}
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
        title="Let the shopper out without paying?"
        description={
          hasGoods
            ? `The exit gate opens and nothing is charged now. The visit becomes Left unpaid (${amount}): staff then charge the card on file or write the goods off. The shopper cannot start a new visit until it is settled.`
            : "The exit gate opens. The cart is empty, so nothing is owed and the visit ends."
        }
        confirmLabel="Let out unpaid"
        onConfirm={confirm}
      />
    </>
  );
}
