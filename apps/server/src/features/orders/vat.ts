/**
 * VAT on Swedish shop prices, which include it: per rate, the VAT in a gross
 * amount G at rate r is G·r/(1+r), rounded to the öre once per rate (as a
 * kvitto shows it), never per line.
 */
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
