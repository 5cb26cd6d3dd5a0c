/**
 * What the cart benchmarks need before the first scan, made through the
 * API as a shopper's phone and a store's door would: a store with a door
 * scanner key, a range of products, a signed-in shopper (DEV_TOOLS
 * dev-login) and visits whose door has opened.
 */
import { readFileSync } from "node:fs";
import os from "node:os";
import pg from "pg";
import { catalogueCsv, product } from "./catalogue.ts";
import { call, cpuBusy, type Server } from "./lib.ts";

/**
 * Where the bench shops: `stores` (the first is `storeId`) each with its door
 * scanner's key, and the products' barcodes (products are global).
 */
export type Shop = {
  storeId: string;
  doorKey: string;
  barcodes: string[];
  stores: { storeId: string; doorKey: string }[];
};

export const SCAN_PATH = "/api/v1/cart/scan";

/** POST with JSON and an Authorization header; throws on a non-2xx answer, with its text. */
export async function post(url: string, json: unknown, authorization?: string): Promise<unknown> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (authorization) headers.authorization = authorization;
  const res = await fetch(url, {
    method: "POST",
    headers,
    body: JSON.stringify(json),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`POST ${url} answered ${res.status}: ${text.slice(0, 500)}`);
  return text ? JSON.parse(text) : null;
}

/**
 * `stores` stores, each with its door scanner's key, and `products` products
 * (imported as CSV). A shopper has one open visit per store, so a bench that
 * wants the development shopper in N visits at once asks for N stores.
 */
export async function prepareShop(server: Server, products: number, stores = 1): Promise<Shop> {
  const cookie = server.session;
  await call(`${server.base}/api/v1/products/import?dry_run=false`, {
    method: "POST",
    csv: catalogueCsv(1, products),
    cookie,
    timeoutMs: 300_000,
  });
  const made: { storeId: string; doorKey: string }[] = [];
  // A few at a time: thousands of stores for the fan-out are made in seconds, not minutes.
  for (let from = 0; from < stores; from += 20) {
    const batch = Array.from({ length: Math.min(20, stores - from) }, async (_, i) => {
      const store = await call(`${server.base}/api/v1/stores/`, {
        method: "POST",
        json: { name: `Bench cart store ${from + i + 1}` },
        cookie,
      });
      const storeId = ((await store.json()) as { id: string }).id;
      const key = await call(`${server.base}/api/v1/stores/${storeId}/device-keys`, {
        method: "POST",
        json: { kind: "door_scanner" },
        cookie,
      });
      return { storeId, doorKey: ((await key.json()) as { key: string }).key };
    });
    made.push(...(await Promise.all(batch)));
  }
  const barcodes = Array.from({ length: products }, (_, i) => product(i + 1).barcode);
  return { storeId: made[0]!.storeId, doorKey: made[0]!.doorKey, barcodes, stores: made };
}

/**
 * `count` chain-wide multi-buy offers of this week, written as the console
 * writes them (POST /api/v1/offers): one to five products each from the
 * range (so offers overlap, as mix and match does), "3 för 2" and "2 för"
 * an amount, some limited per visit. Every scan's answer then prices its
 * cart with the offers that take its products.
 */
export async function addOffers(server: Server, count: number): Promise<void> {
  if (count === 0) return;
  const res = await call(`${server.base}/api/v1/products/?limit=1000`, { cookie: server.session });
  const products = (await res.json()) as { id: string; price: number }[];
  const today = new Date().toISOString().slice(0, 10);
  const inAWeek = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  for (let i = 0; i < count; i++) {
    const size = 1 + (i % 5);
    const chosen = Array.from({ length: size }, (_, k) => products[(i * 7 + k * 131) % products.length]!);
    const cheapest = Math.min(...chosen.map((p) => p.price));
    const amount = i % 2 === 1 && cheapest >= 1;
    await call(`${server.base}/api/v1/offers`, {
      method: "POST",
      json: {
        label: amount ? "2 för" : "3 för 2",
        kind: amount ? "amount" : "one_free",
        buy: amount ? 2 : 3,
        // Below what two of the cheapest cost, as the console requires.
        amount: amount ? Math.floor(cheapest * 150) / 100 : null,
        product_ids: [...new Set(chosen.map((p) => p.id))],
        store_id: null,
        starts_on: today,
        ends_on: inAWeek,
        limit_per_visit: i % 3 === 0 ? 2 : null,
      },
      cookie: server.session,
    });
  }
}

/** A fresh access token of the development shopper (the same shopper every time). */
export async function shopperToken(base: string): Promise<string> {
  return ((await post(`${base}/api/v1/auth/dev-login`, {})) as { access_token: string }).access_token;
}

/**
 * `count` open visits of the shopper, each through the door, the i-th in
 * the shop's i-th store (one open visit per shopper and store). One at a
 * time: a new entry code revokes the shopper's unused ones, so a visit must
 * pass the door before the next is asked for.
 */
export async function openVisits(base: string, shop: Shop, token: string, count: number): Promise<string[]> {
  if (count > shop.stores.length)
    throw new Error(`${count} open visits need as many stores; prepareShop made ${shop.stores.length}`);
  const visits: string[] = [];
  for (let i = 0; i < count; i++) {
    const { storeId, doorKey } = shop.stores[i]!;
    const entry = (await post(`${base}/api/v1/sessions/entry`, { store_id: storeId }, `Bearer ${token}`)) as {
      session_id: string;
      session_token: string;
      store_id: string;
    };
    await post(`${base}/api/v1/sessions/door/scan`, entry, `Device ${doorKey}`);
    visits.push(entry.session_id);
  }
  return visits;
}

/** Busy share of the CPUs (%) at or under which a measured run may start. */
export const QUIET_CPU = 15;

/**
 * Waits, up to a minute, for the machine's CPUs to be at most QUIET_CPU %
 * busy (other processes: the bench and its servers are idle here), so a
 * measured run does not start while something else is using the CPUs.
 * Answers the last reading: the "CPU busy before" of the report.
 */
export async function quietCpu(): Promise<number | null> {
  const deadline = Date.now() + 60_000;
  let busy = await cpuBusy();
  while (busy !== null && busy > QUIET_CPU && Date.now() < deadline) busy = await cpuBusy();
  return busy;
}

/**
 * How many cores the whole machine kept busy from now until the returned
 * function is called, from /proc/stat (null elsewhere).
 */
export function machineCpu(): () => number | null {
  const sample = () => {
    try {
      const fields = readFileSync("/proc/stat", "utf8").split("\n", 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
      // user nice system idle iowait irq softirq steal: idle and iowait are not busy.
      const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
      return { total, idle: fields[3]! + fields[4]! };
    } catch {
      return null;
    }
  };
  const first = sample();
  return () => {
    const last = sample();
    if (!first || !last || last.total === first.total) return null;
    const share = 1 - (last.idle - first.idle) / (last.total - first.total);
    return share * os.availableParallelism();
  };
}

/** The bearer token the cart bench's server is started with, so that the bench can read its /metrics. */
export const METRICS_TOKEN = "bench-metrics-token-0123456789";

/**
 * What the database server and the measured server have done so far:
 * PostgreSQL's checkpoints (pg_stat_bgwriter, any database's) and the
 * server's full (mark-compact) garbage collections with the milliseconds
 * its main thread was paused for them (its /metrics, the process's GC
 * histogram). `since` gives what happened between two readings.
 */
export async function counters(base: string, url: string): Promise<Counters> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const made = await client
    .query<{ n: number }>("select (checkpoints_timed + checkpoints_req)::int as n from pg_stat_bgwriter")
    .finally(() => client.end());
  const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  if (!res.ok) throw new Error(`GET /metrics answered ${res.status}`);
  const text = await res.text();
  // The histogram has a line per kind of collection made so far; a young one comes within the first requests.
  if (!text.includes("glide_nodejs_gc_duration_seconds_count{")) throw new Error("/metrics has no GC histogram");
  const major = (name: string) => Number(new RegExp(`^${name}\\{kind="major"\\} (\\S+)$`, "m").exec(text)?.[1] ?? 0);
  return {
    checkpoints: made.rows[0]!.n,
    collections: major("glide_nodejs_gc_duration_seconds_count"),
    collectionMs: 1000 * major("glide_nodejs_gc_duration_seconds_sum"),
  };
}

export type Counters = { checkpoints: number; collections: number; collectionMs: number };

export const since = (before: Counters, after: Counters): Counters => ({
  checkpoints: after.checkpoints - before.checkpoints,
  collections: after.collections - before.collections,
  collectionMs: after.collectionMs - before.collectionMs,
});
