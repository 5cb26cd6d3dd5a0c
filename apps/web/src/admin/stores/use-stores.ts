import { type StoreInput, storeSchema } from "@glide/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../lib/api.ts";
import { resetDashboard } from "../dashboard/use-dashboard.ts";
import { storeKeys } from "../lib/store-list.ts";

const storePath = (id: string) => `/api/v1/stores/${encodeURIComponent(id)}`;

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
