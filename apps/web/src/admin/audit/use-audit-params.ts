import { AUDIT_PAGE_SIZE, PAGE_SIZES } from "@glide/contracts";
import { useListParams } from "../../lib/use-list-params.ts";
import { dayParam } from "../../lib/use-url-params.ts";

/** The console's usual page sizes; the largest is the API's limit. */
export const AUDIT_PAGE_SIZES: readonly number[] = PAGE_SIZES;

/** The audit log's search, action filter, date range, page and page size, kept in the URL (?search=&action=&from=&to=&page=&size=). */
export function useAuditParams() {
  const { params, write, setFilter, clearFilters, ...list } = useListParams(AUDIT_PAGE_SIZES, AUDIT_PAGE_SIZE.default);
  return {
    ...list,
    action: params.get("action") ?? "",
    /** Days (YYYY-MM-DD) in the admin's own calendar, or "". */
    from: dayParam(params, "from"),
    to: dayParam(params, "to"),
    setAction: (value: string) => setFilter("action", value),
    setFrom: (value: string) => setFilter("from", value),
    setTo: (value: string) => setFilter("to", value),
    clearFilters: () => clearFilters(["action", "from", "to"]),
  };
}

/** The first moment of a local day, as the API's ISO time. */
export const startOfDay = (day: string) => new Date(`${day}T00:00:00`).toISOString();
/** The last millisecond of a local day: the API takes a time `to` inclusive. */
export const endOfDay = (day: string) => new Date(`${day}T23:59:59.999`).toISOString();
