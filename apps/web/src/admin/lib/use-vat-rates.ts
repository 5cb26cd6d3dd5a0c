// The VAT table as the console reads and changes it: the Pricing screen keeps it, the product form shows its rates.
import { type VatRateInput, vatRateListSchema, vatRateSchema } from "@glide/contracts";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../lib/api.ts";

export const vatRateKeys = {
  all: ["vat-rates"] as const,
  lists: () => [...vatRateKeys.all, "list"] as const,
  list: (country: string) => [...vatRateKeys.lists(), country] as const,
};

const ratesPath = "/api/v1/vat-rates";
const ratePath = (id: string) => `${ratesPath}/${encodeURIComponent(id)}`;

/** One country's periods, with the server's today (which periods are current). */
export function useVatRates(country: string) {
  return useQuery({
    queryKey: vatRateKeys.list(country),
    queryFn: ({ signal }) => api.get(ratesPath, vatRateListSchema, { query: { country }, signal }),
    // Another country keeps the last one on screen, dimmed, until it answers.
    placeholderData: keepPreviousData,
  });
}

/** A change may move a period from one country to another (an edit): every country's list is read again. */
function useInvalidateVatRates() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: vatRateKeys.lists() });
}

export function useCreateVatRate() {
  const invalidate = useInvalidateVatRates();
  return useMutation({
    mutationFn: (input: VatRateInput) => api.post(ratesPath, input, vatRateSchema),
    onSuccess: invalidate,
  });
}

export function useUpdateVatRate() {
  const invalidate = useInvalidateVatRates();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: VatRateInput }) => api.put(ratePath(id), input, vatRateSchema),
    onSuccess: invalidate,
  });
}

export function useDeleteVatRate() {
  const invalidate = useInvalidateVatRates();
  return useMutation({
    mutationFn: (id: string) => api.send("DELETE", ratePath(id)),
    onSettled: invalidate,
  });
}
