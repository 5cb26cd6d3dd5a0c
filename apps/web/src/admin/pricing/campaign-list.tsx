import type { PriceCampaign } from "@glide/contracts";
import { formatKronor } from "../../lib/format.ts";
import { storesOf } from "./dated-rule.ts";
import { DatedRuleList, type DatedRuleListProps, type RuleColumn, STORES_COLUMN } from "./dated-rule-list.tsx";

const COLUMNS: RuleColumn<PriceCampaign>[] = [
  // Below 2xl the SKU sits under the name, so the row's actions stay in view beside the sidebar.
  {
    head: "SKU",
    headClassName: "hidden 2xl:table-cell",
    className: "hidden text-muted-foreground 2xl:table-cell",
    cell: (c) => c.sku,
  },
  STORES_COLUMN,
  {
    head: "Campaign price",
    headClassName: "text-right",
    className: "text-right font-medium tabular-nums",
    cell: (c) => formatKronor(c.price),
  },
  {
    head: "Ordinary price",
    headClassName: "text-right",
    className: "text-right text-muted-foreground tabular-nums",
    cell: (c) => formatKronor(c.ordinary_price),
  },
];

/** The card's lines: SKU and stores, then both prices. */
function CardLines({ campaign }: { campaign: PriceCampaign }) {
  return (
    <>
      <p className="text-sm text-muted-foreground">
        {campaign.sku} · {storesOf(campaign)}
      </p>
      <p className="tabular-nums">
        <span className="font-semibold">{formatKronor(campaign.price)}</span>{" "}
        <span className="text-sm text-muted-foreground">
          ordinary <s>{formatKronor(campaign.ordinary_price)}</s>
        </span>
      </p>
    </>
  );
}

/** The campaigns of a page: product, stores, both prices, days and status, with Edit and Delete where allowed. */
export function CampaignList(props: DatedRuleListProps<PriceCampaign>) {
  return (
    <DatedRuleList
      {...props}
      label="Campaigns"
      titleHead="Product"
      titleOf={(c) => c.product_name}
      titleNote={(c) => <span className="block text-xs font-normal text-muted-foreground 2xl:hidden">{c.sku}</span>}
      columns={COLUMNS}
      cardLines={(c) => <CardLines campaign={c} />}
    />
  );
}
