import type { SessionDetail } from "@glide/contracts";
import { useState } from "react";
import { formatKronor } from "../../lib/format.ts";
import { Button } from "../../ui/button.tsx";
import { ConfirmActionPanel } from "./confirm-action-panel.tsx";
import { useConfirmAction } from "./use-confirm-action.ts";
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
  const action = useConfirmAction(useChargeUnpaid(session.id), {
    failure: "Failed to charge the card on file",
    done: (detail) =>
      `Charged ${formatKronor(detail.total)} to the card on file${detail.receipt_number !== null ? `, receipt ${detail.receipt_number}` : ""}.`,
  });
  const [writingOff, setWritingOff] = useState(false);
  const amount = formatKronor(session.total);
  return (
    <ConfirmActionPanel
      action={action}
      // While the charge runs the live feed already shows the visit as being charged: the panel stays till it answers.
      show={session.status === "left_unpaid"}
      headingId="session-unpaid"
      tone="alert"
      heading={
        <>
          Left unpaid: <span className="tabular-nums">{amount}</span>
        </>
      }
      text="The shopper left with goods and no payment. Charge the card they saved, or write the goods off."
      label="Charge card on file"
      pendingLabel="Charging…"
      confirm={{
        title: `Charge ${amount} to the shopper's card on file?`,
        description: "The card is charged once, however often this is asked; the shopper gets the receipt.",
        label: `Charge ${amount}`,
      }}
      more={
        <Button
          variant="outline"
          className="aria-disabled:opacity-50"
          aria-disabled={action.pending || undefined}
          onClick={action.whenIdle(() => setWritingOff(true))}
        >
          Write off
        </Button>
      }
    >
      <WriteOffDialog
        sessionId={session.id}
        amount={session.total}
        open={writingOff}
        onOpenChange={setWritingOff}
        onWrittenOff={(detail) => {
          setWritingOff(false);
          action.finish(`Written off ${formatKronor(detail.total)}.`);
        }}
      />
    </ConfirmActionPanel>
  );
}
