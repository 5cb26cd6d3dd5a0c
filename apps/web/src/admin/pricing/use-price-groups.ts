import { type PriceGroupInput, priceGroupListSchema, priceGroupSchema, storePriceGroupSchema } from "@glide/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../lib/api.ts";

/** Price groups and the stores in them; a group's prices go through use-store-prices.ts (PriceOwner). */
export const priceGroupKeys = { all: ["price-groups"] as const };

const groupsPath = "/api/v1/price-groups";
const groupPath = (id: string) => `${groupsPath}/${encodeURIComponent(id)}`;
export const priceGroupPricesPath = (id: string) => `${groupPath(id)}/prices`;

/** Every group the admin sees, by name, with its stores and number of prices. */
export function usePriceGroups() {
  return useQuery({
    queryKey: priceGroupKeys.all,
    queryFn: ({ signal }) => api.get(groupsPath, priceGroupListSchema, { signal }),
  });
}

function useInvalidateGroups() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: priceGroupKeys.all });
}

/** Creates a group (id absent) or renames one. */
export function useSavePriceGroup() {
  const invalidate = useInvalidateGroups();
  return useMutation({
    mutationFn: ({ id, input }: { id?: string | undefined; input: PriceGroupInput }) =>
      id ? api.put(groupPath(id), input, priceGroupSchema) : api.post(groupsPath, input, priceGroupSchema),
    onSuccess: () => invalidate(),
  });
}

export function useDeletePriceGroup() {
  const invalidate = useInvalidateGroups();
  return useMutation({
    mutationFn: (id: string) => api.send("DELETE", groupPath(id)),
    onSettled: () => invalidate(),
  });
}

/** Puts a store in a group, or takes it out (null). */
export function useAssignPriceGroup() {
  const invalidate = useInvalidateGroups();
  return useMutation({
    mutationFn: ({ storeId, groupId }: { storeId: string; groupId: string | null }) =>
      api.put(
        `/api/v1/stores/${encodeURIComponent(storeId)}/price-group`,
        { price_group_id: groupId },
        storePriceGroupSchema,
      ),
    onSettled: () => invalidate(),
  });
}
