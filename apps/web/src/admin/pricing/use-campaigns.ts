import { type CampaignInput, type campaignListQuerySchema, campaignListSchema, campaignSchema } from "@glide/contracts";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { api } from "../../lib/api.ts";

export type CampaignListQuery = Partial<z.output<typeof campaignListQuerySchema>>;

export const campaignKeys = {
  all: ["campaigns"] as const,
  lists: () => [...campaignKeys.all, "list"] as const,
  list: (query: CampaignListQuery) => [...campaignKeys.lists(), query] as const,
};

const campaignsPath = "/api/v1/campaigns";
const campaignPath = (id: string) => `${campaignsPath}/${encodeURIComponent(id)}`;

/** One page of campaigns, the latest first day first; the number of all matches comes in X-Total-Count. */
export function useCampaigns(query: CampaignListQuery) {
  return useQuery({
    queryKey: campaignKeys.list(query),
    queryFn: async ({ signal }) => {
      const { data, headers } = await api.getWithHeaders(campaignsPath, campaignListSchema, { signal, query });
      const total = headers.get("X-Total-Count");
      return { items: data, total: total === null ? data.length : Number(total) };
    },
    // Keep the rows while the next filter or page answers instead of flashing empty.
    placeholderData: keepPreviousData,
  });
}

/** A change may move a campaign between stores, statuses and pages: every list is read again. */
function useInvalidateCampaigns() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: campaignKeys.lists() });
}

export function useCreateCampaign() {
  const invalidate = useInvalidateCampaigns();
  return useMutation({
    mutationFn: (input: CampaignInput) => api.post(campaignsPath, input, campaignSchema),
    onSuccess: invalidate,
  });
}

export function useUpdateCampaign() {
  const invalidate = useInvalidateCampaigns();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: CampaignInput }) =>
      api.put(campaignPath(id), input, campaignSchema),
    onSuccess: invalidate,
  });
}

export function useDeleteCampaign() {
  const invalidate = useInvalidateCampaigns();
  return useMutation({
    mutationFn: (id: string) => api.send("DELETE", campaignPath(id)),
    onSettled: invalidate,
  });
}
