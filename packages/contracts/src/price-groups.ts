import { z } from "zod";
import { storePriceListQuerySchema, storePriceSchema } from "./store-prices.ts";

/**
 * Price groups: stores that share prices. A scan in a store of a group takes
 * the store's own price of a product, else the group's, else the catalogue's.
 * Platform admins make groups, set their prices and put stores in them; a
 * store admin reads the groups of their own stores.
 */

export const PRICE_GROUP_NAME_MAX = 100;

/** A group, with the stores in it (those the caller sees) and how many prices it sets. */
export const priceGroupSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  stores: z.array(z.object({ id: z.uuid(), name: z.string() })),
  price_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type PriceGroup = z.infer<typeof priceGroupSchema>;

/** GET /api/v1/price-groups answers every group the caller sees, by name. */
export const priceGroupListSchema = z.array(priceGroupSchema);

/** POST /api/v1/price-groups and PUT /api/v1/price-groups/:id: the name, unique case aside (other fields are ignored, as a store's). */
export const priceGroupInputSchema = z.object({
  name: z
    .string({ error: (i) => (i.input === undefined || i.input === null ? "Name is required" : "Name must be text") })
    .trim()
    .min(1, "Name is required")
    .max(PRICE_GROUP_NAME_MAX, `Name must be at most ${PRICE_GROUP_NAME_MAX} characters`),
});
export type PriceGroupInput = z.input<typeof priceGroupInputSchema>;

export const priceGroupParams = z.object({ id: z.uuid("Price group id must be a UUID") });
export const priceGroupPriceParams = priceGroupParams.extend({ productId: z.uuid("Product id must be a UUID") });

/** PUT /api/v1/stores/:id/price-group: the group the store takes prices from, or null for none. */
export const storePriceGroupSchema = z.strictObject({
  price_group_id: z.uuid("Price group id must be a UUID").nullable(),
});
export type StorePriceGroup = z.infer<typeof storePriceGroupSchema>;

/** One of a group's prices: the same shape as a store's (the catalogue's price beside it). */
export const priceGroupPriceSchema = storePriceSchema;
export type PriceGroupPrice = z.infer<typeof priceGroupPriceSchema>;
export const priceGroupPriceListSchema = z.array(priceGroupPriceSchema);
export const priceGroupPriceListQuerySchema = storePriceListQuerySchema;
