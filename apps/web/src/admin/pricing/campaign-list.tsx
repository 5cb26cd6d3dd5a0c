import type { PriceCampaign } from "@glide/contracts";
import { Pencil, Trash } from "lucide-react";
import { formatKronor } from "../../lib/format.ts";
import { Button } from "../../ui/button.tsx";
import { TableCell, TableHead, TableRow } from "../../ui/table.tsx";
import { useDateFormat } from "../settings/use-date-format.ts";
import { ListCards, ListTable } from "../shell/list-views.tsx";
import { storesOf } from "./dated-rule.ts";
import { MembersBadge } from "./members-only.tsx";
import { RuleStatusBadge } from "./rule-status-badge.tsx";

interface CampaignListProps {
  campaigns: PriceCampaign[];
  /** A table on a wide screen, cards on a phone. */
  phone: boolean;
  busy: boolean;
  empty: string;
  /** Whether the admin may change or delete this one (a store admin: their stores' only). */
  canChange: (campaign: PriceCampaign) => boolean;
  /** Whether the admin may change any campaign at all: the Actions column is there. */
  showActions: boolean;
  onEdit: (campaign: PriceCampaign) => void;
  onDelete: (campaign: PriceCampaign) => void;
}

/** The campaigns of a page: product, stores, both prices, days and status, with Edit and Delete where allowed. */
export function CampaignList(props: CampaignListProps) {
  const { campaigns, phone, busy, empty, canChange, showActions, onEdit, onDelete } = props;
  const dates = useDateFormat();
  const named = (c: PriceCampaign) => `${c.product_name} in ${storesOf(c)} from ${dates.day(c.starts_on)}`;
  const actions = (campaign: PriceCampaign) =>
    canChange(campaign) ? (
      <div className="flex justify-end">
        <Button variant="ghost" size="icon" aria-label={`Edit ${named(campaign)}`} onClick={() => onEdit(campaign)}>
          <Pencil aria-hidden="true" />
        </Button>
        <Button
          variant="ghost"
          size="icon"
          aria-label={`Delete ${named(campaign)}`}
          className="text-destructive"
          onClick={() => onDelete(campaign)}
        >
          <Trash aria-hidden="true" />
        </Button>
      </div>
    ) : null;

  if (phone) {
    return (
      <ListCards
        label="Campaigns"
        busy={busy}
        empty={empty}
        items={campaigns.map((campaign) => (
          <li
            key={campaign.id}
            className="flex min-w-0 items-start justify-between gap-3 rounded-lg border bg-card p-3 text-card-foreground shadow-xs"
          >
            <div className="grid min-w-0 gap-1">
              <p className="flex flex-wrap items-center gap-2">
                <span className="font-semibold break-words">{campaign.product_name}</span>
                <RuleStatusBadge status={campaign.status} />
                <MembersBadge membersOnly={campaign.members_only} />
              </p>
              <p className="text-sm text-muted-foreground">
                {campaign.sku} · {storesOf(campaign)}
              </p>
              <p className="tabular-nums">
                <span className="font-semibold">{formatKronor(campaign.price)}</span>{" "}
                <span className="text-sm text-muted-foreground">
                  ordinary <s>{formatKronor(campaign.ordinary_price)}</s>
                </span>
              </p>
              <p className="text-sm text-muted-foreground tabular-nums">
                {dates.day(campaign.starts_on)} – {dates.day(campaign.ends_on)}
              </p>
            </div>
            {actions(campaign)}
          </li>
        ))}
      />
    );
  }
  return (
    <ListTable
      label="Campaigns"
      busy={busy}
      head={
        <>
          <TableHead>Product</TableHead>
          {/* Below 2xl the SKU sits under the name, so the row's actions stay in view beside the sidebar. */}
          <TableHead className="hidden 2xl:table-cell">SKU</TableHead>
          <TableHead>Stores</TableHead>
          <TableHead className="text-right">Campaign price</TableHead>
          <TableHead className="text-right">Ordinary price</TableHead>
          <TableHead>From</TableHead>
          <TableHead>To</TableHead>
          <TableHead>Status</TableHead>
          {showActions ? <TableHead className="w-28 text-right">Actions</TableHead> : null}
        </>
      }
      columnCount={showActions ? 9 : 8}
      empty={empty}
      rows={campaigns.map((campaign) => (
        <TableRow key={campaign.id}>
          <TableCell className="font-medium">
            <span className="flex flex-wrap items-center gap-2">
              {campaign.product_name}
              <MembersBadge membersOnly={campaign.members_only} />
            </span>
            <span className="block text-xs font-normal text-muted-foreground 2xl:hidden">{campaign.sku}</span>
          </TableCell>
          <TableCell className="hidden text-muted-foreground 2xl:table-cell">{campaign.sku}</TableCell>
          <TableCell>{storesOf(campaign)}</TableCell>
          <TableCell className="text-right font-medium tabular-nums">{formatKronor(campaign.price)}</TableCell>
          <TableCell className="text-right text-muted-foreground tabular-nums">
            {formatKronor(campaign.ordinary_price)}
          </TableCell>
          <TableCell className="whitespace-nowrap tabular-nums">{dates.day(campaign.starts_on)}</TableCell>
          <TableCell className="whitespace-nowrap tabular-nums">{dates.day(campaign.ends_on)}</TableCell>
          <TableCell>
            <RuleStatusBadge status={campaign.status} />
          </TableCell>
          {showActions ? <TableCell className="py-1">{actions(campaign)}</TableCell> : null}
        </TableRow>
      ))}
    />
  );
}
