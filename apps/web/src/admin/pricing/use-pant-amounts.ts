import { type PantAmountUpdate, type PantCode, pantAmountListSchema, pantAmountSchema } from "@glide/contracts";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../lib/api.ts";

export const pantAmountKeys = {
  all: ["pant-amounts"] as const,
  lists: () => [...pantAmountKeys.all, "list"] as const,
  list: (country: string) => [...pantAmountKeys.lists(), country] as const,
};

const amountsPath = "/api/v1/pant-amounts";
const amountPath = (country: string, code: PantCode) =>
  `${amountsPath}/${encodeURIComponent(country)}/${encodeURIComponent(code)}`;

/** Every mark's amount in one country; null for a mark it has no pant for. */
export function usePantAmounts(country: string) {
  return useQuery({
    queryKey: pantAmountKeys.list(country),
    queryFn: ({ signal }) => api.get(amountsPath, pantAmountListSchema, { query: { country }, signal }),
    // Another country keeps the last one on screen, dimmed, until it answers.
    placeholderData: keepPreviousData,
  });
}

/** The country's list is read again after a change. */
function useInvalidatePantAmounts() {
  const queryClient = useQueryClient();
  return (country: string) => queryClient.invalidateQueries({ queryKey: pantAmountKeys.list(country) });
}

interface Mark {
  country: string;
  code: PantCode;
}

export function useSetPantAmount() {
  const invalidate = useInvalidatePantAmounts();
  return useMutation({
    mutationFn: ({ country, code, input }: Mark & { input: PantAmountUpdate }) =>
      api.put(amountPath(country, code), input, pantAmountSchema),
    onSuccess: (_saved, { country }) => invalidate(country),
  });
}

export function useRemovePantAmount() {
  const invalidate = useInvalidatePantAmounts();
  return useMutation({
    mutationFn: ({ country, code }: Mark) => api.send("DELETE", amountPath(country, code)),
    onSettled: (_answer, _error, { country }) => invalidate(country),
  });
}
