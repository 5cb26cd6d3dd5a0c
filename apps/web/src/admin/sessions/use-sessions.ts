import {
  type SessionDetail,
  type SessionWriteOff,
  sessionDetailSchema,
  type sessionListQuerySchema,
  sessionRowSchema,
} from "@glide/contracts";
import { keepPreviousData, type QueryClient, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import type { z } from "zod";
import { ApiError, api } from "../../lib/api.ts";
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

/**
 * What settling a visit left unpaid changes: its detail (the answer is the
 * visit as it now is, so it is put in place rather than fetched again) and
 * the lists its row is on. A refusal other than a bad field may still have
 * moved the visit (a declined charge is on its timeline; another member of
 * staff may have settled it first), so the detail is read again then.
 */
function settles(queryClient: QueryClient, id: string) {
  return {
    onSuccess: async (detail: SessionDetail) => {
      // A read the live feed started while the charge ran would answer an older state over this one.
      await queryClient.cancelQueries({ queryKey: sessionKeys.detail(id) });
      queryClient.setQueryData(sessionKeys.detail(id), detail);
      void queryClient.invalidateQueries({ queryKey: sessionKeys.lists() });
    },
    onError: (error: Error) => {
      if (error instanceof ApiError && error.status === 422) return;
      void queryClient.invalidateQueries({ queryKey: sessionKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: sessionKeys.lists() });
    },
  };
}

/** Staff charge the card on file for a visit left unpaid (exactly once on the server, however often pressed). */
export function useChargeUnpaid(id: string) {
  const queryClient = useQueryClient();
  return useMutation<SessionDetail, Error, void>({
    mutationFn: () =>
      api.post(`/api/v1/admin/sessions/${encodeURIComponent(id)}/charge`, undefined, sessionDetailSchema),
    ...settles(queryClient, id),
  });
}

/** Staff write the goods of a visit left unpaid off, with a reason; nothing is charged. */
export function useWriteOffUnpaid(id: string) {
  const queryClient = useQueryClient();
  return useMutation<SessionDetail, Error, SessionWriteOff>({
    mutationFn: (body) =>
      api.post(`/api/v1/admin/sessions/${encodeURIComponent(id)}/write-off`, body, sessionDetailSchema),
    ...settles(queryClient, id),
  });
}

/**
 * Staff open the exit gate for a shopper inside who cannot pay: the visit is
 * left unpaid (or ends, with an empty cart) and the answer is the visit as it
 * now is. A refusal (no longer inside, a charge under way, a gate that did
 * not open) may mean the visit moved, so it is read again.
 */
export function useLetOut(id: string) {
  const queryClient = useQueryClient();
  return useMutation<SessionDetail, Error, void>({
    mutationFn: () =>
      api.post(`/api/v1/admin/sessions/${encodeURIComponent(id)}/let-out`, undefined, sessionDetailSchema),
    ...settles(queryClient, id),
  });
}
