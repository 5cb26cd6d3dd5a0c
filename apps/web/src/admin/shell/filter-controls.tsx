import clsx from "clsx";
import { Search } from "lucide-react";
import { type ComponentProps, useId } from "react";
import { pluralize } from "../../lib/format.ts";
import { Button } from "../../ui/button.tsx";
import { Input } from "../../ui/input.tsx";
import { Label } from "../../ui/label.tsx";
import { Select } from "../../ui/select.tsx";
import { useStores } from "../lib/store-list.ts";

/**
 * The parts that the console's list toolbars share, so every list filters the same way.
 * Below the `sm` breakpoint (a phone) each filter takes a full line of its own, stacked
 * as the products screen stacks its cards; from `sm` up they sit side by side at their
 * own widths.
 */

/** A filter's select: full width on a phone; `className` gives its width from `sm` up (e.g. "sm:w-48"). */
export function FilterSelect({ className, ...props }: ComponentProps<typeof Select>) {
  return <Select className={clsx("w-full min-w-0 sm:flex-none", className)} {...props} />;
}

interface SearchFieldProps {
  /** The accessible name, e.g. "Search sessions". */
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
}

/** A search box with its magnifier: full width on a phone, beside the other filters from `sm` up. */
export function SearchField({ label, placeholder, value, onChange }: SearchFieldProps) {
  return (
    <div className="relative min-w-0 basis-full sm:max-w-sm sm:flex-1 sm:basis-auto">
      <Search
        aria-hidden="true"
        className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
      />
      <Input
        type="search"
        aria-label={label}
        placeholder={placeholder}
        className="pl-9"
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}

/** "All stores" ("") or one of the admin's stores: the server lists only the stores the admin may see. */
export function StoreFilter({ value, onChange }: { value: string; onChange: (storeId: string) => void }) {
  const stores = useStores("");
  return (
    <FilterSelect
      aria-label="Store"
      className="sm:w-48"
      value={value}
      onChange={(event) => onChange(event.target.value)}
    >
      <option value="">All stores</option>
      {(stores.data ?? []).map((store) => (
        <option key={store.id} value={store.id}>
          {store.name}
        </option>
      ))}
    </FilterSelect>
  );
}

interface DateRangeFieldsProps {
  /** Days as YYYY-MM-DD, or "" for an open end. */
  from: string;
  to: string;
  onFromChange: (day: string) => void;
  onToChange: (day: string) => void;
  fromLabel?: string;
  toLabel?: string;
}

/**
 * Two labelled day inputs; each one bounds the other so the range cannot run backwards.
 * On a phone the pair is one full line, halved; from `sm` up each keeps its own width.
 */
export function DateRangeFields(props: DateRangeFieldsProps) {
  const { from, to, onFromChange, onToChange, fromLabel = "From", toLabel = "To" } = props;
  return (
    <div className="grid w-full grid-cols-2 gap-2 sm:flex sm:w-auto">
      <DayField label={fromLabel} value={from} max={to} onChange={onFromChange} />
      <DayField label={toLabel} value={to} min={from} onChange={onToChange} />
    </div>
  );
}

interface DayFieldProps {
  label: string;
  value: string;
  min?: string;
  max?: string;
  onChange: (day: string) => void;
}

function DayField({ label, value, min, max, onChange }: DayFieldProps) {
  const id = useId();
  return (
    <div className="grid min-w-0 gap-1">
      <Label htmlFor={id} className="text-xs font-normal text-muted-foreground">
        {label}
      </Label>
      <Input
        id={id}
        type="date"
        className="min-w-0 sm:w-40"
        value={value}
        min={min || undefined}
        max={max || undefined}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}

/** "Clear filters", only while any filter (the search included) is set. */
export function ClearFilters({ active, onClear }: { active: boolean; onClear: () => void }) {
  return active ? (
    <Button variant="ghost" onClick={onClear}>
      Clear filters
    </Button>
  ) : null;
}

interface MatchCountProps {
  /** All matches (X-Total-Count), or undefined before the first answer. */
  total: number | undefined;
  /** The server stopped counting at `total`: there are more. */
  capped?: boolean | undefined;
  one: string;
  many: string;
}

const whole = new Intl.NumberFormat("en");

/** How many match the filters, e.g. "12 sessions" or "10,000+ sessions", announced as it changes. */
export function MatchCount({ total, capped, one, many }: MatchCountProps) {
  return (
    <p aria-live="polite" className="ml-auto text-sm whitespace-nowrap text-muted-foreground tabular-nums">
      {total === undefined ? "" : capped ? `${whole.format(total)}+ ${many}` : pluralize(total, one, many)}
    </p>
  );
}
