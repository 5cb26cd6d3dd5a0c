/**
 * What BankID takes as a personal number: 12 digits YYYYMMDDNNNC, a real
 * date (a coordination number adds 60 to the day) and C the Luhn check digit
 * over the last ten. The simulator keeps its own copy: it stands in for an
 * outside system and shares no code with the server it tests.
 */
export function isPersonalNumber(value: unknown): value is string {
  if (typeof value !== "string" || !/^\d{12}$/.test(value)) return false;
  const year = Number(value.slice(0, 4));
  const month = Number(value.slice(4, 6));
  const rawDay = Number(value.slice(6, 8));
  const day = rawDay > 60 ? rawDay - 60 : rawDay;
  const date = new Date(Date.UTC(year, month - 1, day));
  const realDate =
    day > 0 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return realDate && luhn(value.slice(2));
}

/** Luhn over the digits, the last one being the check digit. */
function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}
