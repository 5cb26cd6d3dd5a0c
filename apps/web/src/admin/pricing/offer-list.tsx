import { type MultiBuyOffer, multiBuyDealText } from "@glide/contracts";
import { Pencil, Trash } from "lucide-react";
import { Button } from "../../ui/button.tsx";
import { TableCell, TableHead, TableRow } from "../../ui/table.tsx";
import { useDateFormat } from "../settings/use-date-format.ts";
import { ListCards, ListTable } from "../shell/list-views.tsx";
import { storesOf } from "./dated-rule.ts";
import { MembersBadge } from "./members-only.tsx";
import { productNames } from "./offer-form.ts";
import { RuleStatusBadge } from "./rule-status-badge.tsx";

interface OfferListProps {
  offers: MultiBuyOffer[];
  /** A table on a wide screen, cards on a phone. */
  phone: boolean;
  busy: boolean;
  empty: string;
  /** Whether the admin may change or delete this one (a store admin: their stores' only). */
  canChange: (offer: MultiBuyOffer) => boolean;
  /** Whether the admin may change any offer at all: the Actions column is there. */
  showActions: boolean;
  onEdit: (offer: MultiBuyOffer) => void;
  onDelete: (offer: MultiBuyOffer) => void;
}

/** The products by name, all of them in the tooltip; an offer whose products were all deleted says so. */
function Products({ offer }: { offer: MultiBuyOffer }) {
  if (offer.products.length === 0) return <span className="text-muted-foreground">No products</span>;
  return (
    <span title={offer.products.map((p) => `${p.name} (${p.sku})`).join(", ")}>{productNames(offer.products)}</span>
  );
}

const limitOf = (offer: MultiBuyOffer) =>
  offer.limit_per_visit === null ? "No limit" : `${offer.limit_per_visit} per visit`;

/** The offers of a page: label, products, stores, deal, limit, days and status, with Edit and Delete where allowed. */
export function OfferList(props: OfferListProps) {
  const { offers, phone, busy, empty, canChange, showActions, onEdit, onDelete } = props;
  const dates = useDateFormat();
  const named = (o: MultiBuyOffer) => `${o.label} in ${storesOf(o)} from ${dates.day(o.starts_on)}`;
  const actions = (offer: MultiBuyOffer) =>
    canChange(offer) ? (
      <div className="flex justify-end">
        <Button variant="ghost" size="icon" aria-label={`Edit ${named(offer)}`} onClick={() => onEdit(offer)}>
          <Pencil aria-hidden="true" />
        </Button>
        <Button
          variant="ghost"
          size="icon"
          aria-label={`Delete ${named(offer)}`}
          className="text-destructive"
          onClick={() => onDelete(offer)}
        >
          <Trash aria-hidden="true" />
        </Button>
      </div>
    ) : null;

  if (phone) {
    return (
      <ListCards
        label="Offers"
        busy={busy}
        empty={empty}
        items={offers.map((offer) => (
          <li
            key={offer.id}
            className="flex min-w-0 items-start justify-between gap-3 rounded-lg border bg-card p-3 text-card-foreground shadow-xs"
          >
            <div className="grid min-w-0 gap-1">
              <p className="flex flex-wrap items-center gap-2">
                <span className="font-semibold break-words">{offer.label}</span>
                <RuleStatusBadge status={offer.status} />
                <MembersBadge membersOnly={offer.members_only} />
              </p>
              <p className="text-sm break-words">
                <Products offer={offer} />
              </p>
              <p className="tabular-nums">
                <span className="font-semibold">{multiBuyDealText(offer)}</span>{" "}
                <span className="text-sm text-muted-foreground">
                  · {limitOf(offer)} · {storesOf(offer)}
                </span>
              </p>
              <p className="text-sm text-muted-foreground tabular-nums">
                {dates.day(offer.starts_on)} – {dates.day(offer.ends_on)}
              </p>
            </div>
            {actions(offer)}
          </li>
        ))}
      />
    );
  }
  return (
    <ListTable
      label="Offers"
      busy={busy}
      head={
        <>
          <TableHead>Label</TableHead>
          <TableHead>Products</TableHead>
          <TableHead>Stores</TableHead>
          <TableHead>Deal</TableHead>
          <TableHead>Limit</TableHead>
          <TableHead>From</TableHead>
          <TableHead>To</TableHead>
          <TableHead>Status</TableHead>
          {showActions ? <TableHead className="w-28 text-right">Actions</TableHead> : null}
        </>
      }
      columnCount={showActions ? 9 : 8}
      empty={empty}
      rows={offers.map((offer) => (
        <TableRow key={offer.id}>
          <TableCell className="font-medium">
            <span className="flex flex-wrap items-center gap-2">
              {offer.label}
              <MembersBadge membersOnly={offer.members_only} />
            </span>
          </TableCell>
          <TableCell>
            <Products offer={offer} />
          </TableCell>
          <TableCell>{storesOf(offer)}</TableCell>
          <TableCell className="whitespace-nowrap font-medium tabular-nums">{multiBuyDealText(offer)}</TableCell>
          <TableCell className="whitespace-nowrap text-muted-foreground">{limitOf(offer)}</TableCell>
          <TableCell className="whitespace-nowrap tabular-nums">{dates.day(offer.starts_on)}</TableCell>
          <TableCell className="whitespace-nowrap tabular-nums">{dates.day(offer.ends_on)}</TableCell>
          <TableCell>
            <RuleStatusBadge status={offer.status} />
          </TableCell>
          {showActions ? <TableCell className="py-1">{actions(offer)}</TableCell> : null}
        </TableRow>
      ))}
    />
  );
}
