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

export const storePriceKeys = {
  all: ["store-prices"] as const,
  store: (storeId: string) => [...storePriceKeys.all, storeId] as const,
  list: (storeId: string, query: StorePriceQuery) => [...storePriceKeys.store(storeId), "list", query] as const,
};

export const storePricesPath = (storeId: string) => `/api/v1/stores/${encodeURIComponent(storeId)}/prices`;
const storePricePath = (storeId: string, productId: string) =>
  `${storePricesPath(storeId)}/${encodeURIComponent(productId)}`;

/** One page of a store's own prices, by name, with the number of all matches (X-Total-Count). */
export function useStorePrices(storeId: string, query: StorePriceQuery) {
  return useQuery({
    queryKey: storePriceKeys.list(storeId, query),
    queryFn: async ({ signal }) => {
      const { data, headers } = await api.getWithHeaders(storePricesPath(storeId), storePriceListSchema, {
        query: { ...query, search: query.search || undefined },
        signal,
      });
      return { items: data, total: Number(headers.get("x-total-count") ?? data.length) };
    },
    enabled: storeId !== "",
    // The next page or search keeps the last one on screen, dimmed, until it answers.
    placeholderData: keepPreviousData,
  });
}

/** Only the store's lists are read again after a change. */
function useInvalidateStore() {
  const queryClient = useQueryClient();
  return (storeId: string) => queryClient.invalidateQueries({ queryKey: storePriceKeys.store(storeId) });
}

interface Override {
  storeId: string;
  productId: string;
}

export function useSetStorePrice() {
  const invalidate = useInvalidateStore();
  return useMutation({
    mutationFn: ({ storeId, productId, input }: Override & { input: StorePriceUpdate }) =>
      api.put(storePricePath(storeId, productId), input, storePriceSchema),
    onSuccess: (_saved, { storeId }) => invalidate(storeId),
  });
}

export function useRemoveStorePrice() {
  const invalidate = useInvalidateStore();
  return useMutation({
    mutationFn: ({ storeId, productId }: Override) => api.send("DELETE", storePricePath(storeId, productId)),
    onSettled: (_answer, _error, { storeId }) => invalidate(storeId),
  });
}

/** CSV import: a dry run reports each row; applying writes every row or, while one is rejected, none. */
export function useImportStorePrices() {
  const invalidate = useInvalidateStore();
  return useMutation({
    mutationFn: ({ storeId, csv, dryRun }: { storeId: string; csv: string; dryRun: boolean }) =>
      api.postRaw(
        `${storePricesPath(storeId)}/import`,
        { body: csv, contentType: "text/csv" },
        storePriceImportReportSchema,
        { dry_run: String(dryRun) },
      ),
    onSuccess: (report, { storeId }) => {
      if (!report.dry_run) void invalidate(storeId);
    },
  });
}
