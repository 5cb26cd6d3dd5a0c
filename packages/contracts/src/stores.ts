import { z } from "zod";
import { COUNTRY_CODES, CURRENCIES, LANGUAGES, STORE_DEFAULTS, TIMEZONES } from "./constants.ts";

/** The longest text (characters) and largest size the API takes; the console's inputs carry the same limits. */
export const STORE_LIMITS = {
  name: 200,
  legal_name: 200,
  organization_number: 20,
  vat_number: 20,
  store_type: 50,
  description: 2000,
  address: 200,
  city: 100,
  postal_code: 20,
  phone: 50,
  email: 200,
  website: 300,
  contact_person: 200,
  contact_title: 100,
  size_sqm: 1_000_000,
} as const;
const L = STORE_LIMITS;

/** Form fields arrive as "" when left empty; the API stores that as null. */
const optionalText = (max: number) =>
  z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? null : typeof v === "string" ? v.trim() : v),
    z.string().max(max).nullable().optional(),
  );

const vatRate = z
  .number()
  .min(0, "VAT rate must be between 0 and 100 %")
  .max(1, "VAT rate must be between 0 and 100 %")
  .refine((v) => Math.abs(v * 10000 - Math.round(v * 10000)) < 1e-6, {
    message: "VAT rate allows at most two decimals of a percent",
  });

export const storeSettingsInputSchema = z.object({
  language: z.enum(Object.keys(LANGUAGES) as [keyof typeof LANGUAGES]).optional(),
  currency: z.enum(CURRENCIES).optional(),
  vat_rate: vatRate.optional(),
});

/** Fields a client may send when creating or editing a store. */
export const storeInputSchema = z.object({
  name: z.string().trim().min(1, "Store name is required").max(L.name),
  legal_name: optionalText(L.legal_name),
  organization_number: optionalText(L.organization_number),
  vat_number: optionalText(L.vat_number),
  store_type: optionalText(L.store_type),
  // The spec's size is an integer: 12.7 is refused with a reason rather than cut to 12.
  size_sqm: z
    .number({ error: "Size must be a number of square metres" })
    .int({
      error: (issue) =>
        typeof issue.input === "number" && Number.isFinite(issue.input)
          ? `Size must be a whole number of square metres: round ${issue.input} to ${Math.round(issue.input)}`
          : "Size must be a whole number of square metres",
    })
    .min(0, "Size cannot be negative")
    .max(L.size_sqm, `Size must be at most ${L.size_sqm.toLocaleString("en-US")} square metres`)
    .nullable()
    .optional(),
  description: optionalText(L.description),
  address: optionalText(L.address),
  city: optionalText(L.city),
  postal_code: optionalText(L.postal_code),
  country: z.enum(COUNTRY_CODES as [string, ...string[]]).optional(),
  timezone: z.enum(Object.keys(TIMEZONES) as [keyof typeof TIMEZONES]).optional(),
  phone: optionalText(L.phone),
  email: z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? null : typeof v === "string" ? v.trim() : v),
    z.email("Email must be a valid e-mail address, e.g. name@example.se").max(L.email).nullable().optional(),
  ),
  website: z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? null : typeof v === "string" ? v.trim() : v),
    z
      .url({ protocol: /^https?$/, error: "Website must be a web address starting with https:// or http://" })
      .max(L.website)
      .nullable()
      .optional(),
  ),
  contact_person: optionalText(L.contact_person),
  contact_title: optionalText(L.contact_title),
  is_active: z.boolean().optional(),
  settings: storeSettingsInputSchema.optional(),
});
export type StoreInput = z.input<typeof storeInputSchema>;

export const storeCreateSchema = storeInputSchema;
/** PUT accepts any subset, e.g. only `is_active` for the bulk actions. */
export const storeUpdateSchema = storeInputSchema.partial();

export const storeSchema = z.object({
  id: z.string(),
  name: z.string(),
  legal_name: z.string().nullable(),
  organization_number: z.string().nullable(),
  vat_number: z.string().nullable(),
  store_type: z.string().nullable(),
  size_sqm: z.number().int().nullable(),
  description: z.string().nullable(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  postal_code: z.string().nullable(),
  country: z.string(),
  timezone: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  website: z.string().nullable(),
  contact_person: z.string().nullable(),
  contact_title: z.string().nullable(),
  is_active: z.boolean(),
  created_at: z.string(),
  settings: z.object({
    language: z.string(),
    currency: z.string(),
    vat_rate: z.number(),
    modules: z.record(z.string(), z.object({ enabled: z.boolean() })),
  }),
  custom_settings: z.record(z.string(), z.record(z.string(), z.unknown())),
});
export type Store = z.infer<typeof storeSchema>;

export const storeModuleSchema = z.object({
  module_id: z.string(),
  name: z.string(),
  description: z.string(),
  category: z.string(),
  /** Kronor per month. */
  price_per_month: z.number(),
  enabled: z.boolean(),
});
export type StoreModule = z.infer<typeof storeModuleSchema>;

export const storeModuleUpdateSchema = z.object({
  module_id: z.string().optional(),
  enabled: z.boolean(),
});

/** GET /api/v1/stores/: the search and the page; without limit every store the admin may see. */
export const storeListQuery = z.object({
  search: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  offset: z.coerce.number().int().min(0).optional(),
});

export const storeIdParams = z.object({ id: z.uuid("Store id must be a UUID") });
export const storeModuleParams = storeIdParams.extend({ moduleId: z.string().min(1).max(100) });
/** DELETE /api/v1/stores/:id/device-keys/:keyId. */
export const deviceKeyParams = storeIdParams.extend({ keyId: z.uuid() });

export { STORE_DEFAULTS };
