import type { OrderRefunds, Refund, RefundableLine } from "@glide/contracts";
import { useState } from "react";
import { toast } from "sonner";
import { ApiError } from "../../lib/api.ts";
import { formatKronor, pluralize } from "../../lib/format.ts";
import { Button } from "../../ui/button.tsx";
import { Checkbox } from "../../ui/checkbox.tsx";
import { Dialog, DialogBody, DialogContent, DialogFooter, FormMessage } from "../../ui/dialog.tsx";
import { Field } from "../../ui/field.tsx";
import { Input } from "../../ui/input.tsx";
import { Textarea } from "../../ui/textarea.tsx";
import { cardLeftOre, refundOre } from "./refund-amount.ts";
import { paidByCard } from "./session-format.ts";
import { useCreateRefund, useOrderRefunds } from "./use-refunds.ts";

export type RefundDialogProps = {
  orderId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Called after a refund was made, so the detail reloads. */
  onRefunded?: () => void;
};

const leftOf = (line: RefundableLine) => line.quantity - line.refunded_quantity;

/**
 * What the shopper paid for the whole line: its goods and pant less what a
 * multi-buy offer took from it, which is what its units' refunds add up to.
 */
const paidText = (line: RefundableLine) => `paid ${formatKronor(line.total_ore / 100)} for ${line.quantity}`;

/**
 * An order pant machine vouchers paid part of, said plainly: the vouchers are
 * never paid out, so refunds give the card back at most what it paid.
 */
function VoucherNote({ order }: { order: OrderRefunds }) {
  const voucher = order.voucher ?? 0;
  if (voucher <= 0) return null;
  const card = paidByCard(order.total, [{ amount: voucher }]);
  return (
    <p className="rounded-md border bg-muted/40 p-2 text-sm">
      {formatKronor(voucher)} of this order was paid with pant vouchers; refunds go back to the card, up to the{" "}
      {formatKronor(card)} it paid.
    </p>
  );
}

/**
 * The units typed for a line, or what is wrong with them. Nothing is clamped:
 * 5 where 1 is left is refused at the field, not quietly refunded as 1.
 */
function unitsOf(text: string, left: number): { count: number; problem?: string } {
  if (text.trim() === "") return { count: 0 };
  const count = Number(text);
  if (!Number.isInteger(count) || count < 0) return { count: 0, problem: `Enter a whole number from 0 to ${left}` };
  if (count > left) return { count: 0, problem: `At most ${left} left to refund` };
  return { count };
}

/**
 * Refund units of an order's lines, or the whole order. The amount shown is
 * computed the way the server computes it (refundOre: each unit's share, no
 * more than is left on the card when pant vouchers paid part); the idempotency key
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
    const amount = formatKronor(refund.amount);
    if (refund.state === "failed") toast.error(`The refund of ${amount} was refused by the payment provider`);
    else toast.success(`Refunded ${amount}${refund.state === "pending" ? " (waiting for the provider)" : ""}`);
  }
}

function RefundForm({ orderId, onDone, onClose }: { orderId: string; onDone?: () => void; onClose: () => void }) {
  const order = useOrderRefunds(orderId, true);
  const create = useCreateRefund(orderId);
  const [key] = useState(() => crypto.randomUUID());
  /** What was typed per line, kept as typed so that a number over the limit stays in view with its message. */
  const [units, setUnits] = useState<Record<string, string>>({});
  const [whole, setWhole] = useState(false);
  const [reason, setReason] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const lines = order.data?.lines ?? [];

  const typed = new Map(lines.map((line) => [line.id, unitsOf(units[line.id] ?? "", leftOf(line))]));
  const chosen = whole
    ? lines.map((line) => [line, leftOf(line)] as const)
    : lines.map((line) => [line, typed.get(line.id)?.count ?? 0] as const);
  const voucherOre = Math.round((order.data?.voucher ?? 0) * 100);
  const { ore: amountOre, capped } = refundOre(chosen, voucherOre);
  const overLimit = !whole && [...typed.values()].some((units) => units.problem);
  // Nothing to refund, or a line over its limit: the button says so by being off, the fields say why.
  const canRefund = amountOre > 0 && !overLimit;

  const submit = () => {
    if (!canRefund) return;
    const next: Record<string, string> = {};
    if (!reason.trim()) next.reason = "A reason is required";
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
          ? `Receipt ${order.data.receipt_number ?? ""} · ${formatKronor(order.data.total)}, refunded so far ${formatKronor(order.data.refunded)}`
          : undefined
      }
    >
      <DialogBody className="grid gap-4">
        {order.isPending ? <p>Loading…</p> : null}
        {order.isError ? <p role="alert">The order could not be loaded.</p> : null}
        {order.data ? <VoucherNote order={order.data} /> : null}
        <ul className="grid gap-2" aria-label="Lines">
          {lines.map((line) => {
            const left = leftOf(line);
            const problem = whole ? undefined : typed.get(line.id)?.problem;
            return (
              <li key={line.id} className="grid gap-1">
                <Field
                  label={`${line.name} (${left} of ${line.quantity} left)`}
                  error={errors[line.id] ?? problem}
                  hint={
                    problem || left === 0 ? undefined : `Up to ${pluralize(left, "unit", "units")} · ${paidText(line)}`
                  }
                >
                  {(id, control) => (
                    <Input
                      id={id}
                      {...control}
                      type="number"
                      inputMode="numeric"
                      min={0}
                      max={left}
                      step={1}
                      placeholder="0"
                      disabled={whole || left === 0}
                      value={whole ? left : (units[line.id] ?? "")}
                      onChange={(event) => {
                        const text = event.target.value;
                        setUnits((all) => ({ ...all, [line.id]: text }));
                        // A server's word about this line no longer holds for a new number.
                        setErrors(({ [line.id]: _old, ...rest }) => rest);
                      }}
                    />
                  )}
                </Field>
              </li>
            );
          })}
        </ul>
        <div className="flex items-center gap-2">
          <Checkbox id={`${key}-whole`} checked={whole} onCheckedChange={(value) => setWhole(value === true)} />
          <label htmlFor={`${key}-whole`}>Refund whole order</label>
        </div>
        <Field label="Reason" error={errors.reason}>
          {(id, control) => (
            <Textarea id={id} {...control} maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
          )}
        </Field>
        <div className="grid gap-1" aria-live="polite">
          <p className="font-semibold">
            To refund: <span className="tabular-nums">{formatKronor(amountOre / 100)}</span>
          </p>
          {capped ? (
            <p className="text-sm text-muted-foreground">
              {amountOre === 0
                ? "Nothing is left on the card to give back: pant vouchers are not paid out."
                : `Only ${formatKronor(cardLeftOre(lines, voucherOre) / 100)} is left on the card to give back: pant vouchers are not paid out.`}
            </p>
          ) : amountOre === 0 && !overLimit ? (
            <p className="text-sm text-muted-foreground">Enter how many units to refund, or refund the whole order.</p>
          ) : null}
        </div>
      </DialogBody>
      <FormMessage message={message} />
      <DialogFooter>
        <Button variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={submit} disabled={create.isPending || !order.data || !canRefund}>
          {create.isPending ? "Refunding…" : `Refund ${formatKronor(amountOre / 100)}`}
        </Button>
      </DialogFooter>
    </DialogContent>
  );
}
