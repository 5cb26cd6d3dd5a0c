import { lineRefundOre, type Refund, type RefundableLine } from "@glide/contracts";
import { useState } from "react";
import { toast } from "sonner";
import { ApiError } from "../../lib/api.ts";
import { Button } from "../../ui/button.tsx";
import { Checkbox } from "../../ui/checkbox.tsx";
import { Dialog, DialogBody, DialogContent, DialogFooter, FormMessage } from "../../ui/dialog.tsx";
import { Field } from "../../ui/field.tsx";
import { Input } from "../../ui/input.tsx";
import { Textarea } from "../../ui/textarea.tsx";
import { useCreateRefund, useOrderRefunds } from "./use-refunds.ts";

export type RefundDialogProps = {
  orderId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Called after a refund was made, so the detail reloads. */
  onRefunded?: () => void;
};

const kr = (ore: number) =>
  `${(ore / 100).toLocaleString("sv-SE", { minimumFractionDigits: 2, maximumFractionDigits: 2 })} kr`;
const leftOf = (line: RefundableLine) => line.quantity - line.refunded_quantity;

/**
 * Refund units of an order's lines, or the whole order. The amount shown is
 * computed the way the server computes it (lineRefundOre); the idempotency key
 * is made when the dialog opens, so a retry after a network error is the same
 * refund, never a second one.
 */
export function RefundDialog({ orderId, open, onOpenChange, onRefunded }: RefundDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open ? <RefundForm orderId={orderId} onDone={onRefunded} onClose={() => onOpenChange(false)} /> : null}
    </Dialog>
  );
}

/** One toast per refund: an order with items added at a spot check is refunded on each of its two payments. */
function announce(refunds: Refund[]) {
  for (const refund of refunds) {
    const amount = kr(Math.round(refund.amount * 100));
    if (refund.state === "failed") toast.error(`The refund of ${amount} was refused by the payment provider`);
    else toast.success(`Refunded ${amount}${refund.state === "pending" ? " (waiting for the provider)" : ""}`);
  }
}

function RefundForm({ orderId, onDone, onClose }: { orderId: string; onDone?: () => void; onClose: () => void }) {
  const order = useOrderRefunds(orderId, true);
  const create = useCreateRefund(orderId);
  const [key] = useState(() => crypto.randomUUID());
  const [units, setUnits] = useState<Record<string, number>>({});
  const [whole, setWhole] = useState(false);
  const [reason, setReason] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const lines = order.data?.lines ?? [];

  const chosen = whole
    ? lines.map((line) => [line, leftOf(line)] as const)
    : lines.map((line) => [line, units[line.id] ?? 0] as const);
  const amountOre = chosen.reduce((sum, [line, count]) => sum + (count > 0 ? lineRefundOre(line, count) : 0), 0);

  const submit = () => {
    const next: Record<string, string> = {};
    if (!reason.trim()) next.reason = "A reason is required";
    if (amountOre <= 0) next.lines = "Choose what to refund";
    setErrors(next);
    setMessage(null);
    if (Object.keys(next).length > 0) return;
    const body = whole
      ? { idempotency_key: key, reason: reason.trim(), whole: true as const }
      : {
          idempotency_key: key,
          reason: reason.trim(),
          lines: chosen
            .filter(([, count]) => count > 0)
            .map(([line, count]) => ({ line_id: line.id, quantity: count })),
        };
    create.mutate(body, {
      onSuccess: (result) => {
        announce(result.refunds);
        onDone?.();
        onClose();
      },
      onError: (error) => {
        const placed: Record<string, string> = {};
        const rest: string[] = [];
        if (error instanceof ApiError) {
          for (const problem of error.errors) {
            const index = /^lines\.(\d+)/.exec(problem.path)?.[1];
            const line = index === undefined ? undefined : body.lines?.[Number(index)]?.line_id;
            if (line) placed[line] = problem.message;
            else if (problem.path === "reason") placed.reason = problem.message;
            else rest.push(problem.message);
          }
          setErrors(placed);
          setMessage(rest.length > 0 ? rest.join(" ") : Object.keys(placed).length > 0 ? null : error.detail);
        } else setMessage("The refund could not be sent. Try again: it will not be refunded twice.");
      },
    });
  };

  return (
    <DialogContent
      title="Refund"
      description={
        order.data
          ? `Receipt ${order.data.receipt_number ?? ""} · ${kr(Math.round(order.data.total * 100))}, refunded so far ${kr(Math.round(order.data.refunded * 100))}`
          : undefined
      }
    >
      <DialogBody className="grid gap-4">
        {order.isPending ? <p>Loading…</p> : null}
        {order.isError ? <p role="alert">The order could not be loaded.</p> : null}
        <ul className="grid gap-2" aria-label="Lines">
          {lines.map((line) => (
            <li key={line.id} className="grid gap-1">
              <Field label={`${line.name} (${leftOf(line)} of ${line.quantity} left)`} error={errors[line.id]}>
                {(id, control) => (
                  <Input
                    id={id}
                    {...control}
                    type="number"
                    inputMode="numeric"
                    min={0}
                    max={leftOf(line)}
                    disabled={whole || leftOf(line) === 0}
                    value={whole ? leftOf(line) : (units[line.id] ?? 0)}
                    onChange={(event) =>
                      setUnits((all) => ({
                        ...all,
                        [line.id]: Math.max(0, Math.min(leftOf(line), Math.trunc(Number(event.target.value) || 0))),
                      }))
                    }
                  />
                )}
              </Field>
            </li>
          ))}
        </ul>
        {errors.lines ? <p className="text-sm text-destructive">{errors.lines}</p> : null}
        <div className="flex items-center gap-2">
          <Checkbox id={`${key}-whole`} checked={whole} onCheckedChange={(value) => setWhole(value === true)} />
          <label htmlFor={`${key}-whole`}>Refund whole order</label>
        </div>
        <Field label="Reason" error={errors.reason}>
          {(id, control) => (
            <Textarea id={id} {...control} maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
          )}
        </Field>
        <p className="font-semibold" aria-live="polite">
          To refund: <span className="tabular-nums">{kr(amountOre)}</span>
        </p>
      </DialogBody>
      <FormMessage message={message} />
      <DialogFooter>
        <Button variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={submit} disabled={create.isPending || !order.data}>
          {create.isPending ? "Refunding…" : `Refund ${kr(amountOre)}`}
        </Button>
      </DialogFooter>
    </DialogContent>
  );
}
