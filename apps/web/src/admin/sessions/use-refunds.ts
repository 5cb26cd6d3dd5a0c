import {
  type Dispute,
  disputeSchema,
  type OrderRefunds,
  orderRefundsSchema,
  type RefundCreate,
  type RefundResult,
  refundResultSchema,
  type SpotCheck,
  type SpotCheckDecision,
  spotCheckSchema,
} from "@glide/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { api } from "../../lib/api.ts";

/** Query keys of refunds, disputes and spot checks: one factory, so a change invalidates only its own. */
export const refundKeys = {
  order: (orderId: string) => ["orders", orderId, "refunds"] as const,
  disputes: (filters: { state?: string | undefined; offset: number }) => ["disputes", filters] as const,
  allDisputes: ["disputes"] as const,
  spotChecks: (state: "pending" | "decided") => ["spot-checks", state] as const,
  allSpotChecks: ["spot-checks"] as const,
};

export function useOrderRefunds(orderId: string, enabled: boolean) {
  return useQuery<OrderRefunds>({
    queryKey: refundKeys.order(orderId),
    queryFn: ({ signal }) => api.get(`/api/v1/admin/orders/${orderId}/refunds`, orderRefundsSchema, { signal }),
    enabled,
  });
}

export function useCreateRefund(orderId: string) {
  const queryClient = useQueryClient();
  return useMutation<RefundResult, Error, RefundCreate>({
    mutationFn: (body) => api.post(`/api/v1/admin/orders/${orderId}/refunds`, body, refundResultSchema),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: refundKeys.order(orderId) }),
  });
}

export const DISPUTES_PAGE = 50;

export function useDisputes(filters: { state?: string | undefined; offset: number }) {
  return useQuery<{ items: Dispute[]; total: number }>({
    queryKey: refundKeys.disputes(filters),
    queryFn: async ({ signal }) => {
      const { data, headers } = await api.getWithHeaders("/api/v1/admin/disputes", z.array(disputeSchema), {
        signal,
        query: { state: filters.state, offset: filters.offset, limit: DISPUTES_PAGE },
      });
      return { items: data, total: Number(headers.get("x-total-count") ?? data.length) };
    },
  });
}

export function useResolveDispute() {
  const queryClient = useQueryClient();
  return useMutation<Dispute, Error, { id: string; state: "resolved" | "rejected"; resolution: string }>({
    mutationFn: ({ id, ...body }) => api.put(`/api/v1/admin/disputes/${id}`, body, disputeSchema),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: refundKeys.allDisputes }),
  });
}

export function useSpotChecks(state: "pending" | "decided") {
  return useQuery<SpotCheck[]>({
    queryKey: refundKeys.spotChecks(state),
    queryFn: ({ signal }) =>
      api.get("/api/v1/admin/spot-checks", z.array(spotCheckSchema), { signal, query: { state, limit: 100 } }),
  });
}

export function useDecideSpotCheck() {
  const queryClient = useQueryClient();
  return useMutation<SpotCheck, Error, { id: string } & SpotCheckDecision>({
    mutationFn: ({ id, ...body }) => api.put(`/api/v1/admin/spot-checks/${id}/outcome`, body, spotCheckSchema),
    // Not awaited: the reloaded list no longer holds the decided check, and its item (which says
    // "recorded") would be gone before the caller's own onSuccess ran.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: refundKeys.allSpotChecks });
    },
  });
}
