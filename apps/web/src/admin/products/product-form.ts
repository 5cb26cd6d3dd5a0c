import {
  AGE_LIMITS,
  DEFAULT_VAT_CATEGORY,
  isVatCategory,
  type NetContentUnit,
  type PantCode,
  type Product,
  type ProductInput,
  type VatCategory,
  type VatRateList,
  vatRateOn,
} from "@glide/contracts";
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
  /** One of VAT_CATEGORIES; the rate follows from the category and the day of the sale. */
  vat_category: string;
  /** How much the package holds, in net_content_unit; the comparison price (kr/kg, kr/l, kr/st) follows from it. */
  net_content: string;
  /** One of NET_CONTENT_UNITS, or "" for none. */
  net_content_unit: string;
  /** One of PANT_CODES, or "" for none. */
  pant_code: string;
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
  "vat_category",
  "net_content",
  "net_content_unit",
  "pant_code",
  "barcode",
  "image_url",
  "weight",
  "age_limit",
  "length",
  "width",
  "height",
  "is_active",
] as const satisfies readonly (keyof ProductFormValues)[];

/**
 * The API's paths are the form's names; its list of barcodes is shown on the
 * one Barcode field, and a problem with the rate on the category it comes from.
 */
export const productFieldOf = fieldMapper<ProductFormValues>(PRODUCT_FIELDS, {
  barcodes: "barcode",
  vat_rate: "vat_category",
});

export const firstProductField = (fields: readonly (keyof ProductFormValues)[]) =>
  PRODUCT_FIELDS.find((field) => fields.includes(field));

const numberText = (value: number | null | undefined) => (value == null ? "" : String(value));

/**
 * The draft defaults are the standard VAT category (or, once the settings
 * answer, product/default_vat_category) and every other field empty; a new
 * product starts active.
 */
export function toFormValues(
  product?: Product,
  defaultVatCategory: VatCategory = DEFAULT_VAT_CATEGORY,
): ProductFormValues {
  return {
    sku: product?.sku ?? "",
    name: product?.name ?? "",
    description: product?.description ?? "",
    category: product?.category ?? "",
    brand: product?.brand ?? "",
    price: numberText(product?.price),
    vat_category: product?.vat_category ?? defaultVatCategory,
    net_content: numberText(product?.net_content),
    net_content_unit: product?.net_content_unit ?? "",
    pant_code: product?.pant_code ?? "",
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
  return {
    sku: values.sku.trim(),
    name: values.name.trim(),
    description: values.description,
    category: values.category,
    brand: values.brand,
    // Required on the form, so never empty here.
    price: Number(values.price.trim()),
    // The select offers only categories; anything else is sent as it is, for the server to refuse by name.
    vat_category: values.vat_category as VatCategory,
    net_content: optionalNumber(values.net_content),
    // The select offers only units or none; none is null, and the server names a content without its unit.
    net_content_unit: values.net_content_unit === "" ? null : (values.net_content_unit as NetContentUnit),
    // None is null, so that choosing None on edit clears the mark.
    pant_code: values.pant_code === "" ? null : (values.pant_code as PantCode),
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

/** The country whose rates the hint shows: products are the grocery's, and the grocery is Swedish. */
export const VAT_COUNTRY = "SE";

/**
 * Today's rate (percent) of the category chosen: the product's own answer
 * while its category is unchanged (the server worked it out for today), else
 * the rate table's for the server's today; null when neither says.
 */
export function vatPercentToday(
  category: string,
  product: Pick<Product, "vat_category" | "vat_rate"> | undefined,
  table: VatRateList | undefined,
): number | null {
  if (!isVatCategory(category)) return null;
  if (product && product.vat_category === category && product.vat_rate !== null) return product.vat_rate;
  if (!table) return null;
  const periods = table.items.map((item) => ({ ...item, rate_bp: Math.round(item.rate * 100) }));
  const bp = vatRateOn(periods, VAT_COUNTRY, category, table.today);
  return bp === null ? null : bp / 100;
}

/** "6 % today", or nothing to say. */
export const vatTodayText = (percent: number | null): string | undefined =>
  percent === null ? undefined : `${percent} % today`;

/** Add Product stays disabled until these three are filled. */
export function hasRequiredFields(values: Pick<ProductFormValues, "sku" | "name" | "price">): boolean {
  return values.sku.trim() !== "" && values.name.trim() !== "" && values.price.trim() !== "";
}
