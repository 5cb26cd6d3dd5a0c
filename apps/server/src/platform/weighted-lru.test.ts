import { describe, expect, it } from "vitest";
import { weightedLru } from "./weighted-lru.ts";

const sized = (budget: number, maxEntry?: number) =>
  weightedLru<string>({ budget, weigh: (value) => value.length, ...(maxEntry === undefined ? {} : { maxEntry }) });

describe("a copy kept within a budget of weight", () => {
  it("answers what was kept, replaces a key's value and its weight, and forgets a dropped key", () => {
    const kept = sized(10);
    kept.set("a", "xx");
    kept.set("b", "yyy");
    expect([kept.get("a"), kept.get("b"), kept.get("c")]).toEqual(["xx", "yyy", undefined]);
    kept.set("a", "zzzz");
    expect([kept.get("a"), kept.size, kept.weight]).toEqual(["zzzz", 2, 7]);
    kept.drop("a");
    kept.drop("never kept");
    expect([kept.get("a"), kept.size, kept.weight]).toEqual([undefined, 1, 3]);
  });

  it("fills its budget exactly; one more forgets the least recently used, a read counting as use", () => {
    const kept = sized(10);
    kept.set("a", "aaaa");
    kept.set("b", "bbbb");
    kept.get("a");
    kept.set("c", "cc");
    expect([kept.size, kept.weight]).toEqual([3, 10]);
    kept.set("d", "d");
    expect(["a", "b", "c", "d"].map((key) => kept.get(key) !== undefined)).toEqual([true, false, true, true]);
    expect(kept.weight).toBe(7);
    // Heavy enough to push out everything else, in order of use.
    kept.set("e", "eeeeeeeee");
    expect([kept.get("e"), kept.get("d"), kept.size, kept.weight]).toEqual(["eeeeeeeee", "d", 2, 10]);
  });

  it("keeps a value as heavy as one entry may be, and not one heavier, without touching the rest", () => {
    const kept = sized(10, 4);
    kept.set("small", "s");
    kept.set("edge", "eeee");
    kept.set("over", "ooooo");
    expect([kept.get("edge"), kept.get("over"), kept.get("small")]).toEqual(["eeee", undefined, "s"]);
    // A key whose new value is too heavy loses its old one too: it is never answered stale.
    kept.set("small", "sssss");
    expect([kept.get("small"), kept.weight]).toEqual([undefined, 4]);
    // Without maxEntry, one entry may weigh the whole budget.
    const whole = sized(3);
    whole.set("all", "xyz");
    whole.set("more", "wxyz");
    expect([whole.get("all"), whole.get("more"), whole.weight]).toEqual(["xyz", undefined, 3]);
  });
});
