import { z } from "zod";

/** One field that broke a rule: `path` as the form names it ("settings.vat_rate"), `message` in words. */
export const fieldErrorSchema = z.object({
  path: z.string(),
  message: z.string(),
});
export type FieldError = z.infer<typeof fieldErrorSchema>;

/**
 * Every error the API sends has this shape (ARCHITECTURE.md §4). Validation
 * errors also list each field, so a form can mark it.
 */
export const errorSchema = z.object({
  detail: z.string(),
  code: z.string(),
  errors: z.array(fieldErrorSchema).optional(),
});
export type ApiError = z.infer<typeof errorSchema>;
