import { z } from "zod";

/** Every error the API sends has this shape (ARCHITECTURE.md §4). */
export const errorSchema = z.object({
  detail: z.string(),
  code: z.string(),
});
export type ApiError = z.infer<typeof errorSchema>;
