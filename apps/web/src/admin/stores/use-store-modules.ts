import { type StoreModule, storeModuleSchema } from "@glide/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../lib/api.ts";
import { resetDashboard } from "../dashboard/use-dashboard.ts";
import { storeKeys } from "../lib/store-list.ts";

export const storeModuleKeys = {
  all: ["store-modules"] as const,
  list: (storeId: string) => [...storeModuleKeys.all, storeId] as const,
};

const modulesPath = (storeId: string) => `/api/v1/stores/${encodeURIComponent(storeId)}/modules`;

export function useStoreModules(storeId: string) {
  return useQuery({
    queryKey: storeModuleKeys.list(storeId),
    queryFn: ({ signal }) => api.get(modulesPath(storeId), storeModuleSchema.array(), { signal }),
  });
}

/** Enables or disables one module, then updates the list in place; counts elsewhere are refetched. */
export function useToggleStoreModule(storeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ moduleId, enabled }: { moduleId: string; enabled: boolean }) =>
      api.post(
        `${modulesPath(storeId)}/${encodeURIComponent(moduleId)}`,
        { module_id: moduleId, enabled },
        storeModuleSchema,
      ),
    onSuccess: (updated) => {
      queryClient.setQueryData<StoreModule[]>(storeModuleKeys.list(storeId), (modules) =>
        modules?.map((module) => (module.module_id === updated.module_id ? updated : module)),
      );
      void queryClient.invalidateQueries({ queryKey: storeKeys.lists() });
      void resetDashboard(queryClient);
    },
  });
}
