import type { CartItem } from "@glide/contracts";
import clsx from "clsx";
import { Clock, Minus, Package, Plus, Trash2 } from "lucide-react";
import { useState } from "react";
import { formatAmount, formatKg, formatKr } from "../lib/money.ts";
import { sv } from "../sv.ts";
import { CampaignPrice } from "./campaign-price.tsx";
import { ComparisonPrice } from "./comparison-price.tsx";
import { MemberPrice } from "./member-price.tsx";
import { PantLine } from "./pant-line.tsx";
import type { PendingScan } from "./scan-queue.ts";

function ProductThumb({ src }: { src: string | null }) {
  const [broken, setBroken] = useState(false);
  if (!src || broken) {
    return (
      <div className="flex size-14 shrink-0 items-center justify-center rounded-lg bg-muted" aria-hidden="true">
        <Package className="size-7 text-muted-foreground" />
      </div>
    );
  }
  return (
    <img
      src={src}
      alt=""
      width={56}
      height={56}
      loading="lazy"
      decoding="async"
      onError={() => setBroken(true)}
      className="size-14 shrink-0 rounded-lg bg-muted object-cover"
    />
  );
}

interface Props {
  items: CartItem[];
  pending: PendingScan[];
  /** The spec's two layouts: the shopping page's 'quantity st × price kr', manual scan's 'kr/st' with buttons. */
  layout: "shop" | "manual";
  onQuantity(item: CartItem, quantity: number): void;
  onRemove(item: CartItem): void;
}

/** The lines of 'Din kundvagn', with the scans still waiting for a connection at the end. */
export function CartLines({ items, pending, layout, onQuantity, onRemove }: Props) {
  const [busy, setBusy] = useState<string | null>(null);
  const act = async (item: CartItem, work: () => void | Promise<void>) => {
    setBusy(item.id);
    try {
      await work();
    } finally {
      setBusy(null);
    }
  };

  return (
    <ul className="flex flex-col gap-3">
      {items.map((item) => {
        const name = item.product.name;
        return (
          <li key={item.id} className="flex flex-col gap-3 rounded-2xl border bg-card p-3">
            <div className="flex items-center gap-3">
              <ProductThumb src={item.product.image_url} />
              <div className="min-w-0 flex-1">
                {/* Two lines, so "Bregott Normalsaltat 300 g" and "… 600 g" can be told apart on a phone. */}
                <p className="line-clamp-2 break-words text-base font-semibold">{name}</p>
                <p className="text-sm text-muted-foreground">
                  {layout === "shop"
                    ? `${item.quantity} st × ${formatKr(item.unit_price)}`
                    : `${formatAmount(item.unit_price)} ${sv.cart.perPiece}`}
                  {item.weight_grams !== null && ` · ${formatKg(item.weight_grams)}`}
                </p>
                <CampaignPrice ordinary={item.ordinary_unit_price} />
                <MemberPrice price={item.member_unit_price} />
                <ComparisonPrice price={item.product.comparison_price} />
              </div>
              <p data-amount className="shrink-0 whitespace-nowrap text-base font-bold tabular-nums">
                {formatKr(item.total_price)}
              </p>
            </div>
            {/* Under the name, past the picture (56 px and the 12 px gap). */}
            <PantLine item={item} className="-mt-2 pl-[68px]" />
            <div className="flex items-center gap-2">
              <button
                type="button"
                aria-label={sv.cart.decrease(name)}
                disabled={busy === item.id}
                onClick={() => void act(item, () => onQuantity(item, item.quantity - 1))}
                className="flex size-11 items-center justify-center rounded-xl bg-secondary text-secondary-foreground"
              >
                <Minus aria-hidden="true" className="size-5" />
              </button>
              <output
                aria-label={sv.cart.quantity(item.quantity)}
                className="min-w-12 text-center text-lg font-semibold tabular-nums"
              >
                {item.quantity}
              </output>
              <button
                type="button"
                aria-label={sv.cart.increase(name)}
                disabled={busy === item.id}
                onClick={() => void act(item, () => onQuantity(item, item.quantity + 1))}
                className="flex size-11 items-center justify-center rounded-xl bg-secondary text-secondary-foreground"
              >
                <Plus aria-hidden="true" className="size-5" />
              </button>
              <button
                type="button"
                aria-label={sv.cart.removeLabel(name)}
                disabled={busy === item.id}
                onClick={() => void act(item, () => onRemove(item))}
                className="ml-auto flex min-h-11 items-center gap-2 rounded-xl px-3 font-semibold text-destructive hover:bg-destructive-muted"
              >
                <Trash2 aria-hidden="true" className="size-5" />
                {sv.cart.remove}
              </button>
            </div>
          </li>
        );
      })}
      {pending.map((scan) => (
        <li
          key={scan.scan_id}
          className={clsx("flex items-center gap-3 rounded-2xl border border-dashed bg-warning-muted p-3 text-warning")}
        >
          <Clock aria-hidden="true" className="size-6 shrink-0" />
          <div className="min-w-0">
            <p className="font-semibold">{sv.cart.waiting}</p>
            <p className="text-sm">{sv.cart.waitingHint(scan.barcode)}</p>
          </div>
        </li>
      ))}
    </ul>
  );
}
