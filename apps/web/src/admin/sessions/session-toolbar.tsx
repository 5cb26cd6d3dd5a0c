import { SESSION_STATUSES } from "@glide/contracts";
import { Search } from "lucide-react";
import { useId } from "react";
import { pluralize } from "../../lib/format.ts";
import { Button } from "../../ui/button.tsx";
import { Input } from "../../ui/input.tsx";
import { Label } from "../../ui/label.tsx";
import { Select } from "../../ui/select.tsx";
import { useStores } from "../stores/use-stores.ts";
import { STATUS_LABELS } from "./session-format.ts";
import type { SessionParams } from "./use-session-params.ts";

interface SessionToolbarProps {
  params: SessionParams;
  /** All matches (X-Total-Count), or undefined before the first answer. */
  total: number | undefined;
}

/** Search, store, status and the entry days; each change goes to the URL and back to page 1. */
export function SessionToolbar({ params, total }: SessionToolbarProps) {
  const fromId = useId();
  const toId = useId();
  // The stores the admin may see: the server lists only those.
  const stores = useStores("");
  const filtered = params.search || params.storeId || params.status || params.from || params.to;
  return (
    <div className="flex flex-wrap items-end gap-2">
      <div className="relative min-w-0 basis-full sm:max-w-sm sm:flex-1 sm:basis-auto">
        <Search
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
        />
        <Input
          type="search"
          aria-label="Search sessions"
          placeholder="Search by shopper, session id or receipt..."
          className="pl-9"
          value={params.search}
          onChange={(event) => params.setSearch(event.target.value)}
        />
      </div>
      <Select
        aria-label="Store"
        className="min-w-0 flex-1 sm:w-48 sm:flex-none"
        value={params.storeId}
        onChange={(event) => params.setStoreId(event.target.value)}
      >
        <option value="">All stores</option>
        {(stores.data ?? []).map((store) => (
          <option key={store.id} value={store.id}>
            {store.name}
          </option>
        ))}
      </Select>
      <Select
        aria-label="Status"
        className="min-w-0 flex-1 sm:w-40 sm:flex-none"
        value={params.status}
        onChange={(event) => params.setStatus(event.target.value)}
      >
        <option value="">All statuses</option>
        {SESSION_STATUSES.map((status) => (
          <option key={status} value={status}>
            {STATUS_LABELS[status]}
          </option>
        ))}
      </Select>
      <div className="grid gap-1">
        <Label htmlFor={fromId} className="text-xs font-normal text-muted-foreground">
          Entered from
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
          Entered to
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
        {total === undefined ? "" : pluralize(total, "session", "sessions")}
      </p>
    </div>
  );
}
