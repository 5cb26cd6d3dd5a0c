const whole = new Intl.NumberFormat("en", { maximumFractionDigits: 0 });
const cents = new Intl.NumberFormat("en", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** An amount as the console shows it: whole kronor as the marks say them ("2 kr"), else with öre ("2.50 kr"). */
export function formatPantAmount(amount: number): string {
  return `${Number.isInteger(amount) ? whole.format(amount) : cents.format(amount)} kr`;
}

/** What a mark without an amount reads as. */
export const NO_PANT = "No pant";
