import { AGE_LIMITS, PRODUCT_DEFAULTS, type Product, type ProductInput } from "@glide/contracts";
import { fieldMapper } from "../../lib/form-errors.ts";

export const NO_AGE_LIMIT = "none";

/** What the product dialog's inputs hold: text as typed; converted by toProductInput on submit. */
export interface ProductFormValues {
  sku: string;
  name: string;
  description: string;
  category: string;
  brand: string;
  /** Kronor. */
  price: string;
  /** Percent. */
  vat_rate: string;
  barcode: string;
  image_url: string;
  /** Grams. */
  weight: string;
  /** Centimetres. */
  length: string;
  width: string;
  height: string;
  /** "15", "18", "20" or NO_AGE_LIMIT. */
  age_limit: string;
  is_active: boolean;
}

/** The form's fields in the order shown, so the first problem on screen takes focus. */
export const PRODUCT_FIELDS = [
  "sku",
  "name",
  "description",
  "category",
  "brand",
  "price",
  "vat_rate",
  "barcode",
  "image_url",
  "weight",
  "age_limit",
  "length",
  "width",
  "height",
  "is_active",
] as const satisfies readonly (keyof ProductFormValues)[];

/** The API's paths are the form's names; its list of barcodes is shown on the one Barcode field. */
export const productFieldOf = fieldMapper<ProductFormValues>(PRODUCT_FIELDS, { barcodes: "barcode" });

export const firstProductField = (fields: readonly (keyof ProductFormValues)[]) =>
  PRODUCT_FIELDS.find((field) => fields.includes(field));

const numberText = (value: number | null | undefined) => (value == null ? "" : String(value));

/**
 * The draft defaults are VAT 25 (or, once the settings answer, the global
 * default VAT rate as a percent) and every other field empty; a new product starts active.
 */
export function toFormValues(
  product?: Product,
  defaultVatPercent: number = PRODUCT_DEFAULTS.vat_rate,
): ProductFormValues {
  return {
    sku: product?.sku ?? "",
    name: product?.name ?? "",
    description: product?.description ?? "",
    category: product?.category ?? "",
    brand: product?.brand ?? "",
    price: numberText(product?.price),
    vat_rate: numberText(product?.vat_rate ?? defaultVatPercent),
    barcode: product?.barcode ?? "",
    image_url: product?.image_url ?? "",
    weight: numberText(product?.weight),
    length: numberText(product?.length),
    width: numberText(product?.width),
    height: numberText(product?.height),
    age_limit: product?.age_limit == null ? NO_AGE_LIMIT : String(product.age_limit),
    is_active: product?.is_active ?? true,
  };
}

/** Empty is null (cleared); anything else a number, which the server checks and names if wrong. */
function optionalNumber(value: string): number | null {
  const trimmed = value.trim();
  return trimmed === "" ? null : Number(trimmed);
}

function ageLimit(value: string): ProductInput["age_limit"] {
  return AGE_LIMITS.find((limit) => String(limit) === value) ?? null;
}

/** Empty text fields are sent as "" so that clearing a field on edit clears it on the server. */
export function toProductInput(values: ProductFormValues): ProductInput {
  const vat = values.vat_rate.trim();
  return {
    sku: values.sku.trim(),
    name: values.name.trim(),
    description: values.description,
    category: values.category,
    brand: values.brand,
    // Required on the form, so never empty here.
    price: Number(values.price.trim()),
    // Left out when emptied: the server's default on create, unchanged on edit.
    ...(vat === "" ? {} : { vat_rate: Number(vat) }),
    barcode: values.barcode.trim(),
    image_url: values.image_url.trim(),
    is_active: values.is_active,
    weight: optionalNumber(values.weight),
    length: optionalNumber(values.length),
    width: optionalNumber(values.width),
    height: optionalNumber(values.height),
    age_limit: ageLimit(values.age_limit),
  };
}

/** Add Product stays disabled until these three are filled. */
export function hasRequiredFields(values: Pick<ProductFormValues, "sku" | "name" | "price">): boolean {
  return values.sku.trim() !== "" && values.name.trim() !== "" && values.price.trim() !== "";
}
