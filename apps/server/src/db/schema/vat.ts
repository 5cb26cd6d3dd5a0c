import { sql } from "drizzle-orm";
import { check, date, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

/**
 * Each VAT category's rate per country with the days it is valid (both
 * inclusive; no end while none is known). Periods of one category never
 * overlap: the service refuses it under a lock of the table.
 */
export const vatRates = pgTable(
  "vat_rates",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    country: text("country").notNull(),
    category: text("category").notNull(),
    /** Hundredths of a percent: 6 % is 600. */
    rateBp: integer("rate_bp").notNull(),
    validFrom: date("valid_from", { mode: "string" }).notNull(),
    validTo: date("valid_to", { mode: "string" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("vat_rates_period_idx").on(t.country, t.category, t.validFrom),
    check(
      "vat_rates_category_check",
      sql`${t.category} in ('standard', 'food', 'alcoholic_drink', 'books_newspapers', 'exempt')`,
    ),
    check("vat_rates_rate_check", sql`${t.rateBp} between 0 and 10000`),
    check("vat_rates_days_check", sql`${t.validTo} is null or ${t.validTo} >= ${t.validFrom}`),
  ],
);
