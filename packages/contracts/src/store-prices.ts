import { z } from "zod";
import { productInputSchema } from "./products.ts";

/**
 * A store's own price for a product, over the catalogue's: a scan in the
 * store uses it. Kronor incl. VAT, per kilogram for weighed goods, like the
 * catalogue's price. Console admins who see the store read them; platform
 * admins and the store's own admins change them.
 */

/** One override: the product, its catalogue price and the store's. */
export const storePriceSchema = z.object({
  product_id: z.uuid(),
  sku: z.string(),
  name: z.string(),
  /** Kronor: the product's own price, which the store's replaces. */
  catalogue_price: z.number(),
  /** Kronor: what a scan in this store costs. */
  price: z.number(),
  updated_at: z.string(),
});
export type StorePrice = z.infer<typeof storePriceSchema>;

/** GET /api/v1/stores/:id/prices answers an array sorted by name; the total is in X-Total-Count. */
export const storePriceListSchema = z.array(storePriceSchema);

/** GET /api/v1/stores/:id/prices: search matches name or SKU; limit and offset page through, as other lists do. */
export const storePriceListQuerySchema = z.object({
  search: z.string().max(200, "search is too long").optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

export const storePricesParams = z.object({ id: z.uuid("Store id must be a UUID") });
export const storePriceParams = storePricesParams.extend({ productId: z.uuid("Product id must be a UUID") });

/** The body of PUT /api/v1/stores/:id/prices/:productId: the same rules as a product's price. */
export const storePriceUpdateSchema = z.strictObject({ price: productInputSchema.shape.price });
export type StorePriceUpdate = z.input<typeof storePriceUpdateSchema>;

/** Columns of the export, in order; the import reads sku and price and ignores name and catalogue_price. */
export const STORE_PRICE_CSV_COLUMNS = ["sku", "name", "catalogue_price", "price"] as const;

/** POST /api/v1/stores/:id/prices/import: a dry run unless dry_run=false; applying takes every row or none. */
export const storePriceImportQuery = z.object({
  dry_run: z
    .enum(["true", "false"])
    .default("true")
    .transform((v) => v === "true"),
});

export const storePriceImportRowSchema = z.object({
  /** 1-based line in the file, counting the header as line 1. */
  line: z.number().int(),
  sku: z.string().nullable(),
  /** set: a new or changed price; remove: an empty price takes the override away; keep: nothing changes. */
  action: z.enum(["set", "remove", "keep", "reject"]),
  errors: z.array(z.string()),
});
export type StorePriceImportRow = z.infer<typeof storePriceImportRowSchema>;

export const storePriceImportReportSchema = z.object({
  dry_run: z.boolean(),
  set: z.number().int(),
  removed: z.number().int(),
  unchanged: z.number().int(),
  rejected: z.number().int(),
  rows: z.array(storePriceImportRowSchema),
});
export type StorePriceImportReport = z.infer<typeof storePriceImportReportSchema>;
