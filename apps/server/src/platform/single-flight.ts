/**
 * Calls with the same key while one is under way share its result instead of
 * running again: a burst of duplicates costs one run (and one database
 * connection) in this instance. Keys are kept apart per `scope` (an app's
 * database handle), so two apps in one process never share a run. Across
 * instances the work itself must still be safe (a row lock, a lease).
 */
export function singleFlight<T>() {
  const running = new WeakMap<object, Map<string, Promise<T>>>();
  return (scope: object, key: string, run: () => Promise<T>): Promise<T> => {
    let calls = running.get(scope);
    if (!calls) {
      calls = new Map();
      running.set(scope, calls);
    }
    const current = calls.get(key);
    if (current) return current;
    const started = run().finally(() => calls.delete(key));
    calls.set(key, started);
    return started;
  };
}
