/**
 * Runs calls with the same key one after another on this instance, each
 * with the result of its own `run`: a burst of calls on one key waits here,
 * in memory, instead of each holding a database connection while it waits
 * for the same row. Across instances the work itself must still be safe (a
 * row lock).
 */
export function oneAtATime() {
  const tails = new Map<string, Promise<void>>();
  return <T>(key: string, run: () => Promise<T>): Promise<T> => {
    const result = (tails.get(key) ?? Promise.resolve()).then(run);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return result;
  };
}
