import { importReportSchema, type ProductInput, type productListQuerySchema, productSchema } from "@glide/contracts";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { api } from "../../lib/api.ts";
import { resetDashboard } from "../dashboard/use-dashboard.ts";

export type ProductListQuery = z.output<typeof productListQuerySchema>;

export const productKeys = {
  all: ["products"] as const,
  lists: () => [...productKeys.all, "list"] as const,
  list: (query: ProductListQuery) => [...productKeys.lists(), query] as const,
  categories: () => [...productKeys.all, "categories"] as const,
};

const productListSchema = productSchema.array();
const categoriesSchema = z.array(z.string());
const uploadedImageSchema = z.object({ image_url: z.string() });
const productPath = (id: string) => `/api/v1/products/${encodeURIComponent(id)}`;

/** One page of GET /api/v1/products/; the number of all matches comes in X-Total-Count. */
export function useProducts(query: ProductListQuery) {
  return useQuery({
    queryKey: productKeys.list(query),
    queryFn: async ({ signal }) => {
      const { data, headers } = await api.getWithHeaders("/api/v1/products/", productListSchema, { signal, query });
      const total = headers.get("X-Total-Count");
      return { items: data, total: total === null ? data.length : Number(total) };
    },
    // Keep the rows while the next search or page answers instead of flashing empty.
    placeholderData: keepPreviousData,
  });
}

export function useCategories() {
  return useQuery({
    queryKey: productKeys.categories(),
    queryFn: ({ signal }) => api.get("/api/v1/products/categories", categoriesSchema, { signal }),
  });
}

/**
 * What a product change moves: the lists, the category filter (a new or last use of a
 * category) and, when the number of products changes, the dashboard's count.
 */
function useInvalidateProducts() {
  const queryClient = useQueryClient();
  return (countChanged: boolean) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: productKeys.lists() }),
      queryClient.invalidateQueries({ queryKey: productKeys.categories() }),
      countChanged ? resetDashboard(queryClient) : undefined,
    ]);
}

export function useCreateProduct() {
  const invalidate = useInvalidateProducts();
  return useMutation({
    mutationFn: (input: ProductInput) => api.post("/api/v1/products/", input, productSchema),
    onSuccess: () => invalidate(true),
  });
}

export function useUpdateProduct() {
  const invalidate = useInvalidateProducts();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: Partial<ProductInput> }) =>
      api.put(productPath(id), input, productSchema),
    onSuccess: () => invalidate(false),
  });
}

export function useDeleteProduct() {
  const invalidate = useInvalidateProducts();
  return useMutation({
    mutationFn: (id: string) => api.send("DELETE", productPath(id)),
    onSuccess: () => invalidate(true),
  });
}

/** Stores the photo on the server and answers its image_url, to be saved with the product. */
export function useUploadProductImage() {
  return useMutation({
    mutationFn: async (file: File) => {
      const { image_url } = await api.postRaw(
        "/api/v1/products/images",
        { body: file, contentType: file.type },
        uploadedImageSchema,
      );
      return image_url;
    },
  });
}

export interface ImportRequest {
  csv: string;
  dryRun: boolean;
  skipRejected?: boolean;
}

/** CSV import: a dry run reports each row; applying writes all good rows in one transaction. */
export function useImportProducts() {
  const invalidate = useInvalidateProducts();
  return useMutation({
    mutationFn: ({ csv, dryRun, skipRejected = false }: ImportRequest) =>
      api.postRaw("/api/v1/products/import", { body: csv, contentType: "text/csv" }, importReportSchema, {
        dry_run: dryRun,
        skip_rejected: skipRejected,
      }),
    onSuccess: (report) => (report.dry_run ? undefined : invalidate(true)),
  });
}
