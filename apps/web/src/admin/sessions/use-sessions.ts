import { sessionDetailSchema, type sessionListQuerySchema, sessionRowSchema } from "@glide/contracts";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import type { z } from "zod";
import { api } from "../../lib/api.ts";
import type { SessionsLiveEvent } from "./use-sessions-live.ts";

export const sessionKeys = {
  all: ["admin-sessions"] as const,
  lists: () => [...sessionKeys.all, "list"] as const,
  list: (query: SessionListQuery) => [...sessionKeys.lists(), query] as const,
  detail: (id: string) => [...sessionKeys.all, "detail", id] as const,
};

export type SessionListQuery = Partial<z.output<typeof sessionListQuerySchema>>;

const sessionListSchema = sessionRowSchema.array();

/** One page of visits, newest entry first; the number of all matches (up to a limit) comes in X-Total-Count. */
export function useSessionList(query: SessionListQuery) {
  return useQuery({
    queryKey: sessionKeys.list(query),
    queryFn: async ({ signal }) => {
      const { data, headers } = await api.getWithHeaders("/api/v1/admin/sessions", sessionListSchema, {
        signal,
        query,
      });
      const total = headers.get("X-Total-Count");
      return {
        items: data,
        total: total === null ? data.length : Number(total),
        // Past SESSIONS_COUNT_LIMIT the server stops counting: "10,000+ sessions".
        capped: headers.get("X-Total-Count-Capped") === "true",
      };
    },
    // Keep the rows while the next filter or page answers instead of flashing empty.
    placeholderData: keepPreviousData,
  });
}

/** One visit with its timeline, cart, order, refunds, disputes and spot check. */
export function useSessionDetail(id: string | null) {
  return useQuery({
    queryKey: sessionKeys.detail(id ?? ""),
    queryFn: ({ signal }) =>
      api.get(`/api/v1/admin/sessions/${encodeURIComponent(id ?? "")}`, sessionDetailSchema, { signal }),
    enabled: id !== null,
  });
}

/**
 * What a live event makes stale: the lists (a row appeared or changed; a
 * burst of scans refetches once per page) and the detail of that visit only.
 */
export function useSessionInvalidation() {
  const queryClient = useQueryClient();
  return useCallback(
    (event: SessionsLiveEvent | null) => {
      void queryClient.invalidateQueries({ queryKey: sessionKeys.lists() });
      void queryClient.invalidateQueries({
        queryKey: event ? sessionKeys.detail(event.session_id) : [...sessionKeys.all, "detail"],
      });
    },
    [queryClient],
  );
}
