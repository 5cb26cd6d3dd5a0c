import { luhnValid } from "@glide/contracts";

/**
 * Swedish personal identity numbers (personnummer) as BankID returns them:
 * 12 digits, YYYYMMDDNNNC, C a Luhn check digit over the last ten.
 * Coordination numbers (samordningsnummer) add 60 to the day.
 */
export function isValidPersonalNumber(pn: string): boolean {
  return /^\d{12}$/.test(pn) && birthDate(pn) !== null && luhnValid(pn.slice(2));
}

/** The birth date (YYYY-MM-DD), or null if the digits are not a real date. */
export function birthDate(pn: string): string | null {
  const year = Number(pn.slice(0, 4));
  const month = Number(pn.slice(4, 6));
  let day = Number(pn.slice(6, 8));
  if (day > 60) day -= 60;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.toISOString().slice(0, 10);
}

/** Whole years between a birth date and a day (both YYYY-MM-DD). */
export function ageOn(birth: string, on: string): number {
  const [by, bm, bd] = birth.split("-").map(Number) as [number, number, number];
  const [y, m, d] = on.split("-").map(Number) as [number, number, number];
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}
