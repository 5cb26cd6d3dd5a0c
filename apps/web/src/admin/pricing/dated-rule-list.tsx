import type { CampaignStatus } from "@glide/contracts";
import { Pencil, Trash } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "../../ui/button.tsx";
import { TableCell, TableHead, TableRow } from "../../ui/table.tsx";
import { useDateFormat } from "../settings/use-date-format.ts";
import { ListCards, ListTable } from "../shell/list-views.tsx";
import { type DatedRule, storesOf } from "./dated-rule.ts";
import { MembersBadge } from "./members-only.tsx";
import { RuleStatusBadge } from "./rule-status-badge.tsx";

/** What a list of dated rules shows of each besides its own columns. */
export interface ListedRule extends DatedRule {
  id: string;
  starts_on: string;
  ends_on: string;
  status: CampaignStatus;
  members_only: boolean;
}

/** What the tab gives its list: the page's rules and who may do what with them. */
export interface DatedRuleListProps<R> {
  rules: R[];
  /** A table on a wide screen, cards on a phone. */
  phone: boolean;
  busy: boolean;
  empty: string;
  /** Whether the admin may change or delete this one (a store admin: their stores' only). */
  canChange: (rule: R) => boolean;
  /** Whether the admin may change any rule at all: the Actions column is there. */
  showActions: boolean;
  onEdit: (rule: R) => void;
  onDelete: (rule: R) => void;
}

/** A column of the table between the rule's name and its days: its head and each row's cell. */
export interface RuleColumn<R> {
  head: string;
  headClassName?: string;
  className?: string;
  cell: (rule: R) => ReactNode;
}

/** The Stores column, where each kind of rule puts it. */
export const STORES_COLUMN: RuleColumn<DatedRule> = { head: "Stores", cell: storesOf };

/** What makes one kind's list its own: its name, the name of each rule, and the columns and card lines between. */
interface KindOfList<R> {
  /** The table's and the cards' accessible name, e.g. "Campaigns". */
  label: string;
  /** The head of the first column, e.g. "Product". */
  titleHead: string;
  /** The rule's name, first in its row and card. */
  titleOf: (rule: R) => string;
  /** Shown under the name in the table, e.g. a SKU when its column is hidden. */
  titleNote?: (rule: R) => ReactNode;
  columns: RuleColumn<R>[];
  /** The card's lines between the name and the days. */
  cardLines: (rule: R) => ReactNode;
}

/**
 * The list of a Campaigns or Offers page: the rule's name (and the Members
 * mark), its own columns, the days and status, with Edit and Delete where
 * allowed; a table on a wide screen, cards on a phone.
 */
export function DatedRuleList<R extends ListedRule>(props: DatedRuleListProps<R> & KindOfList<R>) {
  const { rules, phone, busy, empty, canChange, showActions, onEdit, onDelete, label, titleOf } = props;
  const dates = useDateFormat();
  const named = (rule: R) => `${titleOf(rule)} in ${storesOf(rule)} from ${dates.day(rule.starts_on)}`;
  const actions = (rule: R) =>
    canChange(rule) ? (
      <div className="flex justify-end">
        <Button variant="ghost" size="icon" aria-label={`Edit ${named(rule)}`} onClick={() => onEdit(rule)}>
          <Pencil aria-hidden="true" />
        </Button>
        <Button
          variant="ghost"
          size="icon"
          aria-label={`Delete ${named(rule)}`}
          className="text-destructive"
          onClick={() => onDelete(rule)}
        >
          <Trash aria-hidden="true" />
        </Button>
      </div>
    ) : null;

  if (phone) {
    return (
      <ListCards
        label={label}
        busy={busy}
        empty={empty}
        items={rules.map((rule) => (
          <li
            key={rule.id}
            className="flex min-w-0 items-start justify-between gap-3 rounded-lg border bg-card p-3 text-card-foreground shadow-xs"
          >
            <div className="grid min-w-0 gap-1">
              <p className="flex flex-wrap items-center gap-2">
                <span className="font-semibold break-words">{titleOf(rule)}</span>
                <RuleStatusBadge status={rule.status} />
                <MembersBadge membersOnly={rule.members_only} />
              </p>
              {props.cardLines(rule)}
              <p className="text-sm text-muted-foreground tabular-nums">
                {dates.day(rule.starts_on)} – {dates.day(rule.ends_on)}
              </p>
            </div>
            {actions(rule)}
          </li>
        ))}
      />
    );
  }
  return (
    <ListTable
      label={label}
      busy={busy}
      head={
        <>
          <TableHead>{props.titleHead}</TableHead>
          {props.columns.map((column) => (
            <TableHead key={column.head} className={column.headClassName}>
              {column.head}
            </TableHead>
          ))}
          <TableHead>From</TableHead>
          <TableHead>To</TableHead>
          <TableHead>Status</TableHead>
          {showActions ? <TableHead className="w-28 text-right">Actions</TableHead> : null}
        </>
      }
      columnCount={props.columns.length + (showActions ? 5 : 4)}
      empty={empty}
      rows={rules.map((rule) => (
        <TableRow key={rule.id}>
          <TableCell className="font-medium">
            <span className="flex flex-wrap items-center gap-2">
              {titleOf(rule)}
              <MembersBadge membersOnly={rule.members_only} />
            </span>
            {props.titleNote?.(rule)}
          </TableCell>
          {props.columns.map((column) => (
            <TableCell key={column.head} className={column.className}>
              {column.cell(rule)}
            </TableCell>
          ))}
          <TableCell className="whitespace-nowrap tabular-nums">{dates.day(rule.starts_on)}</TableCell>
          <TableCell className="whitespace-nowrap tabular-nums">{dates.day(rule.ends_on)}</TableCell>
          <TableCell>
            <RuleStatusBadge status={rule.status} />
          </TableCell>
          {showActions ? <TableCell className="py-1">{actions(rule)}</TableCell> : null}
        </TableRow>
      ))}
    />
  );
}
