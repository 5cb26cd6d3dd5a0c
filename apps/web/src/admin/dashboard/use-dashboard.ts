import { dashboardStatsSchema } from "@glide/contracts";
import { type QueryClient, useQuery } from "@tanstack/react-query";
import { api } from "../../lib/api.ts";

export const dashboardKeys = {
  all: ["dashboard"] as const,
  stats: () => [...dashboardKeys.all, "stats"] as const,
};

/**
 * Store and module changes move the platform totals. The cached figures are dropped rather
 * than marked stale, so the dashboard never shows the old numbers while it refetches.
 */
export function resetDashboard(queryClient: QueryClient): Promise<void> {
  return queryClient.resetQueries({ queryKey: dashboardKeys.all });
}

export function useDashboardStats() {
  return useQuery({
    queryKey: dashboardKeys.stats(),
    queryFn: ({ signal }) => api.get("/api/v1/admin/dashboard", dashboardStatsSchema, { signal }),
  });
}
