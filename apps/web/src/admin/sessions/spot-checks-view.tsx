import type { Product, SpotCheck } from "@glide/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "sonner";
import { errorMessage } from "../../lib/api.ts";
import { formatKronor } from "../../lib/format.ts";
import { Badge } from "../../ui/badge.tsx";
import { Button } from "../../ui/button.tsx";
import { Input } from "../../ui/input.tsx";
import { useDateFormat } from "../settings/use-date-format.ts";
import { ProductPicker } from "./product-picker.tsx";
import { refundKeys, useDecideSpotCheck, useSpotChecks } from "./use-refunds.ts";
import { useSessionsLive } from "./use-sessions-live.ts";

/** Exits flagged for a staff check, live; staff record what they found. Decided ones below. */
export default function SpotChecksView() {
  const queryClient = useQueryClient();
  const live = useSessionsLive((event) => {
    if (event.kind.startsWith("spot_check")) void queryClient.invalidateQueries({ queryKey: refundKeys.allSpotChecks });
  });
  const pending = useSpotChecks("pending");
  const decided = useSpotChecks("decided");
  const dates = useDateFormat();
  return (
    <section aria-labelledby="spot-checks-title" className="grid gap-4">
      <div className="flex items-center gap-2">
        <h2 id="spot-checks-title" className="text-lg font-semibold">
          Spot checks
        </h2>
        <Badge variant={live === "live" ? "success" : "outline"}>{live === "live" ? "Live" : "Connecting…"}</Badge>
      </div>
      {pending.isError ? <p role="alert">{errorMessage(pending.error, "Spot checks could not be loaded.")}</p> : null}
      {pending.data?.length === 0 ? <p className="text-muted-foreground">No exits waiting for a check.</p> : null}
      <ul className="grid gap-3" aria-label="Waiting for a check">
        {pending.data?.map((check) => (
          <PendingCheck key={check.id} check={check} />
        ))}
      </ul>
      <h3 className="font-semibold">Decided</h3>
      <ul className="grid gap-2" aria-label="Decided">
        {decided.data?.map((check) => (
          <li key={check.id} className="flex flex-wrap items-center gap-2 rounded-md border p-3 text-sm">
            <Badge variant="secondary">{check.outcome?.replace("_", " ")}</Badge>
            <span>
              Receipt {check.receipt_number ?? "—"} · {check.store_name} · {dates.dateTime(check.flagged_at)}
            </span>
            {check.charge ? (
              <span>
                Extra charge {formatKronor(check.charge.amount)}: {check.charge.state}
                {check.charge.failure_code ? ` (${check.charge.failure_code})` : ""}
              </span>
            ) : null}
            {check.note ? <span className="text-muted-foreground">{check.note}</span> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

function PendingCheck({ check }: { check: SpotCheck }) {
  const decide = useDecideSpotCheck();
  const [key] = useState(() => crypto.randomUUID());
  const [form, setForm] = useState<"items_added" | "items_removed" | null>(null);
  const [removed, setRemoved] = useState<Record<string, number>>({});
  const [added, setAdded] = useState<Added[]>([]);
  const [error, setError] = useState<string | null>(null);
  const dates = useDateFormat();

  const send = (body: Parameters<typeof decide.mutate>[0]) =>
    decide.mutate(body, {
      onSuccess: (result) => {
        toast.success(
          result.charge?.state === "declined" ? "Recorded; the extra charge was declined" : "Spot check recorded",
        );
      },
      onError: (failure) => setError(errorMessage(failure, "The outcome could not be saved.")),
    });

  return (
    <li className="grid gap-2 rounded-lg border bg-card p-4">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-semibold">Receipt {check.receipt_number ?? "—"}</span>
        <span className="text-sm text-muted-foreground">
          {check.store_name} · {check.customer_name ?? "Unknown shopper"} · flagged {dates.dateTime(check.flagged_at)}
        </span>
      </div>
      <ul className="grid gap-1 text-sm">
        {check.lines.map((line) => (
          <li key={line.id} className="flex justify-between gap-3">
            <span>
              {line.quantity} x {line.name}
            </span>
            <span className="tabular-nums">{formatKronor(line.total)}</span>
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button
          size="sm"
          disabled={decide.isPending}
          onClick={() => send({ id: check.id, idempotency_key: key, outcome: "ok" })}
        >
          OK
        </Button>
        <Button size="sm" variant="outline" onClick={() => setForm("items_added")}>
          Items added
        </Button>
        <Button size="sm" variant="outline" onClick={() => setForm("items_removed")}>
          Items removed
        </Button>
      </div>
      {form === "items_added" ? (
        <ItemsAdded
          formId={key}
          items={added}
          onChange={setAdded}
          busy={decide.isPending}
          onSubmit={() =>
            send({
              id: check.id,
              idempotency_key: key,
              outcome: "items_added",
              items_added: added.map((item) => ({ product_id: item.product.id, quantity: item.quantity })),
            })
          }
        />
      ) : null}
      {form === "items_removed" ? (
        <div className="grid gap-2">
          {check.lines.map((line) => (
            <label key={line.id} htmlFor={`${key}-${line.id}`} className="flex items-center gap-2 text-sm">
              <Input
                id={`${key}-${line.id}`}
                className="w-20"
                type="number"
                min={0}
                max={line.quantity - line.refunded_quantity}
                value={removed[line.id] ?? 0}
                onChange={(e) =>
                  setRemoved((all) => ({ ...all, [line.id]: Math.max(0, Math.trunc(Number(e.target.value) || 0)) }))
                }
              />
              {line.name}
            </label>
          ))}
          <Button
            size="sm"
            className="justify-self-start"
            disabled={decide.isPending || !Object.values(removed).some((n) => n > 0)}
            onClick={() =>
              send({
                id: check.id,
                idempotency_key: key,
                outcome: "items_removed",
                items_removed: Object.entries(removed)
                  .filter(([, n]) => n > 0)
                  .map(([line_id, n]) => ({ line_id, quantity: n })),
              })
            }
          >
            Refund and record
          </Button>
        </div>
      ) : null}
      {error ? (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </li>
  );
}

type Added = { product: Product; quantity: number };
/** Units of one product a shopper may be charged for at a check (the API's limit). */
const MAX_ADDED = 100;

/** The items found in the bag but not paid for: picked by search, with how many of each, charged on the card on file. */
function ItemsAdded(props: {
  formId: string;
  items: Added[];
  onChange: (items: Added[]) => void;
  busy: boolean;
  onSubmit: () => void;
}) {
  const { formId, items, onChange } = props;
  const add = (product: Product) =>
    onChange(
      items.some((item) => item.product.id === product.id)
        ? items.map((item) =>
            item.product.id === product.id ? { ...item, quantity: Math.min(MAX_ADDED, item.quantity + 1) } : item,
          )
        : [...items, { product, quantity: 1 }],
    );
  const total = items.reduce((sum, item) => sum + Math.round(item.product.price * 100) * item.quantity, 0) / 100;
  return (
    <div className="grid gap-2">
      <ProductPicker id={`${formId}-product`} label="Add a product" onPick={add} />
      {items.length > 0 ? (
        <ul className="grid gap-1" aria-label="Items to charge">
          {items.map((item) => (
            <li key={item.product.id} className="flex items-center gap-2 text-sm">
              <Input
                id={`${formId}-${item.product.id}`}
                aria-label={`Quantity of ${item.product.name}`}
                className="w-20"
                type="number"
                min={1}
                max={MAX_ADDED}
                value={item.quantity}
                onChange={(e) =>
                  onChange(
                    items.map((other) =>
                      other === item
                        ? {
                            ...item,
                            quantity: Math.max(1, Math.min(MAX_ADDED, Math.trunc(Number(e.target.value) || 1))),
                          }
                        : other,
                    ),
                  )
                }
              />
              <span className="flex-1">{item.product.name}</span>
              <Button size="sm" variant="ghost" onClick={() => onChange(items.filter((other) => other !== item))}>
                Remove<span className="sr-only"> {item.product.name}</span>
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      <Button
        size="sm"
        className="justify-self-start"
        disabled={props.busy || items.length === 0}
        onClick={props.onSubmit}
      >
        Charge {formatKronor(total)} and record
      </Button>
    </div>
  );
}
