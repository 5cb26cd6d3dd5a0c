import type { VatCategory, VatRate, VatRateInput } from "@glide/contracts";
import { fieldMapper } from "../../lib/form-errors.ts";

/** What the VAT rate dialog's inputs hold: the rate as typed; converted by toVatRateInput on submit. */
export interface VatRateFormValues {
  country: string;
  category: VatCategory;
  /** Percent as typed: "6", "12.5" or "12,5". */
  rate: string;
  /** YYYY-MM-DD, as a date input gives it. */
  valid_from: string;
  /** YYYY-MM-DD, or "" for no known end. */
  valid_to: string;
}

/** The dialog's fields top to bottom, which is also the order the first problem takes focus in. */
export const VAT_RATE_FIELDS = [
  "country",
  "category",
  "rate",
  "valid_from",
  "valid_to",
] as const satisfies readonly (keyof VatRateFormValues)[];

/** The API's paths are the form's names. */
export const vatRateFieldOf = fieldMapper<VatRateFormValues>(VAT_RATE_FIELDS);

export const firstVatRateField = (fields: readonly (keyof VatRateFormValues)[]) =>
  VAT_RATE_FIELDS.find((field) => fields.includes(field));

/** The form's values: the period's when editing, else a new standard-rate period for the country on screen. */
export function toFormValues(rate: VatRate | undefined, country: string): VatRateFormValues {
  return {
    country: rate?.country ?? country,
    category: rate?.category ?? "standard",
    rate: rate ? String(rate.rate) : "",
    valid_from: rate?.valid_from ?? "",
    valid_to: rate?.valid_to ?? "",
  };
}

const RATE_TEXT = /^\d+(?:[.,]\d+)?$/;

/**
 * What is wrong with a typed rate before it is sent, or undefined: it must be
 * there and be a number. Its range and decimals are the server's to judge.
 */
export function rateProblem(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return "Enter the rate in percent";
  if (!RATE_TEXT.test(trimmed)) return "The rate is a number of percent, e.g. 6 or 12.5";
  return undefined;
}

/** The body of POST and PUT: a decimal comma read as a point, an empty end as none. */
export function toVatRateInput(values: VatRateFormValues): VatRateInput {
  return {
    country: values.country,
    category: values.category,
    rate: Number(values.rate.trim().replace(",", ".")),
    valid_from: values.valid_from,
    valid_to: values.valid_to === "" ? null : values.valid_to,
  };
}
