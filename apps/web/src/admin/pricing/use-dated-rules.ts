import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { api } from "../../lib/api.ts";

/** A list's filters and page as the URL's query takes them. */
type ListQuery = Record<string, string | number | boolean | null | undefined>;

/** Where a kind of dated rule lives in the API and what its answers look like. */
interface DatedRuleApi<Rule> {
  /** The query key's first part, e.g. "campaigns". */
  key: string;
  /** The collection's path, e.g. "/api/v1/campaigns". */
  path: string;
  schema: z.ZodType<Rule>;
  listSchema: z.ZodType<Rule[]>;
}

/**
 * The Campaigns and Offers tabs read and write their rules alike: one page of
 * a filtered list with its total, and create, update and delete, each of
 * which reads every list again. One set of hooks a kind, made here once.
 */
export function datedRuleHooks<Rule, Input, Query extends ListQuery>({
  key,
  path,
  schema,
  listSchema,
}: DatedRuleApi<Rule>) {
  const keys = {
    all: [key] as const,
    lists: () => [...keys.all, "list"] as const,
    list: (query: Query) => [...keys.lists(), query] as const,
  };
  const pathOf = (id: string) => `${path}/${encodeURIComponent(id)}`;

  /** One page of rules, the latest first day first; the number of all matches comes in X-Total-Count. */
  function useList(query: Query) {
    return useQuery({
      queryKey: keys.list(query),
      queryFn: async ({ signal }) => {
        const { data, headers } = await api.getWithHeaders(path, listSchema, { signal, query });
        const total = headers.get("X-Total-Count");
        return { items: data, total: total === null ? data.length : Number(total) };
      },
      // Keep the rows while the next filter or page answers instead of flashing empty.
      placeholderData: keepPreviousData,
    });
  }

  /** A change may move a rule between stores, statuses and pages: every list is read again. */
  function useInvalidate() {
    const queryClient = useQueryClient();
    return () => queryClient.invalidateQueries({ queryKey: keys.lists() });
  }

  function useCreate() {
    const invalidate = useInvalidate();
    return useMutation({
      mutationFn: (input: Input) => api.post(path, input, schema),
      onSuccess: invalidate,
    });
  }

  function useUpdate() {
    const invalidate = useInvalidate();
    return useMutation({
      mutationFn: ({ id, input }: { id: string; input: Input }) => api.put(pathOf(id), input, schema),
      onSuccess: invalidate,
    });
  }

  function useDelete() {
    const invalidate = useInvalidate();
    return useMutation({
      mutationFn: (id: string) => api.send("DELETE", pathOf(id)),
      onSettled: invalidate,
    });
  }

  return { keys, useList, useCreate, useUpdate, useDelete };
}
