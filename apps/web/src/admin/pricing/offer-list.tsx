import { type MultiBuyOffer, multiBuyDealText } from "@glide/contracts";
import { storesOf } from "./dated-rule.ts";
import { DatedRuleList, type DatedRuleListProps, type RuleColumn, STORES_COLUMN } from "./dated-rule-list.tsx";
import { productNames } from "./offer-form.ts";

/** The products by name, all of them in the tooltip; an offer whose products were all deleted says so. */
function Products({ offer }: { offer: MultiBuyOffer }) {
  if (offer.products.length === 0) return <span className="text-muted-foreground">No products</span>;
  return (
    <span title={offer.products.map((p) => `${p.name} (${p.sku})`).join(", ")}>{productNames(offer.products)}</span>
  );
}

const limitOf = (offer: MultiBuyOffer) =>
  offer.limit_per_visit === null ? "No limit" : `${offer.limit_per_visit} per visit`;

const COLUMNS: RuleColumn<MultiBuyOffer>[] = [
  { head: "Products", cell: (o) => <Products offer={o} /> },
  STORES_COLUMN,
  { head: "Deal", className: "whitespace-nowrap font-medium tabular-nums", cell: multiBuyDealText },
  { head: "Limit", className: "whitespace-nowrap text-muted-foreground", cell: limitOf },
];

/** The card's lines: the products, then the deal, limit and stores. */
function CardLines({ offer }: { offer: MultiBuyOffer }) {
  return (
    <>
      <p className="text-sm break-words">
        <Products offer={offer} />
      </p>
      <p className="tabular-nums">
        <span className="font-semibold">{multiBuyDealText(offer)}</span>{" "}
        <span className="text-sm text-muted-foreground">
          · {limitOf(offer)} · {storesOf(offer)}
        </span>
      </p>
    </>
  );
}

/** The offers of a page: label, products, stores, deal, limit, days and status, with Edit and Delete where allowed. */
export function OfferList(props: DatedRuleListProps<MultiBuyOffer>) {
  return (
    <DatedRuleList
      {...props}
      label="Offers"
      titleHead="Label"
      titleOf={(o) => o.label}
      columns={COLUMNS}
      cardLines={(o) => <CardLines offer={o} />}
    />
  );
}
