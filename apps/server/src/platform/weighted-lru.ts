/**
 * A per-instance copy of values of different sizes (a cart's lines, a list's
 * bytes) kept within a budget of total weight: past it, the least recently
 * used go first. A value heavier than `maxEntry` is not kept at all, so one
 * huge value cannot empty the rest.
 */
export function weightedLru<V>(opts: { budget: number; weigh: (value: V) => number; maxEntry?: number }) {
  const entries = new Map<string, V>();
  const maxEntry = opts.maxEntry ?? opts.budget;
  let weight = 0;
  const drop = (key: string) => {
    if (!entries.has(key)) return;
    weight -= opts.weigh(entries.get(key)!);
    entries.delete(key);
  };
  return {
    /** The value, now the most recently used. */
    get(key: string): V | undefined {
      const value = entries.get(key);
      if (value !== undefined) {
        entries.delete(key);
        entries.set(key, value);
      }
      return value;
    },
    /** Keeps `value` under `key` in place of what was there, unless it is heavier than one entry may be. */
    set(key: string, value: V): void {
      drop(key);
      const heavy = opts.weigh(value);
      if (heavy > maxEntry) return;
      while (weight + heavy > opts.budget) drop(entries.keys().next().value!);
      entries.set(key, value);
      weight += heavy;
    },
    drop,
    get size() {
      return entries.size;
    },
    /** The total weight kept. */
    get weight() {
      return weight;
    },
  };
}
