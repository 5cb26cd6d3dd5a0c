/** Money is integer öre in the database and kronor with two decimals in the API. */
export const fromOre = (ore: number): number => ore / 100;

export function toOre(kronor: number): number {
  const ore = Math.round(kronor * 100);
  if (Math.abs(ore - kronor * 100) > 1e-6) throw new RangeError("Amounts allow at most two decimals");
  return ore;
}
