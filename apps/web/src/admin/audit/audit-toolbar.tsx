import { ClearFilters, DateRangeFields, FilterSelect, MatchCount, SearchField } from "../shell/filter-controls.tsx";
import { ACTION_CHOICES } from "./audit-format.ts";
import type { useAuditParams } from "./use-audit-params.ts";

interface AuditToolbarProps {
  params: ReturnType<typeof useAuditParams>;
  /** All matches (X-Total-Count), or undefined before the first answer. */
  total: number | undefined;
}

/** Search, the kind of action and the day range; each change goes to the URL and back to page 1. */
export function AuditToolbar({ params, total }: AuditToolbarProps) {
  const filtered = params.search || params.action || params.from || params.to;
  return (
    <div className="flex flex-wrap items-end gap-2">
      <SearchField
        label="Search the audit log"
        placeholder="Search by summary, action, e-mail or id..."
        value={params.search}
        onChange={params.setSearch}
      />
      <FilterSelect
        aria-label="Action"
        className="sm:w-48"
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
      </FilterSelect>
      <DateRangeFields from={params.from} to={params.to} onFromChange={params.setFrom} onToChange={params.setTo} />
      <ClearFilters active={Boolean(filtered)} onClear={params.clearFilters} />
      <MatchCount total={total} one="change" many="changes" />
    </div>
  );
}
