import { VAT_CATEGORIES, type VatCategory, type VatRate } from "@glide/contracts";

/** Where a period stands on the server's today: the one sales are taxed at now, one still to come, or one over. */
export type PeriodStatus = "current" | "upcoming" | "ended";

/** A period's standing on `today` (YYYY-MM-DD); both ends are days it is valid. */
export function periodStatus(period: Pick<VatRate, "valid_from" | "valid_to">, today: string): PeriodStatus {
  if (period.valid_from > today) return "upcoming";
  if (period.valid_to !== null && period.valid_to < today) return "ended";
  return "current";
}

export interface CategoryPeriods {
  category: VatCategory;
  /** Oldest first, as the law changed. */
  periods: VatRate[];
}

/** Every category in the contract's order, each with its periods oldest first (none when the country has no rate). */
export function groupByCategory(items: readonly VatRate[]): CategoryPeriods[] {
  return VAT_CATEGORIES.map((category) => ({
    category,
    periods: items
      .filter((item) => item.category === category)
      .sort((a, b) => a.valid_from.localeCompare(b.valid_from)),
  }));
}

const percent = new Intl.NumberFormat("en", { maximumFractionDigits: 2 });

/** A rate in percent as the console shows it: 6 → "6 %", 12.5 → "12.5 %". */
export function formatRate(rate: number): string {
  return `${percent.format(rate)} %`;
}

/** What an open end reads as. */
export const OPEN_END = "until further notice";
