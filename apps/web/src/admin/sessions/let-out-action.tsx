import type { SessionDetail } from "@glide/contracts";
import { formatKronor } from "../../lib/format.ts";
import { ConfirmActionPanel } from "./confirm-action-panel.tsx";
import { useConfirmAction } from "./use-confirm-action.ts";
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
  const action = useConfirmAction(useLetOut(session.id), {
    failure: "Failed to let the shopper out",
    done: (detail) =>
      detail.status === "left_unpaid"
        ? `Let out through the exit gate. The visit is left unpaid (${formatKronor(detail.total)}).`
        : "Let out through the exit gate. The cart was empty, so nothing is owed.",
  });
  const amount = formatKronor(session.total);
  return (
    <ConfirmActionPanel
      action={action}
      show={canLetOut(session)}
      headingId="session-let-out"
      tone="plain"
      heading={
        <>
          In the store: <span className="tabular-nums">{amount}</span> in the cart
        </>
      }
      text="If the shopper cannot pay at the exit (no card on file, a declined card), open the gate for them."
      label="Let out unpaid"
      pendingLabel="Letting out…"
      confirm={{
        title: "Let the shopper out without paying?",
        description:
          session.lines > 0
            ? `The exit gate opens and nothing is charged now. The visit becomes Left unpaid (${amount}): staff then charge the card on file or write the goods off. The shopper cannot start a new visit until it is settled.`
            : "The exit gate opens. The cart is empty, so nothing is owed and the visit ends.",
        label: "Let out unpaid",
      }}
    />
  );
}
