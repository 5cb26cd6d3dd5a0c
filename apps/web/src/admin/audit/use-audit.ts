import { auditEntrySchema, auditListItemSchema, type auditListQuerySchema } from "@glide/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import { api } from "../../lib/api.ts";

export type AuditLogQuery = Partial<z.output<typeof auditListQuerySchema>>;

export const auditKeys = {
  all: ["audit"] as const,
  lists: () => [...auditKeys.all, "list"] as const,
  list: (query: AuditLogQuery) => [...auditKeys.lists(), query] as const,
  entry: (id: number) => [...auditKeys.all, "entry", id] as const,
};

const auditListSchema = auditListItemSchema.array();

/** One page of the audit log, newest first; the number of all matches comes in X-Total-Count. */
export function useAuditLog(query: AuditLogQuery) {
  return useQuery({
    queryKey: auditKeys.list(query),
    queryFn: async ({ signal }) => {
      const { data, headers } = await api.getWithHeaders("/api/v1/admin/audit", auditListSchema, { signal, query });
      const total = headers.get("X-Total-Count");
      return { items: data, total: total === null ? data.length : Number(total) };
    },
    // Keep the rows while the next search or page answers instead of flashing empty.
    placeholderData: keepPreviousData,
  });
}

/** One entry with its before and after; entries never change, so it is fetched once. */
export function useAuditEntry(id: number | null) {
  return useQuery({
    queryKey: auditKeys.entry(id ?? 0),
    queryFn: ({ signal }) => api.get(`/api/v1/admin/audit/${id}`, auditEntrySchema, { signal }),
    enabled: id !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });
}
