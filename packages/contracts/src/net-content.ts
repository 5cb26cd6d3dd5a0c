import { z } from "zod";
import { type ComparisonUnit, comparisonPrice, NET_CONTENT_UNITS, type NetContentUnit } from "./comparison-price.ts";

/** The largest net content the API takes, in its unit (as PRODUCT_LIMITS.measure). */
export const NET_CONTENT_MAX = 1_000_000;

const threeDecimals = (v: number) => Math.abs(v * 1000 - Math.round(v * 1000)) < 1e-6 * Math.max(1, Math.abs(v));

/** A product input's net_content: more than 0, at most NET_CONTENT_MAX, three decimals; null for none. */
export const netContentInput = z
  .number({ error: "Net content must be a number" })
  .gt(0, "Net content must be more than 0")
  .max(NET_CONTENT_MAX, `Net content must be at most ${NET_CONTENT_MAX.toLocaleString("en-US")}`)
  .refine(threeDecimals, "Net content allows at most 3 decimals")
  .nullable()
  .optional();

/** A product input's net_content_unit: one of NET_CONTENT_UNITS; null for none. */
export const netContentUnitInput = z
  .enum(NET_CONTENT_UNITS, { error: `net_content_unit must be one of ${NET_CONTENT_UNITS.join(", ")}` })
  .nullable()
  .optional();

/** A jämförpris as answers carry it (comparisonPrice, in kronor); null when unknown. */
export const comparisonPriceSchema = z
  .object({
    /** Kronor, two decimals, per kilogram, litre or piece. */
    price: z.number(),
    unit: z.enum(["kg", "l", "st"]),
  })
  .nullable();
export type ComparisonPriceAnswer = z.infer<typeof comparisonPriceSchema>;

/** comparisonPrice in kronor, as answers carry it. */
export function comparisonPriceAnswer(
  priceOre: number,
  netContent: number | null,
  unit: NetContentUnit | null,
): { price: number; unit: ComparisonUnit } | null {
  const per = comparisonPrice(priceOre, netContent, unit);
  return per && { price: per.priceOre / 100, unit: per.unit };
}

/**
 * Both net content fields or neither, on what a product will have: an
 * input's fields over the product's own (`current`, for an edit). Which
 * field is missing and why, or null when they agree.
 */
export function netContentProblem(
  input: { net_content?: number | null | undefined; net_content_unit?: string | null | undefined },
  current: { net_content: number | null; net_content_unit: string | null } = {
    net_content: null,
    net_content_unit: null,
  },
): { path: "net_content" | "net_content_unit"; message: string } | null {
  const content = input.net_content === undefined ? current.net_content : input.net_content;
  const unit = input.net_content_unit === undefined ? current.net_content_unit : input.net_content_unit;
  if (content !== null && unit === null)
    return { path: "net_content_unit", message: "net_content_unit is needed with net_content" };
  if (content === null && unit !== null)
    return { path: "net_content", message: "net_content is needed with net_content_unit" };
  return null;
}
