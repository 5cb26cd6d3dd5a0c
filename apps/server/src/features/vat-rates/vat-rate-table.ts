import {
  type CalendarDay,
  calendarDay,
  isVatCategory,
  type VatCategory,
  type VatRatePeriod,
  vatRateOn,
} from "@glide/contracts";
import type { SQL } from "drizzle-orm";
import { type Db, queryRows, sql, type Tx } from "../../db/client.ts";

/**
 * Reading the VAT rate table: the rate of a category on a store's day of sale
 * (checkout, a staff check's added goods), and the rate of today at home
 * (what the console and the product API show beside a product's category).
 */

/** The platform's home: products are one catalogue, and their "rate today" is Sweden's. */
export const HOME_COUNTRY = "SE";
export const HOME_TIME_ZONE = "Europe/Stockholm";

export const homeToday = (now: Date = new Date()): CalendarDay => calendarDay(now, HOME_TIME_ZONE);

/** A country's periods, every category. */
export async function loadVatRates(db: Db | Tx, country: string): Promise<VatRatePeriod[]> {
  const rows = await queryRows<{ category: string; rate_bp: number; valid_from: string; valid_to: string | null }>(
    db,
    sql`select category, rate_bp, valid_from::text as valid_from, valid_to::text as valid_to
        from vat_rates where country = ${country}`,
  );
  return rows.flatMap((row) =>
    isVatCategory(row.category)
      ? [{ country, category: row.category, rate_bp: row.rate_bp, valid_from: row.valid_from, valid_to: row.valid_to }]
      : [],
  );
}

/**
 * The rate of each category for a sale at `instant` in a store: its country's
 * table on its own calendar day. A category the country's table leaves out is
 * charged at the store's own rate (the store's VAT Rate setting), so a store
 * abroad sells before its country's table is filled in.
 */
export async function saleVatRates(
  db: Db | Tx,
  store: { country: string; timezone: string; vat_rate_bp: number },
  instant: Date,
): Promise<(category: VatCategory) => number> {
  const periods = await loadVatRates(db, store.country);
  const day = calendarDay(instant, store.timezone);
  return (category) => vatRateOn(periods, store.country, category, day) ?? store.vat_rate_bp;
}

/** Where an order was sold, as saleVatRates needs it; home (Sweden, 25 %) for an order whose store was deleted. */
export async function storeOfOrder(
  db: Db | Tx,
  orderId: string,
): Promise<{ country: string; timezone: string; vat_rate_bp: number }> {
  const [store] = await queryRows<{ country: string; timezone: string; vat_rate_bp: number }>(
    db,
    sql`select st.country, st.timezone, st.vat_rate_bp from orders o join stores st on st.id = o.store_id
        where o.id = ${orderId}`,
  );
  return store ?? { country: HOME_COUNTRY, timezone: HOME_TIME_ZONE, vat_rate_bp: 2500 };
}

/**
 * SQL for the home rate of today (hundredths of a percent) of the category in
 * `category` (a column of the outer query, e.g. sql`p.vat_category`); null when
 * the table has none.
 */
export function homeRateToday(category: SQL, now: Date = new Date()): SQL<number | null> {
  const day = homeToday(now);
  return sql<number | null>`(select r.rate_bp from vat_rates r
      where r.country = ${HOME_COUNTRY} and r.category = ${category}
        and r.valid_from <= ${day}::date and (r.valid_to is null or r.valid_to >= ${day}::date)
      order by r.valid_from desc limit 1)`;
}
