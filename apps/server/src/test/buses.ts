import { setTimeout as sleep } from "node:timers/promises";
import type { EventBus } from "../platform/event-bus.ts";

/** A bus that delivers nothing: as an instance that was reconnecting when a change was announced. */
export const deafBus: EventBus = {
  kind: "postgres",
  publish: async () => {},
  publishMany: async () => {},
  subscribe: () => () => {},
  ready: async () => {},
  close: async () => {},
};

/** Waits until `check` holds, as a copy told over the bus comes round; fails after 5 s. */
export async function waitFor(check: () => Promise<boolean>): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > 5_000) throw new Error("not within 5 s");
    await sleep(20);
  }
}

/** The Redis the bus tests use (TEST_REDIS_URL, else the local one). */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** What app.ts sends to PostgreSQL: the payloads of one batch, in order, in one statement. */
export const NOTIFY_MANY = "select pg_notify($1, p) from unnest($2::text[]) with ordinality as t(p, n) order by n";

/** Whether TEST_REDIS_URL answers: the Redis bus tests run only where it does. */
export async function redisAvailable(): Promise<boolean> {
  const { Redis } = await import("ioredis");
  const probe = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on("error", () => {});
  try {
    await probe.connect();
    await probe.ping();
    return true;
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}
