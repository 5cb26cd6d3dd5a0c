import type { PantAmount, PantAmountUpdate } from "@glide/contracts";
import { fieldMapper } from "../../lib/form-errors.ts";

/** What the pant dialog's input holds: the amount as typed; converted by toPantAmountUpdate on submit. */
export interface PantAmountFormValues {
  /** Kronor as typed: "2", "2.50" or "2,50". */
  amount: string;
}

export const PANT_AMOUNT_FIELDS = ["amount"] as const satisfies readonly (keyof PantAmountFormValues)[];

/** The API's paths are the form's names. */
export const pantAmountFieldOf = fieldMapper<PantAmountFormValues>(PANT_AMOUNT_FIELDS);

export const firstPantAmountField = (fields: readonly (keyof PantAmountFormValues)[]) =>
  PANT_AMOUNT_FIELDS.find((field) => fields.includes(field));

/** The form's values: the mark's amount, or empty for a mark the country has no pant for yet. */
export function toFormValues(item: Pick<PantAmount, "amount">): PantAmountFormValues {
  return { amount: item.amount === null ? "" : String(item.amount) };
}

const AMOUNT_TEXT = /^\d+(?:[.,]\d+)?$/;

/**
 * What is wrong with a typed amount before it is sent, or undefined: it must
 * be there and be a number. Its range and decimals are the server's to judge.
 */
export function amountProblem(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return "Enter the amount in kronor";
  if (!AMOUNT_TEXT.test(trimmed)) return "The amount is a number of kronor, e.g. 2 or 2.50";
  return undefined;
}

/** The body of PUT: a decimal comma read as a point. */
export function toPantAmountUpdate(values: PantAmountFormValues): PantAmountUpdate {
  return { amount: Number(values.amount.trim().replace(",", ".")) };
}
