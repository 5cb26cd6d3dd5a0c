import { z } from "zod";
import { COUNTRY_CODES } from "./constants.ts";

/**
 * VAT by category and date. A product carries a category, as Skatteverket
 * groups goods; a table gives each category's rate per country with the days
 * it is valid. The rate applied to a sale is the one valid on the store's
 * calendar day of the payment, and it is kept on the order's lines.
 */
export const VAT_CATEGORIES = ["standard", "food", "alcoholic_drink", "books_newspapers", "exempt"] as const;
export type VatCategory = (typeof VAT_CATEGORIES)[number];
export const vatCategorySchema = z.enum(VAT_CATEGORIES, {
  error: `A VAT category is one of ${VAT_CATEGORIES.join(", ")}`,
});
export const isVatCategory = (value: unknown): value is VatCategory =>
  (VAT_CATEGORIES as readonly unknown[]).includes(value);

/** The console's names for the categories. */
export const VAT_CATEGORY_LABELS: Record<VatCategory, string> = {
  standard: "Standard",
  food: "Food (livsmedel, folköl)",
  alcoholic_drink: "Alcoholic drink (over 3.5 %)",
  books_newspapers: "Books and newspapers",
  exempt: "Exempt",
};

/** The category a product without one gets (setting product/default_vat_category). */
export const DEFAULT_VAT_CATEGORY: VatCategory = "standard";

/** A day as YYYY-MM-DD. */
export type CalendarDay = string;

export interface VatRatePeriod {
  country: string;
  category: VatCategory;
  /** Hundredths of a percent: 6 % is 600. */
  rate_bp: number;
  valid_from: CalendarDay;
  /** The last day it is valid; null while no end is known. */
  valid_to: CalendarDay | null;
}

/**
 * Swedish law as the migration seeds it. Food (livsmedel, which takes in
 * folköl up to 3.5 % and other drinks up to 2.25 % alcohol) is 6 % for sales
 * from 2026-04-01 to 2027-12-31 and goes back to 12 % afterwards unless the
 * law is extended. Stronger drinks are 25 %, books and newspapers 6 %.
 */
export const SWEDISH_VAT_RATES: readonly VatRatePeriod[] = [
  { country: "SE", category: "standard", rate_bp: 2500, valid_from: "1990-07-01", valid_to: null },
  { country: "SE", category: "alcoholic_drink", rate_bp: 2500, valid_from: "1990-07-01", valid_to: null },
  { country: "SE", category: "food", rate_bp: 1200, valid_from: "1996-01-01", valid_to: "2026-03-31" },
  { country: "SE", category: "food", rate_bp: 600, valid_from: "2026-04-01", valid_to: "2027-12-31" },
  { country: "SE", category: "food", rate_bp: 1200, valid_from: "2028-01-01", valid_to: null },
  { country: "SE", category: "books_newspapers", rate_bp: 600, valid_from: "2002-01-01", valid_to: null },
  { country: "SE", category: "exempt", rate_bp: 0, valid_from: "1990-07-01", valid_to: null },
];

/** The rate (hundredths of a percent) valid for a category on a day, or null when the table has none. */
export function vatRateOn(
  periods: readonly VatRatePeriod[],
  country: string,
  category: VatCategory,
  day: CalendarDay,
): number | null {
  let found: VatRatePeriod | null = null;
  for (const period of periods) {
    if (period.country !== country || period.category !== category) continue;
    if (period.valid_from > day || (period.valid_to !== null && period.valid_to < day)) continue;
    // Periods do not overlap (the server refuses it); the latest start wins should two ever do.
    if (!found || period.valid_from > found.valid_from) found = period;
  }
  return found ? found.rate_bp : null;
}

/** One formatter per time zone: making one costs far more than using it. */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar day (YYYY-MM-DD) an instant falls on in a time zone. */
export function calendarDay(instant: Date, timeZone: string): CalendarDay {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    dayFormats.set(timeZone, format);
  }
  const parts = format.formatToParts(instant);
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${part("year")}-${part("month")}-${part("day")}`;
}

/**
 * The category an older client means by a percentage (the products API took
 * a rate before categories): 25 standard, 12 and 6 food (the grocery's own
 * reduced rates, before and after 2026-04-01), 0 exempt.
 */
export function vatCategoryForPercent(percent: number): VatCategory | null {
  if (percent === 25) return "standard";
  if (percent === 12 || percent === 6) return "food";
  if (percent === 0) return "exempt";
  return null;
}

/** A gross amount (VAT included) at one rate: a line, a discount, a pant. */
export interface VatLine {
  totalOre: number;
  /** Hundredths of a percent: 25 % is 2500. */
  vatRateBp: number;
}

export interface VatPerRate {
  vatRateBp: number;
  grossOre: number;
  vatOre: number;
  netOre: number;
}

/**
 * VAT on Swedish shop prices, which include it: per rate, the VAT in a gross
 * amount G at rate r is G·r/(1+r), rounded to the öre once per rate (as a
 * kvitto shows it), never per line. Highest rate first.
 */
export function vatPerRate(lines: readonly VatLine[]): VatPerRate[] {
  const gross = new Map<number, number>();
  for (const line of lines) gross.set(line.vatRateBp, (gross.get(line.vatRateBp) ?? 0) + line.totalOre);
  return [...gross.entries()]
    .sort(([a], [b]) => b - a)
    .map(([vatRateBp, grossOre]) => {
      const vatOre = Math.round((grossOre * vatRateBp) / (10_000 + vatRateBp));
      return { vatRateBp, grossOre, vatOre, netOre: grossOre - vatOre };
    });
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isRealDay = (v: string) => {
  const date = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === v;
};
const day = (label: string) =>
  z
    .string({ error: `${label} is a date as YYYY-MM-DD` })
    .regex(DAY, { message: `${label} is a date as YYYY-MM-DD`, abort: true })
    .refine(isRealDay, `${label} is not a day of the calendar`);
/** A field holding a real day as YYYY-MM-DD; `label` names the field in its messages. */
export const calendarDaySchema = day;

const percent = z
  .number({ error: "The rate is a number of percent from 0 to 100" })
  .min(0, "The rate must be from 0 to 100 %")
  .max(100, "The rate must be from 0 to 100 %")
  .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, "The rate allows at most two decimals");

export const vatRateCountrySchema = z.enum(COUNTRY_CODES as [string, ...string[]], {
  error: `Unknown country code; use one of ${COUNTRY_CODES.join(", ")}`,
});

/** One period of a category's rate, as the console adds or edits it. */
export const vatRateInputSchema = z
  .strictObject({
    country: vatRateCountrySchema,
    category: vatCategorySchema,
    /** Percent, e.g. 6. */
    rate: percent,
    valid_from: day("valid_from"),
    valid_to: day("valid_to").nullable().optional(),
  })
  .refine((v) => v.valid_to == null || v.valid_to >= v.valid_from, {
    path: ["valid_to"],
    message: "valid_to cannot be before valid_from",
  });
export type VatRateInput = z.input<typeof vatRateInputSchema>;

export const vatRateSchema = z.object({
  id: z.string(),
  country: z.string(),
  category: vatCategorySchema,
  rate: z.number(),
  valid_from: z.string(),
  valid_to: z.string().nullable(),
  updated_at: z.string(),
});
export type VatRate = z.infer<typeof vatRateSchema>;

export const vatRateListQuerySchema = z.object({ country: vatRateCountrySchema.optional() });
export const vatRateListSchema = z.object({
  items: z.array(vatRateSchema),
  /** The calendar day in Stockholm the server counts as today (which rates are current). */
  today: z.string(),
});
export type VatRateList = z.infer<typeof vatRateListSchema>;

/**
 * A period's id in the path. Any text is taken: an id that is no UUID names
 * no period, so it is answered 404 like an unknown one.
 */
export const vatRateIdParams = z.object({ id: z.string().max(200, "VAT rate id is too long") });
