import { z } from "zod";
import { parseBarcode } from "./barcodes.ts";
import { NET_CONTENT_UNITS } from "./comparison-price.ts";
import { comparisonPriceSchema, netContentInput, netContentUnitInput } from "./net-content.ts";
import { pantCodeSchema } from "./pant.ts";
import { type VatCategory, vatCategoryForPercent, vatCategorySchema } from "./vat.ts";

export const AGE_LIMITS = [15, 18, 20] as const;
export const PRODUCT_SORT_FIELDS = ["sku", "name", "category", "price"] as const;
export const PRODUCT_DEFAULTS = {
  vat_category: "standard",
  /** The spec's draft default of the form's VAT rate (percent): the standard category's rate. */
  vat_rate: 25,
  view_mode: "list",
  sort_field: "name",
  sort_order: "asc",
  page_size: 20,
  all_categories: "all",
} as const;
export const PRODUCT_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const PRODUCT_IMAGE_TYPES = ["image/jpeg", "image/png", "image/webp"] as const;
/** The longest text (characters) and largest numbers the API takes; the console's inputs carry the same limits. */
export const PRODUCT_LIMITS = {
  sku: 64,
  name: 200,
  description: 4000,
  category: 100,
  brand: 100,
  image_url: 1000,
  price: 10_000_000,
  /** Weight (g), length, width and height (cm). */
  measure: 1_000_000,
} as const;
const L = PRODUCT_LIMITS;

/**
 * zod 4 uses a schema's own `error` for its checks too, so a bare "Name is
 * required" there also answered a 5,000-character name. Only a missing or
 * non-text value gets these words; each check says its own.
 */
const requiredText = (label: string) => ({
  error: (issue: { input?: unknown }) =>
    issue.input === undefined || issue.input === null ? `${label} is required` : `${label} must be text`,
});
const tooLong = (label: string, max: number) => `${label} must be at most ${max} characters; shorten it`;

const text = (max: number) =>
  z.preprocess(
    (v) => (typeof v === "string" ? (v.trim() === "" ? null : v.trim()) : v),
    z.string().max(max).nullable().optional(),
  );

const decimals = (places: number) => (v: number) =>
  Math.abs(v * 10 ** places - Math.round(v * 10 ** places)) < 1e-6 * Math.max(1, Math.abs(v));

const money = z
  .number({ error: (i) => (i.input === undefined ? "Price is required" : "Price must be a number") })
  .min(0, "Price cannot be negative")
  .max(L.price, `Price must be at most ${L.price.toLocaleString("en-US")} kr`)
  .refine(decimals(2), "Price allows at most two decimals");

const barcode = z
  .string()
  .trim()
  .refine((v) => parseBarcode(v) !== null, "not a valid EAN-13, EAN-8, UPC-A, UPC-E or GTIN-14 (check digit)");

const measure = (label: string, places: number) =>
  z
    .number()
    .min(0, `${label} cannot be negative`)
    .max(L.measure, `${label} must be at most ${L.measure.toLocaleString("en-US")}`)
    .refine(decimals(places), `${label} allows at most ${places} decimals`)
    .nullable()
    .optional();

/** The fields an admin sends when adding or editing a product. */
export const productInputSchema = z.object({
  sku: z
    .string(requiredText("SKU"))
    .trim()
    .min(1, "SKU is required")
    .max(L.sku, tooLong("SKU", L.sku))
    .regex(/^[^\s,;]+$/, "SKU may not contain spaces, commas or semicolons"),
  name: z.string(requiredText("Name")).trim().min(1, "Name is required").max(L.name, tooLong("Name", L.name)),
  description: text(L.description),
  category: text(L.category),
  brand: text(L.brand),
  price: money,
  /** Which VAT rate applies; the rate itself comes from the rate table on the day of sale. */
  vat_category: vatCategorySchema.optional(),
  /**
   * Percent, for clients from before categories: without vat_category it
   * names one (productVatCategory); with it, it must be that category's rate today.
   */
  vat_rate: z
    .number()
    .min(0, "VAT rate must be between 0 and 100")
    .max(100, "VAT rate must be between 0 and 100")
    .refine(decimals(2), "VAT rate allows at most two decimals")
    .optional(),
  /** The primary barcode; empty for none. */
  barcode: z.preprocess((v) => (v === "" ? null : v), barcode.nullable().optional()),
  /** Every barcode of the product, the primary one included. */
  barcodes: z.array(barcode).max(20, "At most 20 barcodes per product").optional(),
  image_url: z.preprocess(
    (v) => (v === "" ? null : v),
    z
      .string()
      .max(L.image_url)
      .refine((v) => /^https?:\/\/\S+$/.test(v) || /^\/api\/v1\/products\/images\/[\w.-]+$/.test(v), {
        message: "image_url must be an http(s) address or an uploaded image",
      })
      .nullable()
      .optional(),
  ),
  is_active: z.boolean().optional(),
  /** Grams. */
  weight: measure("Weight", 3),
  /** Centimetres. */
  length: measure("Length", 1),
  width: measure("Width", 1),
  height: measure("Height", 1),
  /** How much the package holds, in net_content_unit; both or neither (netContentProblem). Gives the jämförpris. */
  net_content: netContentInput,
  net_content_unit: netContentUnitInput,
  /** The pant mark on the package; null or empty for none. Its amount comes from the store's country. */
  pant_code: z.preprocess((v) => (v === "" ? null : v), pantCodeSchema.nullable().optional()),
  age_limit: z
    .union([z.literal(15), z.literal(18), z.literal(20)], { error: "age_limit must be 15, 18, 20 or null" })
    .nullable()
    .optional(),
});
export type ProductInput = z.input<typeof productInputSchema>;

/**
 * The VAT category a product's input asks for, or why it cannot be had.
 * `rateToday` gives a category's home rate today in hundredths of a percent.
 * A vat_category is taken as it is, and a vat_rate beside it must be its rate
 * today. A vat_rate alone, as clients from before categories send it, keeps
 * the `current` category (an edit) when it is that category's rate today, and
 * otherwise names one: 25 standard, 12 and 6 food, 0 exempt. Neither gives
 * undefined: the default category for a new product, no change for an edit.
 */
export function productVatCategory(
  input: { vat_category?: VatCategory | undefined; vat_rate?: number | undefined },
  rateToday: (category: VatCategory) => number | null,
  current?: VatCategory,
): { category: VatCategory | undefined; error?: undefined } | { category?: undefined; error: string } {
  const { vat_category: category, vat_rate: rate } = input;
  const matches = (c: VatCategory) => rate !== undefined && rateToday(c) === Math.round(rate * 100);
  if (category !== undefined) {
    if (rate === undefined || matches(category)) return { category };
    const today = rateToday(category);
    const todayText = today === null ? "no rate today" : `${today / 100} % today`;
    return { error: `vat_rate ${rate} does not match vat_category ${category} (${todayText})` };
  }
  if (rate === undefined) return { category: undefined };
  if (current !== undefined && matches(current)) return { category: current };
  const named = vatCategoryForPercent(rate);
  if (named) return { category: named };
  return { error: `vat_rate ${rate} is not a Swedish VAT rate (25, 12, 6 or 0); send vat_category instead` };
}
export const productUpdateSchema = productInputSchema.partial();

export const productSchema = z.object({
  id: z.string(),
  sku: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  category: z.string().nullable(),
  brand: z.string().nullable(),
  /** Kronor; for weighed goods the price per kilogram. */
  price: z.number(),
  vat_category: vatCategorySchema,
  /** Percent: the category's rate today in Sweden (null while the rate table has none for it). */
  vat_rate: z.number().nullable(),
  barcode: z.string().nullable(),
  barcodes: z.array(z.string()),
  image_url: z.string().nullable(),
  is_active: z.boolean(),
  weight: z.number().nullable(),
  length: z.number().nullable(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  net_content: z.number().nullable(),
  net_content_unit: z.enum(NET_CONTENT_UNITS).nullable(),
  /** The pant mark on the package, null for none. */
  pant_code: pantCodeSchema.nullable(),
  /**
   * Jämförpris, computed from price and net content: per kg (g, kg), per litre
   * (ml, l) or per piece (st); null without a net content. In a lookup of a
   * weight label, the price per kilogram; of a price label, null.
   */
  comparison_price: comparisonPriceSchema,
  age_limit: z.number().int().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Product = z.infer<typeof productSchema>;

export const productListQuerySchema = z.object({
  search: z.string().max(200).optional(),
  category: z.string().max(100).optional(),
  sort: z.enum(PRODUCT_SORT_FIELDS).default("name"),
  order: z.enum(["asc", "desc"]).default("asc"),
  limit: z.coerce.number().int().min(1).max(1000).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

export const productIdParams = z.object({ id: z.uuid("Product id must be a UUID") });
/** GET /api/v1/products/lookup/:code: a scanned code as it was read. */
export const productCodeParams = z.object({ code: z.string().min(1).max(40) });

export const productLookupSchema = z.object({
  product: productSchema,
  /** The code as scanned. */
  code: z.string(),
  /** What a Swedish variable-measure label says, or null for an ordinary code. */
  measure: z
    .discriminatedUnion("kind", [
      z.object({ kind: z.literal("price"), price: z.number() }),
      z.object({ kind: z.literal("weight"), weight_grams: z.number() }),
    ])
    .nullable(),
  /** What one scan of this code costs: the label's price, weight × price per kg, or the product's price. */
  line_price: z.number(),
});
export type ProductLookup = z.infer<typeof productLookupSchema>;

export const importRowSchema = z.object({
  /** 1-based line in the file, counting the header as line 1. */
  line: z.number().int(),
  sku: z.string().nullable(),
  action: z.enum(["create", "update", "reject"]),
  errors: z.array(z.string()),
});
export const importReportSchema = z.object({
  dry_run: z.boolean(),
  created: z.number().int(),
  updated: z.number().int(),
  rejected: z.number().int(),
  rows: z.array(importRowSchema),
});
export type ImportReport = z.infer<typeof importReportSchema>;

/** POST /api/v1/products/import: a dry run unless dry_run=false; skip_rejected=true applies the good rows anyway. */
export const productImportQuery = z.object({
  dry_run: z
    .enum(["true", "false"])
    .default("true")
    .transform((v) => v === "true"),
  skip_rejected: z
    .enum(["true", "false"])
    .default("false")
    .transform((v) => v === "true"),
});

/** POST /api/v1/products/images: where the uploaded photo is served; a product's image_url then names it. */
export const productImageSchema = z.object({ image_url: z.string() });
export type ProductImage = z.infer<typeof productImageSchema>;

/** Columns of the CSV export and import, in order. */
export const PRODUCT_CSV_COLUMNS = [
  "sku",
  "name",
  "description",
  "category",
  "brand",
  "price",
  "vat_category",
  "vat_rate",
  "barcode",
  "barcodes",
  "image_url",
  "is_active",
  "weight",
  "length",
  "width",
  "height",
  "age_limit",
  "net_content",
  "net_content_unit",
  "pant_code",
] as const;
