import { forbidden } from "../../platform/errors.ts";
import { ageOn } from "../../platform/personal-number.ts";

/** Today in the store's own time zone, for age checks at the birthday boundary. */
function todayIn(timezone: string, now = new Date()): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: timezone, year: "numeric", month: "2-digit", day: "2-digit" })
    .format(now)
    .slice(0, 10);
}

/**
 * Age-limited goods are sold only in stores with the age_verification module,
 * and only to shoppers of that age on the store's calendar day. Checked again
 * at payment.
 */
export function checkAgeLimit(
  session: { age_verification: boolean; birth_date: string; timezone: string },
  product: { name: string; age_limit: number | null },
  now = new Date(),
): void {
  const limit = product.age_limit;
  if (!limit) return;
  if (!session.age_verification)
    throw forbidden(
      `${product.name} har åldersgräns (${limit} år) och säljs inte i den här butiken.`,
      "age_limited_not_sold",
    );
  if (ageOn(session.birth_date, todayIn(session.timezone, now)) < limit)
    throw forbidden(`Du måste vara minst ${limit} år för att köpa ${product.name}.`, "under_age");
}
