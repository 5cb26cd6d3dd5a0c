import {
  type MultiBuyOfferInput,
  type multiBuyOfferListQuerySchema,
  multiBuyOfferListSchema,
  multiBuyOfferSchema,
} from "@glide/contracts";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { api } from "../../lib/api.ts";

export type OfferListQuery = Partial<z.output<typeof multiBuyOfferListQuerySchema>>;

export const offerKeys = {
  all: ["offers"] as const,
  lists: () => [...offerKeys.all, "list"] as const,
  list: (query: OfferListQuery) => [...offerKeys.lists(), query] as const,
};

const offersPath = "/api/v1/offers";
const offerPath = (id: string) => `${offersPath}/${encodeURIComponent(id)}`;

/** One page of offers, the latest first day first; the number of all matches comes in X-Total-Count. */
export function useOffers(query: OfferListQuery) {
  return useQuery({
    queryKey: offerKeys.list(query),
    queryFn: async ({ signal }) => {
      const { data, headers } = await api.getWithHeaders(offersPath, multiBuyOfferListSchema, { signal, query });
      const total = headers.get("X-Total-Count");
      return { items: data, total: total === null ? data.length : Number(total) };
    },
    // Keep the rows while the next filter or page answers instead of flashing empty.
    placeholderData: keepPreviousData,
  });
}

/** A change may move an offer between stores, statuses and pages: every list is read again. */
function useInvalidateOffers() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: offerKeys.lists() });
}

export function useCreateOffer() {
  const invalidate = useInvalidateOffers();
  return useMutation({
    mutationFn: (input: MultiBuyOfferInput) => api.post(offersPath, input, multiBuyOfferSchema),
    onSuccess: invalidate,
  });
}

export function useUpdateOffer() {
  const invalidate = useInvalidateOffers();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: MultiBuyOfferInput }) =>
      api.put(offerPath(id), input, multiBuyOfferSchema),
    onSuccess: invalidate,
  });
}

export function useDeleteOffer() {
  const invalidate = useInvalidateOffers();
  return useMutation({
    mutationFn: (id: string) => api.send("DELETE", offerPath(id)),
    onSettled: invalidate,
  });
}
