import {
  type StorePriceUpdate,
  storePriceImportReportSchema,
  storePriceListSchema,
  storePriceSchema,
} from "@glide/contracts";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../lib/api.ts";

export interface StorePriceQuery {
  search: string;
  limit: number;
  offset: number;
}

/**
 * Whose prices a list, dialog or import writes: a store's own
 * (/api/v1/stores/:id/prices) or a price group's (/api/v1/price-groups/:id/prices),
 * which the API answers alike. `noun` names one price in the words on screen.
 */
export interface PriceOwner {
  /** The prices' path, e.g. storePricesPath(id). */
  path: string;
  /** The store's or the group's name. */
  name: string;
  noun: "store price" | "group price";
}

/** Keys by the prices' path, so a change reads only that store's or group's lists again. */
export const storePriceKeys = {
  all: ["store-prices"] as const,
  owner: (path: string) => [...storePriceKeys.all, path] as const,
  list: (path: string, query: StorePriceQuery) => [...storePriceKeys.owner(path), "list", query] as const,
};

export const storePricesPath = (storeId: string) => `/api/v1/stores/${encodeURIComponent(storeId)}/prices`;
const pricePath = (path: string, productId: string) => `${path}/${encodeURIComponent(productId)}`;

/** One page of a store's (or a group's) prices, by name, with the number of all matches (X-Total-Count). */
export function useStorePrices(path: string, query: StorePriceQuery) {
  return useQuery({
    queryKey: storePriceKeys.list(path, query),
    queryFn: async ({ signal }) => {
      const { data, headers } = await api.getWithHeaders(path, storePriceListSchema, {
        query: { ...query, search: query.search || undefined },
        signal,
      });
      return { items: data, total: Number(headers.get("x-total-count") ?? data.length) };
    },
    enabled: path !== "",
    // The next page or search keeps the last one on screen, dimmed, until it answers.
    placeholderData: keepPreviousData,
  });
}

/** Only the store's (or group's) lists are read again after a change. */
function useInvalidateStore() {
  const queryClient = useQueryClient();
  return (path: string) => queryClient.invalidateQueries({ queryKey: storePriceKeys.owner(path) });
}

interface Override {
  /** The prices' path (PriceOwner.path). */
  path: string;
  productId: string;
}

export function useSetStorePrice() {
  const invalidate = useInvalidateStore();
  return useMutation({
    mutationFn: ({ path, productId, input }: Override & { input: StorePriceUpdate }) =>
      api.put(pricePath(path, productId), input, storePriceSchema),
    onSuccess: (_saved, { path }) => invalidate(path),
  });
}

export function useRemoveStorePrice() {
  const invalidate = useInvalidateStore();
  return useMutation({
    mutationFn: ({ path, productId }: Override) => api.send("DELETE", pricePath(path, productId)),
    onSettled: (_answer, _error, { path }) => invalidate(path),
  });
}

/** CSV import: a dry run reports each row; applying writes every row or, while one is rejected, none. */
export function useImportStorePrices() {
  const invalidate = useInvalidateStore();
  return useMutation({
    mutationFn: ({ path, csv, dryRun }: { path: string; csv: string; dryRun: boolean }) =>
      api.postRaw(`${path}/import`, { body: csv, contentType: "text/csv" }, storePriceImportReportSchema, {
        dry_run: String(dryRun),
      }),
    onSuccess: (report, { path }) => {
      if (!report.dry_run) void invalidate(path);
    },
  });
}
