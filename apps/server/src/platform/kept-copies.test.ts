import { describe, expect, it } from "vitest";
import { keptCopies } from "./kept-copies.ts";

/**
 * Copies kept per instance: read once, answered while fresh, answered on
 * while a background read replaces them, and waited for only when there is
 * nothing recent enough to answer with.
 */
const FRESH = 1_000;
const STALE = 500;

function world() {
  let clock = 0;
  const reads: string[] = [];
  const failures: string[] = [];
  // What the "database" holds per key; a read of a key in `broken` fails, one in `held` waits for `release`.
  const rows = new Map<string, string>();
  const broken = new Set<string>();
  const held = new Map<string, () => void>();
  const copies = keptCopies<{ v: string }>({
    load: async (key) => {
      reads.push(key);
      // Whether a read fails, and what it finds, is decided as it begins; a held one answers once released.
      const fails = broken.has(key);
      const found = rows.get(key) ?? "none";
      if (held.has(key)) await new Promise<void>((resolve) => held.set(key, resolve));
      if (fails) throw new Error(`cannot read ${key}`);
      return { v: found };
    },
    freshMs: FRESH,
    staleMs: STALE,
    same: (a, b) => a.v === b.v,
    limit: 3,
    now: () => clock,
    onRefreshError: (key, err) => failures.push(`${key}: ${(err as Error).message}`),
  });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return {
    copies,
    reads,
    failures,
    rows,
    broken,
    held,
    settle,
    tick: (ms: number) => {
      clock += ms;
    },
  };
}

describe("a kept copy", () => {
  it("is read once and answered until FRESH, then answered on while one read in the background replaces it", async () => {
    const w = world();
    w.rows.set("a", "1");
    expect(await w.copies.get("a")).toEqual({ v: "1" });
    w.rows.set("a", "2");
    w.tick(FRESH - 1);
    expect(await w.copies.get("a")).toEqual({ v: "1" });
    expect(w.reads).toEqual(["a"]);
    w.tick(1);
    // Due: the old value at once, and only one background read however many ask.
    expect(await Promise.all([w.copies.get("a"), w.copies.get("a")])).toEqual([{ v: "1" }, { v: "1" }]);
    expect(w.reads).toEqual(["a", "a"]);
    await w.settle();
    expect(await w.copies.get("a")).toEqual({ v: "2" });
    // The new copy is fresh from when its read began.
    w.tick(FRESH - 1);
    expect(await w.copies.get("a")).toEqual({ v: "2" });
    expect(w.reads).toEqual(["a", "a"]);
  });

  it("keeps its value itself when the new read finds the same, fresh again", async () => {
    const w = world();
    w.rows.set("a", "1");
    const first = await w.copies.get("a");
    w.tick(FRESH);
    expect(await w.copies.get("a")).toBe(first);
    await w.settle();
    expect(await w.copies.get("a")).toBe(first);
    w.tick(FRESH - 1);
    await w.copies.get("a");
    expect(w.reads).toEqual(["a", "a"]);
    w.tick(1);
    await w.copies.get("a");
    expect(w.reads).toEqual(["a", "a", "a"]);
  });

  it("past FRESH + STALE is read again and waited for, and not a millisecond before", async () => {
    const w = world();
    w.rows.set("a", "1");
    await w.copies.get("a");
    w.rows.set("a", "2");
    w.broken.add("a");
    w.tick(FRESH + STALE - 1);
    // The background read fails: the copy answers on, and the failure is told.
    expect(await w.copies.get("a")).toEqual({ v: "1" });
    await w.settle();
    expect(w.failures).toEqual(["a: cannot read a"]);
    w.broken.delete("a");
    w.tick(1);
    expect(await w.copies.get("a")).toEqual({ v: "2" });
  });

  it("whose background read failed is read again by the next request past FRESH", async () => {
    const w = world();
    await w.copies.get("a");
    w.broken.add("a");
    w.tick(FRESH);
    await w.copies.get("a");
    await w.settle();
    w.broken.delete("a");
    w.rows.set("a", "2");
    expect(await w.copies.get("a")).toEqual({ v: "none" });
    await w.settle();
    expect(await w.copies.get("a")).toEqual({ v: "2" });
    expect(w.reads).toEqual(["a", "a", "a"]);
    expect(w.failures).toHaveLength(1);
  });

  it("that could not be read the first time is not kept: every caller of that read hears the error, the next reads again", async () => {
    const w = world();
    w.broken.add("a");
    const [one, two] = await Promise.allSettled([w.copies.get("a"), w.copies.get("a")]);
    expect(one.status).toBe("rejected");
    expect(two.status).toBe("rejected");
    expect(w.reads).toEqual(["a"]);
    w.broken.delete("a");
    expect(await w.copies.get("a")).toEqual({ v: "none" });
    expect(w.copies.size).toBe(1);
  });

  it("being read for the first time is waited for by every caller, even past FRESH", async () => {
    const w = world();
    w.held.set("a", () => {});
    const first = w.copies.get("a");
    w.tick(FRESH + STALE);
    const second = w.copies.get("a");
    w.held.get("a")!();
    expect(await first).toBe(await second);
    expect(w.reads).toEqual(["a"]);
  });

  it("dropped while read in the background is not brought back by that read", async () => {
    const w = world();
    w.rows.set("a", "old");
    await w.copies.get("a");
    // Changed by another instance whose message was missed: the read in the background finds it.
    w.rows.set("a", "missed");
    w.tick(FRESH);
    w.held.set("a", () => {});
    expect(await w.copies.get("a")).toEqual({ v: "old" });
    // A change: its copy is dropped while the read that began before it is still under way.
    w.copies.drop("a");
    w.rows.set("a", "new");
    w.held.get("a")!();
    await w.settle();
    w.held.delete("a");
    expect(await w.copies.get("a")).toEqual({ v: "new" });
    expect(w.reads).toEqual(["a", "a", "a"]);
  });

  it("made by a read in the background is read again in the background in its turn", async () => {
    const w = world();
    w.rows.set("a", "1");
    await w.copies.get("a");
    w.rows.set("a", "2");
    w.tick(FRESH);
    await w.copies.get("a");
    await w.settle();
    expect(await w.copies.get("a")).toEqual({ v: "2" });
    w.rows.set("a", "3");
    w.tick(FRESH);
    expect(await w.copies.get("a")).toEqual({ v: "2" });
    await w.settle();
    expect(await w.copies.get("a")).toEqual({ v: "3" });
    expect(w.reads).toEqual(["a", "a", "a"]);
  });

  it("whose first read fails after it was dropped and read anew leaves the new copy alone", async () => {
    const w = world();
    w.held.set("a", () => {});
    w.broken.add("a");
    const failing = w.copies.get("a");
    const release = w.held.get("a")!;
    w.held.delete("a");
    w.copies.drop("a");
    w.broken.delete("a");
    w.rows.set("a", "new");
    expect(await w.copies.get("a")).toEqual({ v: "new" });
    release();
    await expect(failing).rejects.toThrow("cannot read a");
    expect(await w.copies.get("a")).toEqual({ v: "new" });
    expect(w.reads).toEqual(["a", "a"]);
  });

  it("is one per key, at most `limit` of them, the oldest made forgotten first; clear forgets all", async () => {
    const w = world();
    await w.copies.get("a");
    await w.copies.get("b");
    await w.copies.get("c");
    await w.copies.get("a");
    expect(w.reads).toEqual(["a", "b", "c"]);
    await w.copies.get("d");
    expect(w.copies.size).toBe(3);
    await w.copies.get("b");
    await w.copies.get("a");
    expect(w.reads).toEqual(["a", "b", "c", "d", "a"]);
    w.copies.clear();
    expect(w.copies.size).toBe(0);
    await w.copies.get("b");
    expect(w.reads).toEqual(["a", "b", "c", "d", "a", "b"]);
  });
});
