import type { SessionDetail } from "@glide/contracts";
import { useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { formatKronor } from "../../lib/format.ts";
import { ErrorAlert } from "../../ui/alert.tsx";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogBody, DialogContent } from "../../ui/dialog.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { useDateFormat } from "../settings/use-date-format.ts";
import { LetOutAction } from "./let-out-action.tsx";
import { RefundDialog } from "./refund-dialog.tsx";
import { PAYMENT_LABELS, paidByCard, STATUS_LABELS } from "./session-format.ts";
import { SessionLines } from "./session-lines.tsx";
import { SessionStatusBadge } from "./session-table.tsx";
import { SessionTimeline } from "./session-timeline.tsx";
import { UnpaidActions } from "./unpaid-actions.tsx";
import { useSessionDetail, useSessionInvalidation } from "./use-sessions.ts";

interface SessionDetailDialogProps {
  /** The visit to show, or null when the dialog is closed. */
  id: string | null;
  onClose: () => void;
}

/** One visit: who, where, how it stands, what happened in order, and what it came to. */
export function SessionDetailDialog({ id, onClose }: SessionDetailDialogProps) {
  const detail = useSessionDetail(id);
  const session = detail.data;
  return (
    <Dialog open={id !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        title={session ? (session.shopper_name ?? "Deleted shopper") : "Session"}
        description={session ? `${session.store.name} · ${STATUS_LABELS[session.status]}` : undefined}
        className="max-w-3xl"
      >
        <DialogBody>
          {detail.isPending ? (
            <Spinner label="Loading the session" />
          ) : detail.isError && !session ? (
            <ErrorAlert>{errorMessage(detail.error, "Failed to load the session")}</ErrorAlert>
          ) : session ? (
            <SessionDetails session={session} />
          ) : null}
        </DialogBody>
      </DialogContent>
    </Dialog>
  );
}

function SessionDetails({ session }: { session: SessionDetail }) {
  const [refunding, setRefunding] = useState(false);
  const invalidate = useSessionInvalidation();
  const dates = useDateFormat();
  const order = session.order;
  // Pant vouchers are never paid out: once the card has its part back, there is nothing left to refund.
  const refundable = order?.state === "paid" && order.refunded < paidByCard(order.total, order.vouchers);
  const facts: [string, string][] = [
    ["Entered", dates.dateTime(session.entered_at)],
    ["Exited", dates.dateTime(session.exited_at)],
    ["Last activity", dates.dateTime(session.last_activity_at)],
    ["Payment", PAYMENT_LABELS[session.payment_state]],
    ["Total", formatKronor(session.total)],
  ];
  if (session.refunded > 0) facts.push(["Refunded", formatKronor(session.refunded)]);
  if (session.receipt_number !== null) facts.push(["Receipt", `No. ${session.receipt_number}`]);
  if (order?.card) facts.push(["Card", `${order.card.brand} •••• ${order.card.last4}`]);
  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <div className="contents">
            <dt className="font-medium text-muted-foreground">Status</dt>
            <dd>
              <SessionStatusBadge status={session.status} />
            </dd>
          </div>
          {facts.map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="font-medium text-muted-foreground">{label}</dt>
              <dd className="tabular-nums">{value}</dd>
            </div>
          ))}
        </dl>
        {refundable ? (
          <Button variant="outline" onClick={() => setRefunding(true)}>
            Refund
          </Button>
        ) : null}
      </div>
      <LetOutAction key={`let-out-${session.id}`} session={session} />
      <UnpaidActions key={session.id} session={session} />
      <SessionTimeline events={session.timeline} />
      <SessionLines session={session} />
      {order ? (
        <RefundDialog
          orderId={order.id}
          open={refunding}
          onOpenChange={setRefunding}
          onRefunded={() => invalidate({ store_id: session.store.id, session_id: session.id, kind: "refund" })}
        />
      ) : null}
    </div>
  );
}
