import net from "node:net";
import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NOTIFY_MANY, redisAvailable, TEST_REDIS_URL } from "../test/buses.ts";
import { TEST_DATABASE_URL } from "../test/harness.ts";
import { createEventBus, type EventBus } from "./event-bus.ts";
import { postgresTransport, redisTransport } from "./event-transports.ts";

/**
 * The buses' connections lost and found again, as a database restart or a
 * network fault does it: each transport's connections go through a gate in
 * this test that can refuse new connections and cut the open ones, while
 * the database or Redis behind it stays up.
 */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A TCP relay to `target` on a port of its own: `close` refuses new connections and cuts the open ones. */
async function gate(target: URL) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;
  const open = () =>
    new Promise<void>((resolve) => {
      const listening = net.createServer((inbound) => {
        const outbound = net.connect(Number(target.port), target.hostname);
        for (const [from, to] of [
          [inbound, outbound],
          [outbound, inbound],
        ] as const) {
          sockets.add(from);
          from.pipe(to);
          from.on("error", () => to.destroy());
          from.on("close", () => {
            sockets.delete(from);
            to.destroy();
          });
        }
      });
      server = listening;
      listening.listen(port, "127.0.0.1", () => {
        port = (listening.address() as net.AddressInfo).port;
        resolve();
      });
    });
  const close = async () => {
    const closing = server;
    server = null;
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => (closing ? closing.close(resolve) : resolve(undefined)));
  };
  await open();
  return {
    open,
    close,
    /** Cuts the open connections and takes new ones. */
    cut: () => {
      for (const socket of sockets) socket.destroy();
    },
    url: (path = "") => `${target.protocol}//${target.username ? `${target.username}@` : ""}127.0.0.1:${port}${path}`,
    connections: () => sockets.size / 2,
  };
}

/** A logger that keeps what the bus said at warn and info. */
function listeningLogger() {
  const lines: string[] = [];
  const logger = pino({ level: "info" }, { write: (line: string) => lines.push(JSON.parse(line).msg) });
  return { logger, lines };
}

/** Publishes on `from` until `to` hears it, each try bounded, and the whole wait too; true when it arrived. */
async function deliveredWithin(send: () => Promise<void>, to: EventBus, topic: string, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const heard = new Promise<boolean>((resolve) => {
      const stop = to.subscribe(topic, () => {
        stop();
        resolve(true);
      });
      setTimeout(() => {
        stop();
        resolve(false);
      }, 150);
    });
    await send().catch(() => {});
    if (await heard) return true;
  }
  return false;
}

describe.skipIf(!TEST_DATABASE_URL)("event bus on PostgreSQL, its listening connection lost and found", () => {
  const url = new URL(TEST_DATABASE_URL ?? "postgres://127.0.0.1/skipped");
  const silent = pino({ level: "silent" });
  let pool: pg.Pool;
  let sender: EventBus;
  const notify = async (channel: string, payloads: string[]) => {
    await pool.query(NOTIFY_MANY, [channel, payloads]);
  };
  beforeAll(() => {
    pool = new pg.Pool({ connectionString: url.href, max: 2 });
    sender = createEventBus("postgres", postgresTransport(url.href, notify, silent), silent);
  });
  afterAll(async () => {
    await sender.close();
    await pool.end();
  });

  it("starts without the database, says so once, and listens as soon as the database can be reached", async () => {
    const relay = await gate(url);
    await relay.close();
    const { logger, lines } = listeningLogger();
    const bus = createEventBus("postgres", postgresTransport(relay.url(url.pathname), notify, logger), logger);
    try {
      await expect(bus.ready()).rejects.toThrow();
      // Several retries fail meanwhile (100, 200, 400 ms apart): one warning for the whole outage.
      await sleep(800);
      expect(lines).toEqual(["event bus: cannot reach PostgreSQL yet; retrying"]);
      await relay.open();
      await sender.ready();
      // The tries come 100, 200, 400, 800 ms apart, up to 5 s: the next one is within 1.6 s.
      expect(await deliveredWithin(() => sender.publish("cart:late", 1), bus, "cart:late", 2_500)).toBe(true);
      expect(lines).toEqual([
        "event bus: cannot reach PostgreSQL yet; retrying",
        "event bus: listening on PostgreSQL again",
      ]);
      // The outage's growing wait between tries (up to 1.6 s by now) starts again from 100 ms once it is over.
      relay.cut();
      expect(await deliveredWithin(() => sender.publish("cart:late", 2), bus, "cart:late", 1_000)).toBe(true);
    } finally {
      await bus.close();
      await relay.close();
    }
  });

  it("listens again at once after its connection is cut, says so once each way, and not after it is closed", async () => {
    const relay = await gate(url);
    const { logger, lines } = listeningLogger();
    const bus = createEventBus("postgres", postgresTransport(relay.url(url.pathname), notify, logger), logger);
    try {
      await Promise.all([bus.ready(), sender.ready()]);
      expect(lines).toEqual([]);
      relay.cut();
      // The first try comes 100 ms after the loss: well within a second.
      expect(await deliveredWithin(() => sender.publish("cart:cut", 1), bus, "cart:cut", 1_000)).toBe(true);
      expect(lines).toEqual([
        "event bus: lost its PostgreSQL connection; reconnecting",
        "event bus: listening on PostgreSQL again",
      ]);
      // A second loss is told again: the outage before it ended.
      relay.cut();
      expect(await deliveredWithin(() => sender.publish("cart:cut", 2), bus, "cart:cut", 1_000)).toBe(true);
      expect(lines).toHaveLength(4);

      await bus.close();
      relay.cut();
      await sleep(400);
      expect(relay.connections()).toBe(0);
      expect(lines).toHaveLength(4);
    } finally {
      await bus.close();
      await relay.close();
    }
  });
});

describe.skipIf(!(await redisAvailable()))("event bus on Redis, its connections lost and found", () => {
  it("refuses to publish while Redis is away, says so once each way, and delivers again when it is back", async () => {
    const relay = await gate(new URL(TEST_REDIS_URL));
    const { logger, lines } = listeningLogger();
    const a = createEventBus("redis", redisTransport(relay.url(), logger), logger);
    const silent = pino({ level: "silent" });
    const b = createEventBus("redis", redisTransport(relay.url(), silent), silent);
    try {
      await Promise.all([a.ready(), b.ready()]);
      await relay.close();
      // No queue while it is away: the publisher is told at once.
      await expect(a.publish("cart:away", 1)).rejects.toThrow();
      // Its tries to reconnect are refused (200 ms after the loss, then longer): told once.
      for (let waited = 0; lines.length === 0 && waited < 3_000; waited += 50) await sleep(50);
      await sleep(700);
      expect(lines).toEqual(["event bus: lost its Redis connection; reconnecting"]);
      await relay.open();
      // Its tries come 200, 400, 800, 1,600 ms apart, up to 5 s: the next one is within 1.6 s.
      expect(await deliveredWithin(() => a.publish("cart:back", 1), b, "cart:back", 3_000)).toBe(true);
      expect(lines).toEqual([
        "event bus: lost its Redis connection; reconnecting",
        "event bus: connected to Redis again",
      ]);
    } finally {
      await Promise.all([a.close(), b.close()]);
      await relay.close();
    }
  });
});
