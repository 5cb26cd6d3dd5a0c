import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import pino from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { NOTIFY_MANY, redisAvailable, TEST_REDIS_URL } from "../test/buses.ts";
import { TEST_DATABASE_URL } from "../test/harness.ts";
import { createEventBus, EVENT_CHANNEL, type EventBus, MAX_EVENT_BYTES } from "./event-bus.ts";
import { pgliteTransport, postgresTransport, redisTransport } from "./event-transports.ts";

const logger = pino({ level: "silent" });

/** Resolves with the first `count` messages `bus` delivers on `topic`, or rejects after `ms`. */
function collect(bus: EventBus, topic: string, count: number, ms = 3_000): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    const got: unknown[] = [];
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`got ${got.length} of ${count} messages on ${topic}`));
    }, ms);
    const stop = bus.subscribe(topic, (m) => {
      got.push(m);
      if (got.length === count) {
        clearTimeout(timer);
        stop();
        resolve(got);
      }
    });
  });
}

/** Waits `ms` and returns what arrived on `topic` meanwhile: proves that something did not arrive. */
async function quietFor(bus: EventBus, topic: string, ms = 300): Promise<unknown[]> {
  const got: unknown[] = [];
  const stop = bus.subscribe(topic, (m) => got.push(m));
  await new Promise((r) => setTimeout(r, ms));
  stop();
  return got;
}

describe("event bus on the embedded database", () => {
  const pglite = new PGlite();
  const notify = async (channel: string, payloads: string[]) => {
    await pglite.query(NOTIFY_MANY, [channel, payloads]);
  };
  const bus = createEventBus("postgres", pgliteTransport(pglite, notify), logger);
  afterAll(async () => {
    await bus.close();
    await pglite.close();
  });

  it("delivers to every subscriber of the topic and to no other topic", async () => {
    await bus.ready();
    const first = collect(bus, "cart:a", 2);
    const second = collect(bus, "cart:a", 2);
    const other = quietFor(bus, "cart:b");
    await bus.publish("cart:a", { n: 1 });
    await bus.publish("cart:a", { n: 2, name: "Mjölk 1,5 %" });
    expect(await first).toEqual([{ n: 1 }, { n: 2, name: "Mjölk 1,5 %" }]);
    expect(await second).toEqual([{ n: 1 }, { n: 2, name: "Mjölk 1,5 %" }]);
    expect(await other).toEqual([]);
  });

  it("stops delivering to a handler once it unsubscribes", async () => {
    const seen: unknown[] = [];
    const stop = bus.subscribe("cart:c", (m) => seen.push(m));
    const stays = collect(bus, "cart:c", 2);
    await bus.publish("cart:c", 1);
    await new Promise((r) => setTimeout(r, 50));
    stop();
    await bus.publish("cart:c", 2);
    expect(await stays).toEqual([1, 2]);
    expect(seen).toEqual([1]);
  });

  it("refuses an event over the NOTIFY limit, and takes one just under it", async () => {
    const overhead = JSON.stringify({ t: "big", m: "" }).length;
    await expect(bus.publish("big", "x".repeat(MAX_EVENT_BYTES - overhead + 1))).rejects.toThrow(/limit/);
    const arrives = collect(bus, "big", 1);
    await bus.publish("big", "x".repeat(MAX_EVENT_BYTES - overhead));
    expect(((await arrives)[0] as string).length).toBe(MAX_EVENT_BYTES - overhead);
  });

  it("delivers several topics' events sent as one message, each to its own subscribers, in order", async () => {
    const sent: string[] = [];
    const counting = createEventBus(
      "postgres",
      pgliteTransport(pglite, async (channel, payloads) => {
        sent.push(...payloads);
        await notify(channel, payloads);
      }),
      logger,
    );
    await counting.ready();
    const cart = collect(counting, "cart:m", 2);
    const sessions = collect(counting, "sessions.changed", 1);
    const other = quietFor(counting, "cart:n");
    await counting.publishMany([
      { topic: "cart:m", message: { n: 1 } },
      { topic: "sessions.changed", message: { kind: "item_added" } },
      { topic: "cart:m", message: { n: 2 } },
    ]);
    expect(await cart).toEqual([{ n: 1 }, { n: 2 }]);
    expect(await sessions).toEqual([{ kind: "item_added" }]);
    expect(await other).toEqual([]);
    expect(sent).toHaveLength(1);
    // Nothing to send sends nothing; a message that is JSON but no envelope is ignored.
    await counting.publishMany([]);
    await notify(EVENT_CHANNEL, ["null"]);
    expect(sent).toHaveLength(1);
    await counting.close();
  });

  it("sends events published together in one statement, in order, and identical ones in the next", async () => {
    const batches: string[][] = [];
    let failNext = false;
    const batching = createEventBus(
      "postgres",
      pgliteTransport(pglite, async (channel, payloads) => {
        batches.push(payloads.map((p) => (JSON.parse(p) as { m: string }).m));
        if (failNext) {
          failNext = false;
          throw new Error("database away");
        }
        await notify(channel, payloads);
      }),
      logger,
    );
    await batching.ready();
    const names = Array.from({ length: 10 }, (_, i) => `e${i}`);
    const arrives = collect(batching, "cart:batch", 20);
    // Published at once: the first goes alone, the others wait for it and go together; a payload equal to one in
    // the batch (PostgreSQL would deliver it once) starts the next.
    await Promise.all([...names, ...names].map((n) => batching.publish("cart:batch", n)));
    expect(await arrives).toEqual([...names, ...names]);
    expect(batches).toEqual([["e0"], [...names.slice(1), "e0"], names.slice(1)]);

    // A failed statement fails the publishes it carried, and only those; the next ones go.
    batches.length = 0;
    failNext = true;
    const first = batching.publish("cart:batch", "lost");
    const [second, third] = ["x", "y"].map((n) => batching.publish("cart:batch", n));
    await expect(first).rejects.toThrow("database away");
    await expect(Promise.all([second, third])).resolves.toEqual([undefined, undefined]);
    expect(batches).toEqual([["lost"], ["x", "y"]]);
    await batching.close();
  });

  it("keeps delivering when one handler throws", async () => {
    const stop = bus.subscribe("cart:d", () => {
      throw new Error("boom");
    });
    const ok = collect(bus, "cart:d", 1);
    await bus.publish("cart:d", "still here");
    expect(await ok).toEqual(["still here"]);
    stop();
  });
});

describe.skipIf(!TEST_DATABASE_URL)("event bus on PostgreSQL, two instances", () => {
  const url = TEST_DATABASE_URL as string;
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const notify = async (channel: string, payloads: string[]) => {
    await pool.query(NOTIFY_MANY, [channel, payloads]);
  };
  const a = createEventBus("postgres", postgresTransport(url, notify, logger), logger);
  const b = createEventBus("postgres", postgresTransport(url, notify, logger), logger);
  afterAll(async () => {
    await Promise.all([a.close(), b.close()]);
    await pool.end();
  });

  it("an event published on instance A reaches a subscriber on instance B", async () => {
    await Promise.all([a.ready(), b.ready()]);
    const onB = collect(b, "cart:x", 1);
    await a.publish("cart:x", { type: "cart_updated" });
    expect(await onB).toEqual([{ type: "cart_updated" }]);
  });

  it("listens again after its connection is killed", async () => {
    const killed = await pool.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and query = 'listen glide_events' and pid <> pg_backend_pid()`,
    );
    expect(killed.rowCount).toBeGreaterThanOrEqual(2);
    // Publish until B is back; each attempt is bounded, and so is the whole wait.
    const deadline = Date.now() + 8_000;
    let delivered = false;
    while (!delivered && Date.now() < deadline) {
      const onB = collect(b, "cart:y", 1, 300);
      await a.publish("cart:y", "again");
      delivered = await onB.then(
        () => true,
        () => false,
      );
    }
    expect(delivered).toBe(true);
  });
});

describe.skipIf(!(await redisAvailable()))("event bus on Redis, two instances", () => {
  const a = createEventBus("redis", redisTransport(TEST_REDIS_URL, logger), logger);
  const b = createEventBus("redis", redisTransport(TEST_REDIS_URL, logger), logger);
  afterAll(async () => {
    await Promise.all([a.close(), b.close()]);
  });

  it("an event published on instance A reaches a subscriber on instance B, and not another topic", async () => {
    await Promise.all([a.ready(), b.ready()]);
    const topic = `cart:${Math.random()}`;
    const onB = collect(b, topic, 2);
    const other = quietFor(b, `${topic}-other`);
    await a.publish(topic, { n: 1 });
    await b.publish(topic, { n: 2 });
    expect(await onB).toEqual([{ n: 1 }, { n: 2 }]);
    expect(await other).toEqual([]);
  });
});
