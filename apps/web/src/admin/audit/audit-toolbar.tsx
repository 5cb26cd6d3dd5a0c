import { Search } from "lucide-react";
import { useId } from "react";
import { pluralize } from "../../lib/format.ts";
import { Button } from "../../ui/button.tsx";
import { Input } from "../../ui/input.tsx";
import { Label } from "../../ui/label.tsx";
import { Select } from "../../ui/select.tsx";
import { ACTION_CHOICES } from "./audit-format.ts";
import type { useAuditParams } from "./use-audit-params.ts";

interface AuditToolbarProps {
  params: ReturnType<typeof useAuditParams>;
  /** All matches (X-Total-Count), or undefined before the first answer. */
  total: number | undefined;
}

/** Search, the kind of action and the day range; each change goes to the URL and back to page 1. */
export function AuditToolbar({ params, total }: AuditToolbarProps) {
  const fromId = useId();
  const toId = useId();
  const filtered = params.search || params.action || params.from || params.to;
  return (
    <div className="flex flex-wrap items-end gap-2">
      <div className="relative min-w-0 basis-full sm:max-w-sm sm:flex-1 sm:basis-auto">
        <Search
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
        />
        <Input
          type="search"
          aria-label="Search the audit log"
          placeholder="Search by summary, action, e-mail or id..."
          className="pl-9"
          value={params.search}
          onChange={(event) => params.setSearch(event.target.value)}
        />
      </div>
      <Select
        aria-label="Action"
        className="min-w-0 flex-1 sm:w-48 sm:flex-none"
        value={params.action}
        onChange={(event) => params.setAction(event.target.value)}
      >
        <option value="">All actions</option>
        {ACTION_CHOICES.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
        {/* An exact action from a shared link still shows as chosen. */}
        {params.action && !ACTION_CHOICES.some((c) => c.value === params.action) ? (
          <option value={params.action}>{params.action}</option>
        ) : null}
      </Select>
      <div className="grid gap-1">
        <Label htmlFor={fromId} className="text-xs font-normal text-muted-foreground">
          From
        </Label>
        <Input
          id={fromId}
          type="date"
          className="w-40"
          value={params.from}
          max={params.to || undefined}
          onChange={(event) => params.setFrom(event.target.value)}
        />
      </div>
      <div className="grid gap-1">
        <Label htmlFor={toId} className="text-xs font-normal text-muted-foreground">
          To
        </Label>
        <Input
          id={toId}
          type="date"
          className="w-40"
          value={params.to}
          min={params.from || undefined}
          onChange={(event) => params.setTo(event.target.value)}
        />
      </div>
      {filtered ? (
        <Button variant="ghost" onClick={params.clearFilters}>
          Clear filters
        </Button>
      ) : null}
      <p aria-live="polite" className="ml-auto text-sm whitespace-nowrap text-muted-foreground tabular-nums">
        {total === undefined ? "" : pluralize(total, "change", "changes")}
      </p>
    </div>
  );
}
