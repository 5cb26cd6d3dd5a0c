import { describe, expect, it } from "vitest";
import { oneAtATime } from "./one-at-a-time.ts";

const later = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("one at a time per key", () => {
  it("runs calls on one key in turn, other keys beside them, and answers each its own result or error", async () => {
    const queue = oneAtATime();
    const log: string[] = [];
    const step = (key: string, n: number, fail = false) =>
      queue(key, async () => {
        log.push(`${key}${n} in`);
        await later();
        log.push(`${key}${n} out`);
        if (fail) throw new Error(`${key}${n} failed`);
        return `${key}${n}`;
      });
    const answers = await Promise.allSettled([step("a", 1), step("a", 2, true), step("b", 1), step("a", 3)]);
    expect(answers.map((a) => (a.status === "fulfilled" ? a.value : (a.reason as Error).message))).toEqual([
      "a1",
      "a2 failed",
      "b1",
      "a3",
    ]);
    // a's calls never overlap, and a failed one does not stop the next; b ran while a1 did.
    const a = log.filter((entry) => entry.startsWith("a"));
    expect(a).toEqual(["a1 in", "a1 out", "a2 in", "a2 out", "a3 in", "a3 out"]);
    expect(log.indexOf("b1 in")).toBeLessThan(log.indexOf("a1 out"));
  });
});
