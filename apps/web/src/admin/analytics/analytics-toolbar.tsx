import { DateRangeFields, FilterSelect, StoreFilter } from "../shell/filter-controls.tsx";
import { type AnalyticsParams, PRESETS, type Preset } from "./use-analytics.ts";

/** Range preset, custom days and store; every change goes to the URL. */
export function AnalyticsToolbar({ params }: { params: AnalyticsParams }) {
  return (
    <div className="flex flex-wrap items-end gap-2">
      <FilterSelect
        aria-label="Date range"
        className="sm:w-44"
        value={params.preset}
        onChange={(event) => params.setPreset(event.target.value as Preset)}
      >
        {PRESETS.map((p) => (
          <option key={p.value} value={p.value}>
            {p.label}
          </option>
        ))}
      </FilterSelect>
      <StoreFilter value={params.storeId} onChange={params.setStoreId} />
      {/* A custom range always has both ends: clearing a day leaves the range as it was. */}
      <DateRangeFields
        from={params.from}
        to={params.to}
        onFromChange={(day) => day && params.setFrom(day)}
        onToChange={(day) => day && params.setTo(day)}
      />
    </div>
  );
}
