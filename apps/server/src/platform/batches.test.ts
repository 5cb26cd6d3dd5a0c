import { describe, expect, it } from "vitest";
import { batches } from "./batches.ts";

type Call = { id: string; key: string };

/**
 * A database stand-in that answers each batch when the test says so: every
 * batch it was sent, in order, with a way to answer or fail it.
 */
function database() {
  const sent: { ids: string[]; answer: (out?: string[]) => void; fail: (err: Error) => void }[] = [];
  const alone: string[] = [];
  let running = 0;
  let most = 0;
  const send = batches<Call, string>({
    run: (items) =>
      new Promise<string[]>((resolve, reject) => {
        running++;
        most = Math.max(most, running);
        const done = () => running--;
        sent.push({
          ids: items.map((i) => i.id),
          answer: (out) => {
            done();
            resolve(out ?? items.map((i) => `${i.id}:batch`));
          },
          fail: (err) => {
            done();
            reject(err);
          },
        });
      }),
    alone: async (item) => {
      alone.push(item.id);
      if (item.id.startsWith("bad")) throw new Error(`${item.id} refused`);
      return `${item.id}:alone`;
    },
    again: (out) => out.endsWith(":again"),
    key: (item) => item.key,
    most: 3,
    inFlight: 2,
  });
  return { send, sent, alone, mostRunning: () => most };
}

const call = (id: string, key = id): Call => ({ id, key });
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** Calls `ids` while both batches are under way, then lets the first end: they go as the third batch, db.sent[2]. */
async function batchOf(db: ReturnType<typeof database>, ids: string[]) {
  db.send(call("a"));
  db.send(call("b"));
  const sent = ids.map((id) => db.send(call(id)));
  db.sent[0]!.answer();
  await settle();
  expect(db.sent[2]!.ids).toEqual(ids);
  return sent;
}

describe("batches", () => {
  it("sends a call at once and alone while fewer than inFlight batches are under way", async () => {
    const db = database();
    const a = db.send(call("a"));
    const b = db.send(call("b"));
    expect(db.sent.map((s) => s.ids)).toEqual([["a"], ["b"]]);
    db.sent[0]!.answer();
    db.sent[1]!.answer();
    expect([await a, await b]).toEqual(["a:batch", "b:batch"]);
  });

  it("gathers the calls that wait into the next batch, in the order they came, at most `most` at a time", async () => {
    const db = database();
    const first = [db.send(call("a")), db.send(call("b"))];
    const waiting = ["c", "d", "e", "f"].map((id) => db.send(call(id)));
    expect(db.sent).toHaveLength(2);
    db.sent[0]!.answer();
    await settle();
    expect(db.sent[2]!.ids).toEqual(["c", "d", "e"]);
    db.sent[1]!.answer();
    await settle();
    expect(db.sent[3]!.ids).toEqual(["f"]);
    db.sent[2]!.answer();
    db.sent[3]!.answer();
    expect(await Promise.all([...first, ...waiting])).toEqual(
      ["a", "b", "c", "d", "e", "f"].map((id) => `${id}:batch`),
    );
    expect(db.mostRunning()).toBe(2);
  });

  it("never puts two calls of one key in a batch: the second waits for the next", async () => {
    const db = database();
    db.send(call("a"));
    db.send(call("b"));
    // The first's key, and the key of one taken after it.
    const rest = ["c1", "c2", "d1", "d2"].map((id) => db.send(call(id, id[0])));
    db.sent[0]!.answer();
    await settle();
    expect(db.sent[2]!.ids).toEqual(["c1", "d1"]);
    db.sent[1]!.answer();
    await settle();
    expect(db.sent[3]!.ids).toEqual(["c2", "d2"]);
    db.sent[2]!.answer();
    db.sent[3]!.answer();
    expect(await Promise.all(rest)).toEqual(["c1:batch", "c2:batch", "d1:batch", "d2:batch"]);
  });

  it("answers each call of a batch with its own answer", async () => {
    const db = database();
    const rest = await batchOf(db, ["c", "d"]);
    db.sent[2]!.answer(["first", "second"]);
    expect(await Promise.all(rest)).toEqual(["first", "second"]);
  });

  it("sends each call of a failed batch once more alone, so only a call's own error reaches it", async () => {
    const db = database();
    const [good, bad] = await batchOf(db, ["c", "bad"]);
    db.sent[2]!.fail(new Error("the batch failed"));
    expect(await good).toBe("c:alone");
    await expect(bad).rejects.toThrow("bad refused");
    expect(db.alone).toEqual(["c", "bad"]);
  });

  it("fails a batch of one with its own error, without sending it again", async () => {
    const db = database();
    const a = db.send(call("a"));
    db.sent[0]!.fail(new Error("a's own error"));
    await expect(a).rejects.toThrow("a's own error");
    expect(db.alone).toEqual([]);
  });

  it("sends a batch answered the wrong number of times once more alone, call by call", async () => {
    const db = database();
    const rest = await batchOf(db, ["c", "d"]);
    db.sent[2]!.answer(["only one"]);
    expect(await Promise.all(rest)).toEqual(["c:alone", "d:alone"]);
  });

  it("fails a batch of one answered the wrong number of times, saying so", async () => {
    const db = database();
    const a = db.send(call("a"));
    db.sent[0]!.answer(["a:batch", "a:batch"]);
    await expect(a).rejects.toThrow("a batch of 1 was answered 2 times");
  });

  it("sends a call whose answer `again` refuses once more alone, and keeps the others' answers", async () => {
    const db = database();
    const a = db.send(call("a"));
    db.sent[0]!.answer(["a:again"]);
    expect(await a).toBe("a:alone");
    db.send(call("b"));
    db.send(call("c"));
    const rest = [db.send(call("d")), db.send(call("e"))];
    db.sent[1]!.answer();
    await settle();
    db.sent[3]!.answer(["d:batch", "e:again"]);
    expect(await Promise.all(rest)).toEqual(["d:batch", "e:alone"]);
    expect(db.alone).toEqual(["a", "e"]);
  });

  it("goes on with the calls that wait after a batch failed", async () => {
    const db = database();
    const a = db.send(call("a"));
    db.send(call("b"));
    const c = db.send(call("c"));
    db.sent[0]!.fail(new Error("a's own error"));
    await expect(a).rejects.toThrow("a's own error");
    expect(db.sent[2]!.ids).toEqual(["c"]);
    db.sent[2]!.answer();
    expect(await c).toBe("c:batch");
  });
});
