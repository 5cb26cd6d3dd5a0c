import {
  type AnalyticsTable,
  analyticsHourSchema,
  analyticsRefundDaySchema,
  analyticsRevenueSchema,
  analyticsSummarySchema,
  analyticsTopCategorySchema,
  analyticsTopProductSchema,
} from "@glide/contracts";
import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { api, apiUrl } from "../../lib/api.ts";
import { dayParam, type ParamChanges, useUrlParams } from "../../lib/use-url-params.ts";

export const PRESETS = [
  { value: "7d", label: "Last 7 days" },
  { value: "30d", label: "Last 30 days" },
  { value: "month", label: "This month" },
  { value: "custom", label: "Custom" },
] as const;
export type Preset = (typeof PRESETS)[number]["value"];

/** A local calendar day as YYYY-MM-DD (the admin's own days; each store's figures use the store's days). */
const dayOf = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;

export function presetRange(preset: Exclude<Preset, "custom">, today = new Date()): { from: string; to: string } {
  const start = new Date(today);
  if (preset === "month") start.setDate(1);
  else start.setDate(start.getDate() - (preset === "7d" ? 6 : 29));
  return { from: dayOf(start), to: dayOf(today) };
}

/**
 * The Analytics screen's state, all in the URL: ?range= (a preset or
 * custom), ?from= and ?to= for a custom range, ?store= (none: all stores).
 */
export function useAnalyticsParams() {
  const [params, writeParams] = useUrlParams();
  const rawPreset = params.get("range");
  const preset: Preset = PRESETS.some((p) => p.value === rawPreset) ? (rawPreset as Preset) : "30d";
  const fallback = presetRange("30d");
  const range =
    preset === "custom"
      ? { from: dayParam(params, "from") || fallback.from, to: dayParam(params, "to") || fallback.to }
      : presetRange(preset);
  const storeId = params.get("store") ?? "";
  // Each new range or store is a step the Back button undoes.
  const write = (changes: ParamChanges | ((latest: URLSearchParams) => ParamChanges)) =>
    writeParams(changes, { replace: false });
  // The other end of a custom range as the URL has it now: From then To typed quickly must keep both.
  const otherEnd = (latest: URLSearchParams, key: "from" | "to") =>
    (latest.get("range") === "custom" && dayParam(latest, key)) || range[key];
  return {
    preset,
    ...range,
    storeId,
    setPreset: (value: Preset) =>
      write(
        value === "custom" ? { range: value, from: range.from, to: range.to } : { range: value, from: null, to: null },
      ),
    setFrom: (from: string) => write((latest) => ({ range: "custom", from, to: otherEnd(latest, "to") })),
    setTo: (to: string) => write((latest) => ({ range: "custom", from: otherEnd(latest, "from"), to })),
    setStoreId: (store: string) => write({ store: store || null }),
  };
}
export type AnalyticsParams = ReturnType<typeof useAnalyticsParams>;

type Scope = { from: string; to: string; storeId: string };
const queryOf = (scope: Scope, extra: Record<string, string> = {}) => ({
  from: scope.from,
  to: scope.to,
  store_id: scope.storeId || undefined,
  ...extra,
});

export const analyticsKeys = {
  all: ["analytics"] as const,
  table: (table: AnalyticsTable, scope: Scope) => [...analyticsKeys.all, table, scope] as const,
};

const SCHEMAS = {
  summary: analyticsSummarySchema,
  revenue: analyticsRevenueSchema,
  "sessions-by-hour": z.array(analyticsHourSchema),
  "top-products": z.array(analyticsTopProductSchema),
  "top-categories": z.array(analyticsTopCategorySchema),
  refunds: z.array(analyticsRefundDaySchema),
} as const;

type Tables = { [K in AnalyticsTable]: z.infer<(typeof SCHEMAS)[K]> };

/** One table of the screen for the range and store in view. */
export function useAnalytics<T extends AnalyticsTable>(table: T, scope: Scope): UseQueryResult<Tables[T]> {
  return useQuery({
    queryKey: analyticsKeys.table(table, scope),
    queryFn: ({ signal }) =>
      api.get(`/api/v1/admin/analytics/${table}`, SCHEMAS[table] as unknown as z.ZodType<Tables[T]>, {
        query: queryOf(scope),
        signal,
      }),
    placeholderData: (previous) => previous,
  });
}

/** Where "Export CSV" downloads a table from: the same call with format=csv. */
export function csvHref(table: AnalyticsTable, scope: Scope): string {
  return apiUrl(`/api/v1/admin/analytics/${table}`, queryOf(scope, { format: "csv" }));
}
