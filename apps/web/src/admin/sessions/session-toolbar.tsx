import { SESSION_STATUSES } from "@glide/contracts";
import {
  ClearFilters,
  DateRangeFields,
  FilterSelect,
  MatchCount,
  SearchField,
  StoreFilter,
} from "../shell/filter-controls.tsx";
import { STATUS_LABELS } from "./session-format.ts";
import type { SessionParams } from "./use-session-params.ts";

interface SessionToolbarProps {
  params: SessionParams;
  /** All matches (X-Total-Count), or undefined before the first answer. */
  total: number | undefined;
  /** More visits match than the server counts. */
  capped?: boolean | undefined;
}

/** Search, store, status and the entry days; each change goes to the URL and back to page 1. */
export function SessionToolbar({ params, total, capped }: SessionToolbarProps) {
  const filtered = params.search || params.storeId || params.status || params.from || params.to;
  return (
    <div className="flex flex-wrap items-end gap-2">
      <SearchField
        label="Search sessions"
        placeholder="Search by shopper, session id or receipt..."
        value={params.search}
        onChange={params.setSearch}
      />
      <StoreFilter value={params.storeId} onChange={params.setStoreId} />
      <FilterSelect
        aria-label="Status"
        className="sm:w-40"
        value={params.status}
        onChange={(event) => params.setStatus(event.target.value)}
      >
        <option value="">All statuses</option>
        {SESSION_STATUSES.map((status) => (
          <option key={status} value={status}>
            {STATUS_LABELS[status]}
          </option>
        ))}
      </FilterSelect>
      <DateRangeFields
        from={params.from}
        to={params.to}
        onFromChange={params.setFrom}
        onToChange={params.setTo}
        fromLabel="Entered from"
        toLabel="Entered to"
      />
      <ClearFilters active={Boolean(filtered)} onClear={params.clearFilters} />
      <MatchCount total={total} capped={capped} one="session" many="sessions" />
    </div>
  );
}
