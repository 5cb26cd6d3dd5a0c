import { sql } from "drizzle-orm";
import { check, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/** What each pant mark (contracts' PANT_CODES) is worth in each country; a mark a country lacks has no pant there. */
export const pantAmounts = pgTable(
  "pant_amounts",
  {
    country: text("country").notNull(),
    code: text("code").notNull(),
    amountOre: integer("amount_ore").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.country, t.code] }),
    check(
      "pant_amounts_code_check",
      sql`${t.code} in ('can', 'pet_small', 'pet_large', 'can_1kr', 'pet_small_1kr', 'pet_large_2kr')`,
    ),
    check("pant_amounts_amount_check", sql`${t.amountOre} between 0 and 100000`),
  ],
);
