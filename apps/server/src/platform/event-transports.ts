import type { PGlite } from "@electric-sql/pglite";
import type { FastifyBaseLogger } from "fastify";
import { createEventBus, EVENT_CHANNEL, type EventBus, type Transport } from "./event-bus.ts";

const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 5_000;

/**
 * Sends payloads, in order, in one statement through any query function, e.g.
 * the service's pool: `select pg_notify($1, p) from unnest($2::text[]) …`.
 */
type Notify = (channel: string, payloads: string[]) => Promise<void>;

/**
 * One NOTIFY statement at a time per instance: a payload sent while one is
 * under way waits for it and goes with the others that arrived meanwhile, in
 * one statement and one commit. Nothing waits when the bus is quiet; under
 * load many events cost one round trip and one turn at PostgreSQL's
 * notification queue instead of one each. A payload equal to one already in
 * the batch waits for the next one, since PostgreSQL delivers identical
 * notifications of one transaction once. The order of sending is kept.
 */
export function batchedNotify(notify: Notify, channel: string): (payload: string) => Promise<void> {
  type Waiting = { payload: string; resolve: () => void; reject: (err: unknown) => void };
  const queue: Waiting[] = [];
  let sending = false;
  const flush = () => {
    if (sending || queue.length === 0) return;
    const batch: Waiting[] = [];
    const seen = new Set<string>();
    while (queue.length > 0 && !seen.has(queue[0]!.payload)) {
      const next = queue.shift()!;
      seen.add(next.payload);
      batch.push(next);
    }
    sending = true;
    notify(
      channel,
      batch.map((w) => w.payload),
    )
      .then(
        () => {
          for (const w of batch) w.resolve();
        },
        (err: unknown) => {
          for (const w of batch) w.reject(err);
        },
      )
      .finally(() => {
        sending = false;
        flush();
      });
  };
  return (payload) =>
    new Promise<void>((resolve, reject) => {
      queue.push({ payload, resolve, reject });
      flush();
    });
}

/**
 * PostgreSQL LISTEN/NOTIFY. Listening needs a connection of its own, held
 * open for the life of the instance; when it drops (a restart, a failover)
 * it is opened again with backoff, and the outage is logged once each way.
 */
export function postgresTransport(url: string, notify: Notify, logger: FastifyBaseLogger): Transport {
  const send = batchedNotify(notify, EVENT_CHANNEL);
  let closed = false;
  let client: import("pg").Client | null = null;
  let timer: NodeJS.Timeout | undefined;
  let delay = RECONNECT_MIN_MS;
  let lost = false;

  async function connect(onPayload: (payload: string) => void): Promise<void> {
    const { default: pg } = await import("pg");
    const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000, keepAlive: true });
    next.on("notification", (n) => {
      if (n.channel === EVENT_CHANNEL && n.payload !== undefined) onPayload(n.payload);
    });
    // Without a listener a dropped connection would be an uncaught 'error' event and stop the process.
    next.on("error", () => {});
    next.on("end", () => {
      if (client !== next || closed) return;
      client = null;
      if (!lost) logger.warn("event bus: lost its PostgreSQL connection; reconnecting");
      lost = true;
      schedule(onPayload);
    });
    await next.connect();
    await next.query(`listen ${EVENT_CHANNEL}`);
    if (closed) {
      await next.end();
      return;
    }
    client = next;
    delay = RECONNECT_MIN_MS;
    if (lost) logger.info("event bus: listening on PostgreSQL again");
    lost = false;
  }

  function schedule(onPayload: (payload: string) => void): void {
    if (closed) return;
    timer = setTimeout(() => {
      // Only a connection already lost is tried again: its outage has been logged.
      connect(onPayload).catch(() => {
        delay = Math.min(delay * 2, RECONNECT_MAX_MS);
        schedule(onPayload);
      });
    }, delay);
    timer.unref();
  }

  return {
    send,
    async start(onPayload) {
      try {
        await connect(onPayload);
      } catch (err) {
        lost = true;
        logger.warn("event bus: cannot reach PostgreSQL yet; retrying");
        schedule(onPayload);
        throw err;
      }
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}

/** The embedded database: one process, so LISTEN/NOTIFY runs inside it. */
export function pgliteTransport(pglite: PGlite, notify: Notify): Transport {
  let unlisten: (() => Promise<void>) | null = null;
  return {
    send: batchedNotify(notify, EVENT_CHANNEL),
    async start(onPayload) {
      unlisten = await pglite.listen(EVENT_CHANNEL, onPayload);
    },
    async close() {
      await unlisten?.().catch(() => {});
      unlisten = null;
    },
  };
}

/**
 * Redis pub/sub (REDIS_URL). ioredis reconnects and subscribes again by
 * itself; publishing while Redis is away fails at once instead of queueing,
 * so a caller is never held up by it.
 */
export function redisTransport(url: string, logger: FastifyBaseLogger): Transport {
  let publisher: import("ioredis").Redis | null = null;
  let subscriber: import("ioredis").Redis | null = null;
  let lost = false;
  const open = async () => {
    const { Redis } = await import("ioredis");
    const options = {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      retryStrategy: (times: number) => Math.min(RECONNECT_MIN_MS * 2 ** times, RECONNECT_MAX_MS),
    };
    publisher = new Redis(url, options);
    subscriber = new Redis(url, { ...options, enableOfflineQueue: true });
    for (const c of [publisher, subscriber]) {
      c.on("error", () => {
        if (!lost) logger.warn("event bus: lost its Redis connection; reconnecting");
        lost = true;
      });
      c.on("ready", () => {
        if (lost) logger.info("event bus: connected to Redis again");
        lost = false;
      });
    }
  };
  return {
    async send(payload) {
      if (!publisher) throw new Error("event bus: not started");
      await publisher.publish(EVENT_CHANNEL, payload);
    },
    async start(onPayload) {
      await open();
      const sub = subscriber as import("ioredis").Redis;
      sub.on("message", (channel: string, payload: string) => {
        if (channel === EVENT_CHANNEL) onPayload(payload);
      });
      await Promise.all([publisher?.connect(), sub.connect()]);
      await sub.subscribe(EVENT_CHANNEL);
    },
    async close() {
      publisher?.disconnect();
      subscriber?.disconnect();
      publisher = null;
      subscriber = null;
    },
  };
}

/**
 * The bus this instance uses: Redis pub/sub when REDIS_URL is set, otherwise
 * LISTEN/NOTIFY on the service's own database. `client` is the database
 * driver under Drizzle: the embedded PGlite, or the pg pool whose address a
 * listening connection of its own is opened to.
 */
export function openEventBus(opts: {
  redisUrl: string | undefined;
  client: unknown;
  notify: Notify;
  logger: FastifyBaseLogger;
}): EventBus {
  if (opts.redisUrl) return createEventBus("redis", redisTransport(opts.redisUrl, opts.logger), opts.logger);
  const client = opts.client as { listen?: unknown; options?: { connectionString?: string } };
  if (typeof client.listen === "function") {
    return createEventBus("postgres", pgliteTransport(opts.client as PGlite, opts.notify), opts.logger);
  }
  const url = client.options?.connectionString;
  if (!url) throw new Error("event bus: the database driver has no address to listen on");
  return createEventBus("postgres", postgresTransport(url, opts.notify, opts.logger), opts.logger);
}
