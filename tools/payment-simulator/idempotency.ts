import { ApiError } from "./errors.ts";

/**
 * Idempotency-Key as Stripe keeps it: the first request with a key runs and
 * its answer (success or error) is kept; the same key with the same
 * parameters gets that answer again, marked as replayed; the same key with
 * other parameters or on another endpoint is a 400 idempotency_error; while
 * the first is still running, another request with its key is refused with
 * 409 and does not run. A request refused before it began keeps nothing.
 */
type Answer = { status: number; body: unknown };
type Entry =
  | { state: "running"; fingerprint: string }
  | { state: "done"; fingerprint: string; answer: Answer; requestId: string; at: number };
type Counts = Omit<KeyStats, "in_progress">;

/** The kept answers and the counts, for the state file (state-file.ts); running requests are left out. */
export type IdempotencySnapshot = {
  entries: [string, Extract<Entry, { state: "done" }>][];
  counts: [string, Counts][];
};

export type KeyStats = {
  /** Requests that ran (at most one is kept). */
  executions: number;
  replays: number;
  /** Refused with 409 while the first was running. */
  conflicts: number;
  /** Refused with 400: the key was used with other parameters. */
  mismatches: number;
  in_progress: boolean;
};

const MAX_KEY_LENGTH = 255;
/** Stripe forgets a key after 24 hours; a restarted simulator does too (in one run it keeps them all). */
const KEPT_MS = 24 * 3600_000;

export function createIdempotency(now: () => number = Date.now) {
  const entries = new Map<string, Entry>();
  const counts = new Map<string, Counts>();
  const count = (key: string) => {
    const c = counts.get(key) ?? { executions: 0, replays: 0, conflicts: 0, mismatches: 0 };
    counts.set(key, c);
    return c;
  };
  const error = (e: ApiError): Answer => ({ status: e.status, body: { error: e.body } });

  return {
    snapshot(): IdempotencySnapshot {
      const done = [...entries].filter((e): e is [string, Extract<Entry, { state: "done" }>] => e[1].state === "done");
      return { entries: done, counts: [...counts] };
    },
    restore(s: IdempotencySnapshot) {
      for (const [key, entry] of s.entries) if (entry.at > now() - KEPT_MS) entries.set(key, entry);
      for (const [key, c] of s.counts) counts.set(key, c);
    },

    stats(key: string): KeyStats {
      const c = counts.get(key) ?? { executions: 0, replays: 0, conflicts: 0, mismatches: 0 };
      return { ...c, in_progress: entries.get(key)?.state === "running" };
    },

    /** `fingerprint` is the endpoint on its first line, then the parameters in canonical form. */
    async run(
      key: string,
      fingerprint: string,
      requestId: string,
      execute: () => Promise<Answer>,
    ): Promise<Answer & { replayedFrom: string | null }> {
      if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
        const e = new ApiError(
          400,
          {
            type: "invalid_request_error",
            message: `Invalid Idempotency-Key: it must be 1 to ${MAX_KEY_LENGTH} characters long.`,
          },
          false,
        );
        return { ...error(e), replayedFrom: null };
      }
      const entry = entries.get(key);
      if (entry?.state === "running") {
        count(key).conflicts++;
        const e = new ApiError(
          409,
          {
            type: "idempotency_error",
            code: "idempotency_key_in_use",
            message: `Another request with the idempotency key '${key}' is still in progress. Try again later.`,
          },
          false,
        );
        return { ...error(e), replayedFrom: null };
      }
      if (entry?.state === "done") {
        if (entry.fingerprint !== fingerprint) {
          count(key).mismatches++;
          const [was, now] = [entry.fingerprint.split("\n")[0], fingerprint.split("\n")[0]];
          const message =
            was === now
              ? `Keys for idempotent requests can only be used with the same parameters they were first used with. Use a key other than '${key}' for a different request.`
              : `Keys for idempotent requests can only be used for the same endpoint they were first used for ('${was}' vs '${now}').`;
          const e = new ApiError(400, { type: "idempotency_error", message }, false);
          return { ...error(e), replayedFrom: null };
        }
        count(key).replays++;
        return { ...entry.answer, replayedFrom: entry.requestId };
      }
      entries.set(key, { state: "running", fingerprint });
      count(key).executions++;
      try {
        const answer = await execute();
        entries.set(key, { state: "done", fingerprint, answer, requestId, at: now() });
        return { ...answer, replayedFrom: null };
      } catch (err) {
        const e =
          err instanceof ApiError
            ? err
            : new ApiError(500, { type: "api_error", message: (err as Error).message }, false);
        if (e.saved) entries.set(key, { state: "done", fingerprint, answer: error(e), requestId, at: now() });
        else entries.delete(key);
        return { ...error(e), replayedFrom: null };
      }
    },
  };
}

export type Idempotency = ReturnType<typeof createIdempotency>;
