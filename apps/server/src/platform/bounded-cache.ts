/**
 * A per-instance copy of facts that never change (a visit's store), which
 * forgets its oldest entries past `limit` so it cannot grow without bound.
 */
export function boundedCache<V>(limit: number) {
  const entries = new Map<string, V>();
  return {
    get: (key: string): V | undefined => entries.get(key),
    set(key: string, value: V): void {
      if (!entries.has(key) && entries.size >= limit) entries.delete(entries.keys().next().value!);
      entries.set(key, value);
    },
    get size() {
      return entries.size;
    },
  };
}
