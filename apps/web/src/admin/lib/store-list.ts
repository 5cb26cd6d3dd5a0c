import { storeSchema } from "@glide/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api } from "../../lib/api.ts";

/**
 * The admin's store list and its query keys. Stores, settings (the override
 * picker), cameras and the list filters all read it, so it lives below them
 * all: a store feature that read settings and a settings feature that read
 * stores would import each other.
 */
export const storeKeys = {
  all: ["stores"] as const,
  lists: () => [...storeKeys.all, "list"] as const,
  list: (search: string) => [...storeKeys.lists(), { search }] as const,
};

const storeListSchema = storeSchema.array();

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
