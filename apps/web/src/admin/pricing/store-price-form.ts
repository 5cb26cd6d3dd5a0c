import type { StorePrice, StorePriceUpdate } from "@glide/contracts";
import { fieldMapper } from "../../lib/form-errors.ts";

/** What the store price dialog holds: the product picked (its id) and the price as typed. */
export interface StorePriceFormValues {
  /** The product's id; "" until one is picked. */
  product_id: string;
  /** Kronor as typed: "12", "12.50" or "12,50". */
  price: string;
}

export const STORE_PRICE_FIELDS = ["product_id", "price"] as const satisfies readonly (keyof StorePriceFormValues)[];

/** The API's paths are the form's names. */
export const storePriceFieldOf = fieldMapper<StorePriceFormValues>(STORE_PRICE_FIELDS);

export const firstStorePriceField = (fields: readonly (keyof StorePriceFormValues)[]) =>
  STORE_PRICE_FIELDS.find((field) => fields.includes(field));

/** The form's values: an override's product and price, or nothing picked yet for a new one. */
export function toFormValues(item: Pick<StorePrice, "product_id" | "price"> | undefined): StorePriceFormValues {
  return item ? { product_id: item.product_id, price: String(item.price) } : { product_id: "", price: "" };
}

export const PICK_A_PRODUCT = "Pick a product by its name or SKU";

const PRICE_TEXT = /^\d+(?:[.,]\d+)?$/;

/**
 * What is wrong with a typed price before it is sent, or undefined: it must
 * be there and be a number of kronor. Its range and decimals are the server's to judge.
 */
export function priceProblem(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return "Enter the store's price in kronor";
  if (!PRICE_TEXT.test(trimmed)) return "The price is a number of kronor, e.g. 12 or 12.50";
  return undefined;
}

/** The body of PUT: a decimal comma read as a point. */
export function toStorePriceUpdate(values: StorePriceFormValues): StorePriceUpdate {
  return { price: Number(values.price.trim().replace(",", ".")) };
}
