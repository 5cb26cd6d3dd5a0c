/**
 * Per-instance copies of rows that change a few times a day and are read on
 * every request (a store's settings, the offers of the day), each read from
 * the database once and then kept.
 *
 * A change made here drops the copy at once (`drop`, `clear`); one made on
 * another instance does so through the event bus; `freshMs` bounds how long
 * a copy outlives a message that was missed. A copy past `freshMs` is still
 * answered while one read in the background replaces it, so no request
 * waits for that read, and many copies made together (every store's on the
 * first scans after a start) do not make every request wait at the same
 * moment when they come due. A read that finds what the copy holds keeps
 * the copy's value itself, so whatever was worked out from it stays valid.
 * Past `freshMs + staleMs` (the background reads failed, or nobody asked)
 * a request waits for a new read.
 */
export type KeptCopies<V> = {
  get(key: string): Promise<V>;
  /** Forgets one copy: the next `get` reads it anew, and a read under way for it is not kept. */
  drop(key: string): void;
  clear(): void;
  readonly size: number;
};

type Copy<V> = { at: number; value: Promise<V>; settled?: V; refreshing: boolean };

export function keptCopies<V>(opts: {
  load: (key: string) => Promise<V>;
  freshMs: number;
  staleMs: number;
  /** Whether a new read holds the same as the copy's (then the copy's value is kept). */
  same: (kept: V, read: V) => boolean;
  /** Copies kept at most; the oldest made is forgotten first. */
  limit: number;
  now: () => number;
  /** A background read failed: the copy is answered on, and the next request past `freshMs` tries again. */
  onRefreshError: (key: string, err: unknown) => void;
}): KeptCopies<V> {
  const copies = new Map<string, Copy<V>>();

  const read = (key: string): Promise<V> => {
    if (!copies.has(key) && copies.size >= opts.limit) copies.delete(copies.keys().next().value!);
    const copy: Copy<V> = { at: opts.now(), value: opts.load(key), refreshing: false };
    copies.set(key, copy);
    copy.value.then(
      (value) => {
        copy.settled = value;
      },
      // A failed read is not kept: the next call asks the database again.
      () => {
        if (copies.get(key) === copy) copies.delete(key);
      },
    );
    return copy.value;
  };

  const refresh = (key: string, copy: Copy<V>) => {
    copy.refreshing = true;
    const started = opts.now();
    opts.load(key).then(
      (value) => {
        copy.refreshing = false;
        // Dropped or replaced meanwhile: what this read found may be older than the change that dropped it.
        if (copies.get(key) !== copy) return;
        const kept = copy.settled as V;
        if (opts.same(kept, value)) {
          copy.at = started;
          return;
        }
        copies.set(key, { at: started, value: Promise.resolve(value), settled: value, refreshing: false });
      },
      (err: unknown) => {
        copy.refreshing = false;
        opts.onRefreshError(key, err);
      },
    );
  };

  return {
    get(key) {
      const copy = copies.get(key);
      if (!copy) return read(key);
      const age = opts.now() - copy.at;
      if (age < opts.freshMs) return copy.value;
      // Still being read for the first time: nothing older to answer with.
      if (!("settled" in copy)) return copy.value;
      if (age >= opts.freshMs + opts.staleMs) return read(key);
      if (!copy.refreshing) refresh(key, copy);
      return copy.value;
    },
    drop(key) {
      copies.delete(key);
    },
    clear() {
      copies.clear();
    },
    get size() {
      return copies.size;
    },
  };
}
