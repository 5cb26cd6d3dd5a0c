import { type StoreInput, storeSchema } from "@glide/contracts";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../lib/api.ts";
import { resetDashboard } from "../dashboard/use-dashboard.ts";

export const storeKeys = {
  all: ["stores"] as const,
  lists: () => [...storeKeys.all, "list"] as const,
  list: (search: string) => [...storeKeys.lists(), { search }] as const,
};

const storeListSchema = storeSchema.array();
const storePath = (id: string) => `/api/v1/stores/${encodeURIComponent(id)}`;

/** GET /api/v1/stores/?search=… (the server matches name, city, organization number and email). */
export function useStores(search: string) {
  const term = search.trim();
  return useQuery({
    queryKey: storeKeys.list(term),
    queryFn: ({ signal }) => api.get("/api/v1/stores/", storeListSchema, { signal, query: { search: term } }),
    // Keep the grid while the next search answers instead of flashing "Loading stores...".
    placeholderData: keepPreviousData,
  });
}

/** Store changes move the dashboard's counts too. */
function useInvalidateStores() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: storeKeys.lists() }), resetDashboard(queryClient)]);
}

export function useCreateStore() {
  const invalidate = useInvalidateStores();
  return useMutation({
    mutationFn: (input: StoreInput) => api.post("/api/v1/stores/", input, storeSchema),
    onSuccess: invalidate,
  });
}

export function useUpdateStore() {
  const invalidate = useInvalidateStores();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: Partial<StoreInput> }) =>
      api.put(storePath(id), input, storeSchema),
    onSuccess: invalidate,
  });
}

export interface BulkResult {
  succeeded: number;
  failed: unknown[];
}

async function settleAll(tasks: Promise<unknown>[]): Promise<BulkResult> {
  const results = await Promise.allSettled(tasks);
  const failed = results.flatMap((result) => (result.status === "rejected" ? [result.reason] : []));
  return { succeeded: results.length - failed.length, failed };
}

/** Deletes one or many stores, one DELETE each, in parallel. */
export function useDeleteStores() {
  const invalidate = useInvalidateStores();
  return useMutation({
    mutationFn: (ids: string[]) => settleAll(ids.map((id) => api.send("DELETE", storePath(id)))),
    onSettled: invalidate,
  });
}

/** Bulk Activate / Deactivate: one PUT {is_active} per store, in parallel. */
export function useSetStoresActive() {
  const invalidate = useInvalidateStores();
  return useMutation({
    mutationFn: ({ ids, isActive }: { ids: string[]; isActive: boolean }) =>
      settleAll(ids.map((id) => api.put(storePath(id), { is_active: isActive }, storeSchema))),
    onSettled: invalidate,
  });
}
