/**
 * Sends calls in batches while the database is busy: a call that finds
 * fewer than `inFlight` batches under way goes at once, alone; calls that
 * arrive while that many are under way wait, and the next batch to go takes
 * up to `most` of them, in the order they came. So an idle service answers
 * each call as soon as it would alone, and a busy one pays a statement's
 * fixed cost once for many calls instead of once each.
 *
 * A batch holds no two calls with the same `key` (such a call waits for the
 * next one), and `run` answers a batch's calls in their order. A call is
 * sent once more by `alone`, outside the batches and their limit:
 * - when its batch failed: its own error (a scan id sent twice at once, say)
 *   then reaches it only, and the other calls still go through;
 * - when its answer is one `again` says a batch cannot give (a row the
 *   batch must not wait for): it waits alone, holding up no batch.
 */
export function batches<I, O>(opts: {
  run: (items: readonly I[]) => Promise<O[]>;
  alone: (item: I) => Promise<O>;
  again: (out: O) => boolean;
  key: (item: I) => string;
  most: number;
  inFlight: number;
}): (item: I) => Promise<O> {
  type Waiting = { item: I; resolve: (out: O) => void; reject: (err: unknown) => void };
  const queue: Waiting[] = [];
  let running = 0;

  /** The next batch: the first waiting call, and after it others of other keys, in the order they came. */
  const take = (): Waiting[] => {
    const first = queue.shift()!;
    const batch = [first];
    const keys = new Set([opts.key(first.item)]);
    for (let i = 0; i < queue.length && batch.length < opts.most; ) {
      const key = opts.key(queue[i]!.item);
      if (keys.has(key)) {
        i++;
        continue;
      }
      keys.add(key);
      batch.push(...queue.splice(i, 1));
    }
    return batch;
  };

  const alone = (w: Waiting) => opts.alone(w.item).then(w.resolve, w.reject);

  const send = async (batch: Waiting[]): Promise<void> => {
    let out: O[];
    try {
      out = await opts.run(batch.map((w) => w.item));
      if (out.length !== batch.length) throw new Error(`a batch of ${batch.length} was answered ${out.length} times`);
    } catch (err) {
      if (batch.length === 1) batch[0]!.reject(err);
      else for (const w of batch) void alone(w);
      return;
    }
    batch.forEach((w, i) => {
      if (opts.again(out[i]!)) void alone(w);
      else w.resolve(out[i]!);
    });
  };

  const pump = (): void => {
    while (running < opts.inFlight && queue.length > 0) {
      running++;
      void send(take()).finally(() => {
        running--;
        pump();
      });
    }
  };

  return (item) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      pump();
    });
}
