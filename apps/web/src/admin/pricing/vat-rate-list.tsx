import { VAT_CATEGORY_LABELS, type VatCategory, type VatRate } from "@glide/contracts";
import { Pencil, Trash } from "lucide-react";
import { useId } from "react";
import { Badge } from "../../ui/badge.tsx";
import { Button } from "../../ui/button.tsx";
import { TableCell, TableHead, TableRow } from "../../ui/table.tsx";
import { useDateFormat } from "../settings/use-date-format.ts";
import { ListCards, ListTable } from "../shell/list-views.tsx";
import { type CategoryPeriods, formatRate, OPEN_END, type PeriodStatus, periodStatus } from "./vat-rates.ts";

interface VatRateListProps {
  groups: CategoryPeriods[];
  /** The server's today: which period is current. */
  today: string;
  /** A table per category on a wide screen, cards on a phone. */
  phone: boolean;
  /** Platform admins change rates; store admins only read them. */
  canManage: boolean;
  busy: boolean;
  onEdit: (rate: VatRate) => void;
  onDelete: (rate: VatRate) => void;
}

/** Each category under its own heading, its periods oldest first. */
export function VatRateList({ groups, ...rest }: VatRateListProps) {
  return (
    <div className="grid gap-6">
      {groups.map((group) => (
        <CategorySection key={group.category} {...group} {...rest} />
      ))}
    </div>
  );
}

const STATUS: Record<PeriodStatus, { label: string; variant: "success" | "outline" | "muted" }> = {
  current: { label: "Current", variant: "success" },
  upcoming: { label: "Upcoming", variant: "outline" },
  ended: { label: "Ended", variant: "muted" },
};

function StatusBadge({ status }: { status: PeriodStatus }) {
  return <Badge variant={STATUS[status].variant}>{STATUS[status].label}</Badge>;
}

type SectionProps = Omit<VatRateListProps, "groups"> & { category: VatCategory; periods: VatRate[] };

function CategorySection(props: SectionProps) {
  const { category, periods, today, phone, canManage, busy, onEdit, onDelete } = props;
  const headingId = useId();
  const dates = useDateFormat();
  const label = VAT_CATEGORY_LABELS[category];
  const empty = "No rate set for this category";
  const actions = (rate: VatRate) =>
    canManage ? (
      <div className="flex justify-end">
        <Button
          variant="ghost"
          size="icon"
          aria-label={`Edit ${label} from ${dates.day(rate.valid_from)}`}
          onClick={() => onEdit(rate)}
        >
          <Pencil aria-hidden="true" />
        </Button>
        <Button
          variant="ghost"
          size="icon"
          aria-label={`Delete ${label} from ${dates.day(rate.valid_from)}`}
          className="text-destructive"
          onClick={() => onDelete(rate)}
        >
          <Trash aria-hidden="true" />
        </Button>
      </div>
    ) : null;

  return (
    <section aria-labelledby={headingId} className="grid gap-2">
      <h2 id={headingId} className="text-lg font-semibold">
        {label}
      </h2>
      {phone ? (
        <ListCards
          label={label}
          busy={busy}
          empty={empty}
          items={periods.map((rate) => (
            <li
              key={rate.id}
              className="flex min-w-0 items-center justify-between gap-3 rounded-lg border bg-card p-3 text-card-foreground shadow-xs"
            >
              <div className="grid min-w-0 gap-1">
                <p className="flex flex-wrap items-center gap-2">
                  <span className="text-lg font-semibold tabular-nums">{formatRate(rate.rate)}</span>
                  <StatusBadge status={periodStatus(rate, today)} />
                </p>
                <p className="text-sm text-muted-foreground tabular-nums">
                  {dates.day(rate.valid_from)} – {rate.valid_to ? dates.day(rate.valid_to) : OPEN_END}
                </p>
              </div>
              {actions(rate)}
            </li>
          ))}
        />
      ) : (
        <ListTable
          label={label}
          busy={busy}
          head={
            <>
              <TableHead className="w-32">Rate</TableHead>
              <TableHead className="w-40">From</TableHead>
              <TableHead className="w-48">To</TableHead>
              <TableHead>Status</TableHead>
              {canManage ? <TableHead className="w-28 text-right">Actions</TableHead> : null}
            </>
          }
          columnCount={canManage ? 5 : 4}
          empty={empty}
          rows={periods.map((rate) => (
            <TableRow key={rate.id}>
              <TableCell className="font-medium tabular-nums">{formatRate(rate.rate)}</TableCell>
              <TableCell className="whitespace-nowrap tabular-nums">{dates.day(rate.valid_from)}</TableCell>
              <TableCell className="whitespace-nowrap tabular-nums">
                {rate.valid_to ? dates.day(rate.valid_to) : OPEN_END}
              </TableCell>
              <TableCell>
                <StatusBadge status={periodStatus(rate, today)} />
              </TableCell>
              {canManage ? <TableCell className="py-1">{actions(rate)}</TableCell> : null}
            </TableRow>
          ))}
        />
      )}
    </section>
  );
}
