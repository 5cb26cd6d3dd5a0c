/** The demo's randomness: a fixed seed tells the same story on every fresh seed. */

/** mulberry32: small, fast and good enough to pick groceries. */
export function randomSource(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const hex = (n: number) => Array.from({ length: n }, () => int(0, 15).toString(16)).join("");
  const ALNUM = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  return {
    next,
    int,
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!,
    /** An index drawn with the given weights. */
    weighted: (weights: readonly number[]) => {
      let left = next() * weights.reduce((sum, w) => sum + w, 0);
      for (const [i, w] of weights.entries()) {
        left -= w;
        if (left < 0) return i;
      }
      return weights.length - 1;
    },
    uuid: () => `${hex(8)}-${hex(4)}-4${hex(3)}-${"89ab"[int(0, 3)]}${hex(3)}-${hex(12)}`,
    /** A payment provider's id: `pi_` and 24 letters and digits, as Stripe (and its simulator) make them. */
    providerId: (prefix: string, length = 24) =>
      `${prefix}_${Array.from({ length }, () => ALNUM[int(0, ALNUM.length - 1)]).join("")}`,
    hex,
  };
}
export type Random = ReturnType<typeof randomSource>;
