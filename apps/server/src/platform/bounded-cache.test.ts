import { describe, expect, it } from "vitest";
import { boundedCache } from "./bounded-cache.ts";

describe("boundedCache", () => {
  it("keeps up to its limit, then forgets the oldest entry for each new one", () => {
    const cache = boundedCache<number>(2);
    cache.set("a", 1);
    cache.set("b", 2);
    expect([cache.get("a"), cache.get("b"), cache.size]).toEqual([1, 2, 2]);
    cache.set("c", 3);
    expect([cache.get("a"), cache.get("b"), cache.get("c"), cache.size]).toEqual([undefined, 2, 3, 2]);
  });

  it("sets a key it holds again without forgetting another", () => {
    const cache = boundedCache<number>(2);
    cache.set("a", 1);
    cache.set("b", 2);
    cache.set("b", 20);
    expect([cache.get("a"), cache.get("b"), cache.size]).toEqual([1, 20, 2]);
  });
});
