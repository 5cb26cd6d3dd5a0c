import { useId } from "react";
import { Input } from "../../ui/input.tsx";
import { Label } from "../../ui/label.tsx";
import { Select } from "../../ui/select.tsx";
import { useStores } from "../stores/use-stores.ts";
import { type AnalyticsParams, PRESETS, type Preset } from "./use-analytics.ts";

/** Range preset, custom days and store; every change goes to the URL. */
export function AnalyticsToolbar({ params }: { params: AnalyticsParams }) {
  const fromId = useId();
  const toId = useId();
  // The stores the admin may see: the server lists only those.
  const stores = useStores("");
  return (
    <div className="flex flex-wrap items-end gap-2">
      <Select
        aria-label="Date range"
        className="min-w-0 flex-1 sm:w-44 sm:flex-none"
        value={params.preset}
        onChange={(event) => params.setPreset(event.target.value as Preset)}
      >
        {PRESETS.map((p) => (
          <option key={p.value} value={p.value}>
            {p.label}
          </option>
        ))}
      </Select>
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
      <div className="grid gap-1">
        <Label htmlFor={fromId} className="text-xs font-normal text-muted-foreground">
          From
        </Label>
        <Input
          id={fromId}
          type="date"
          className="w-40"
          value={params.from}
          max={params.to}
          onChange={(event) => event.target.value && params.setFrom(event.target.value)}
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
          min={params.from}
          onChange={(event) => event.target.value && params.setTo(event.target.value)}
        />
      </div>
    </div>
  );
}
