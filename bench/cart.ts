/**
 * `POST /api/v1/cart/scan` on PostgreSQL beside a bare Fastify route: the
 * most it serves at BENCH_CONNECTIONS connections, its latency at a steady
 * BENCH_CART_RATE scans per second, and where a scan's time goes (the
 * statements it sends, counted, timed and EXPLAINed). Returns its section
 * of bench/results.md (bench/cart-report.ts).
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { pgbenchRuns, profiledScans, statementRuns } from "./cart-anchor.ts";
import { type CartFigures, type CartRun, cartReport } from "./cart-report.ts";
import {
  addOffers,
  counters,
  METRICS_TOKEN,
  machineCpu,
  openVisits,
  post,
  prepareShop,
  quietCpu,
  SCAN_PATH,
  shopperToken,
  since,
} from "./cart-setup.ts";
import {
  autocannon,
  call,
  countRows,
  failure,
  freePort,
  HOST,
  PAUSE_MS,
  type Server,
  type Skipped,
  setting,
  start,
  stop,
  waitIdle,
  waitReady,
  withPostgres,
  withServer,
} from "./lib.ts";
import { isolatedSteadyLoad, quantile } from "./steady.ts";

const duration = setting("BENCH_DURATION", 10);
const warmup = Math.min(3, duration);
const connections = setting("BENCH_CONNECTIONS", 100);
const rate = setting("BENCH_CART_RATE", 500);
const visitCount = setting("BENCH_CART_VISITS", 200);
const productCount = setting("BENCH_CART_PRODUCTS", 1000);
/** Chain-wide multi-buy offers over the range: every scan's answer prices its cart with them (0: none, to compare). */
const offerCount = process.env.BENCH_CART_OFFERS === "0" ? 0 : setting("BENCH_CART_OFFERS", 200);
/** Measured runs at the steady rate; the budget is judged on the median one. */
export const STEADY_RUNS = 3;
/** The server's pool of PostgreSQL connections when DATABASE_POOL_SIZE is not set (config.ts). */
const DEFAULT_POOL_SIZE = 10;
/** Scans one at a time whose database transactions are counted. */
const COUNTED_SCANS = 300;

/** Seconds the cart section may take before the bench gives up: a safety net, far above a normal run. */
// Six measured runs may each wait a minute for quiet CPUs.
export const cartTimeLimit = 8 * (warmup + PAUSE_MS / 1000 + duration) + 2 * duration + 6 * 60 + 300;

type Pick = () => { session_id: string; barcode: string };

export async function cartBench(): Promise<string> {
  const settings = {
    duration,
    warmup,
    connections,
    rate,
    visitCount,
    productCount,
    offerCount,
    countedScans: COUNTED_SCANS,
  };
  const measured = await withPostgres((url, version) =>
    withServer({ DATABASE_URL: url, DEV_TOOLS: "true", METRICS_TOKEN }, (server) => cartCases(server, url, version)),
  ).catch((err: Error): Skipped => ({ skipped: err.message }));
  return cartReport(measured, settings);
}

async function cartCases(server: Server, url: string, version: string): Promise<CartFigures> {
  const shop = await prepareShop(server, productCount, visitCount);
  await addOffers(server, offerCount);
  // The hot visit takes every scan of its case: its store allows the largest cart there is (a line stays within 999).
  await call(`${server.base}/api/v1/settings/stores/${shop.storeId}`, {
    method: "PUT",
    json: { settings: { store: { max_cart_total: 999_999 } } },
    cookie: server.session,
  });
  const setupStarted = performance.now();
  const token = await shopperToken(server.base);
  const visits = await openVisits(server.base, shop, token, visitCount);
  const setupSeconds = (performance.now() - setupStarted) / 1000;
  const auth = `Bearer ${token}`;
  // Spread: visit after visit, a product at random. Hot: one visit every time (its row, which every scan locks
  // FOR KEY SHARE against a checkout), a product at random: one line can hold at most 999 units.
  let turn = 0;
  const spread: Pick = () => ({
    session_id: visits[turn++ % visits.length]!,
    barcode: shop.barcodes[Math.floor(Math.random() * shop.barcodes.length)]!,
  });
  const hot: Pick = () => ({
    session_id: visits[0]!,
    barcode: shop.barcodes[Math.floor(Math.random() * shop.barcodes.length)]!,
  });
  const sample = JSON.stringify(await post(`${server.base}${SCAN_PATH}`, { ...spread(), scan_id: randomUUID() }, auth));

  let answered = 1;
  const count = (status: number) => {
    if (status >= 200 && status < 300) answered++;
  };
  const counted = await countTransactions(url, server.base, auth, spread);
  answered += COUNTED_SCANS + visitCount;
  // Imported here: it loads the whole server, which the bare child started from this file does not need.
  const { traceScan } = await import("./cart-trace.ts");
  const trace = await traceScan(url, shop);
  // The traced scans, and the one before them, are recorded too.
  answered += trace.scans + 1;

  const runs: CartRun[] = [];
  const bare = await bareCase(sample, auth, spread);
  runs.push({ name: "Bare Fastify route, same body and answer", kind: "max", ...bare });
  for (const [name, pick] of [
    [`Scan, ${visitCount} visits × ${productCount} products`, spread],
    ["Scan, every scan on one visit (hot visit row)", hot],
  ] as const) {
    const figures = await maxCase(server.base, auth, pick, count, url).catch((err: Error) => ({
      skipped: `${err.message}\n${server.log()}`,
    }));
    runs.push({ name, kind: "max", ...figures });
  }
  await waitIdle(server.base);
  const steady = await steadyCase(server.base, url, auth, spread, count).catch((err: Error) => [
    { skipped: `${err.message}\n${server.log()}` },
  ]);
  for (const [i, figures] of steady.entries()) {
    const name = `Scan, ${visitCount} visits × ${productCount} products, steady, run ${i + 1} of ${steady.length}`;
    runs.push({ name, kind: "steady", ...figures });
  }

  // The spread load once more with the server's profiler on (not measured), then pgbench -N with the server idle.
  await waitIdle(server.base);
  const profile = await profiledScans(server, async () => {
    const r = await autocannon({ url: server.base, connections, requests: [scanRequest(auth, spread)], duration }).on(
      "response",
      (_c, status) => count(status),
    );
    return { rps: r.requests.average };
  }).catch((err: Error) => ({ skipped: err.message }));
  await waitIdle(server.base);
  const anchor = await pgbenchRuns(DEFAULT_POOL_SIZE, duration);

  const recorded = await scansRecorded(url);
  // After the count: its scans are not the server's.
  const statement = await statementRuns(url, DEFAULT_POOL_SIZE, duration);
  // Each autocannon run against the server (two cases, a warm-up and a measured run each, and the profiled run)
  // may stop with a scan per connection in flight.
  const inFlight = 5 * connections;
  return {
    version,
    runs,
    trace,
    counted,
    setupSeconds,
    profile,
    anchor,
    statement,
    check: { answered, recorded, inFlight },
  };
}

function scanRequest(auth: string, pick: Pick) {
  return {
    method: "POST",
    path: SCAN_PATH,
    headers: { authorization: auth, "content-type": "application/json" },
    // Called for every request: each scan carries a scan_id of its own, as a phone sends.
    setupRequest: (req: Record<string, unknown>) => ({
      ...req,
      body: JSON.stringify({ ...pick(), scan_id: randomUUID() }),
    }),
  };
}

/** autocannon at `connections` connections as fast as it is answered: warm-up, pause, measured run. */
async function maxCase(base: string, auth: string, pick: Pick, onStatus?: (status: number) => void, url?: string) {
  const opts = { url: base, connections, requests: [scanRequest(auth, pick)] };
  const idle = url !== undefined;
  await autocannon({ ...opts, duration: warmup }).on("response", (_c, status) => onStatus?.(status));
  await sleep(PAUSE_MS);
  if (idle) await waitIdle(base);
  const busy = await quietCpu();
  const latencies: number[] = [];
  const cpu = cpuMeter();
  const before = url ? await counters(base, url) : null;
  const result = await autocannon({ ...opts, duration }).on("response", (_c, status, _b, ms) => {
    onStatus?.(status);
    if (status >= 200 && status < 300) latencies.push(ms);
  });
  const cores = cpu.cores();
  const counted = url && before ? since(before, await counters(base, url)) : {};
  if (idle) await waitIdle(base);
  latencies.sort((a, b) => a - b);
  return {
    busy,
    rps: result.requests.average,
    p50: quantile(latencies, 0.5),
    p95: quantile(latencies, 0.95),
    p99: quantile(latencies, 0.99),
    max: quantile(latencies, 1),
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    cores,
    ...counted,
  };
}

/**
 * `rate` scans per second from a worker of its own (isolatedSteadyLoad), sent on
 * time whatever the answers: a warm-up, then STEADY_RUNS measured runs, each on
 * an idle server and quiet CPUs. Several, because on a shared machine one stall
 * of the CPUs or the disk (another database's checkpoint, say) decides a p99.
 */
async function steadyCase(base: string, url: string, auth: string, pick: Pick, onStatus: (status: number) => void) {
  const next = () => ({
    path: SCAN_PATH,
    headers: { authorization: auth },
    body: JSON.stringify({ ...pick(), scan_id: randomUUID() }),
  });
  const load = async (seconds: number) => {
    const r = await isolatedSteadyLoad({ base, rate, seconds, requests: Array.from({ length: rate * seconds }, next) });
    for (const status of r.statuses) if (status !== undefined) onStatus(status);
    return r;
  };
  await load(warmup);
  const runs = [];
  for (let i = 0; i < STEADY_RUNS; i++) {
    await sleep(PAUSE_MS);
    await waitIdle(base);
    const busy = await quietCpu();
    const cpu = cpuMeter();
    const before = await counters(base, url);
    const r = await load(duration);
    const cores = cpu.cores();
    runs.push({
      busy,
      rps: r.achieved,
      p50: quantile(r.latencies, 0.5),
      p95: quantile(r.latencies, 0.95),
      p99: quantile(r.latencies, 0.99),
      max: quantile(r.latencies, 1),
      requests: r.sent,
      non2xx: r.non2xx,
      errors: r.errors,
      sendLag: r.maxSendLag,
      cores,
      ...since(before, await counters(base, url)),
    });
  }
  return runs;
}

/** CPU ticks of a process from /proc (user + system), 0 if it is gone or there is no /proc. */
function ticks(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** This process's children running the server or the bare route, and every PostgreSQL process. */
function processes(): { server: number[]; postgres: number[] } {
  const found = { server: [] as number[], postgres: [] as number[] };
  let pids: number[] = [];
  try {
    pids = readdirSync("/proc")
      .filter((d) => /^\d+$/.test(d))
      .map(Number);
  } catch {
    return found;
  }
  for (const pid of pids) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "postgres") found.postgres.push(pid);
      else if (readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")[1] === String(process.pid)) {
        found.server.push(pid);
      }
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

/**
 * CPU used from now until cores() by the server (or bare route), by every
 * PostgreSQL process (other databases' work included), by this process
 * (the load generator), and by everything else on the machine, in cores.
 * Null without /proc.
 */
function cpuMeter() {
  const before = processes();
  const ticksOf = (pids: number[]) => new Map(pids.map((pid) => [pid, ticks(pid)]));
  const start = { server: ticksOf(before.server), postgres: ticksOf(before.postgres) };
  // A process that ended during the run takes its ticks with it; one that started counts from zero.
  const used = (pids: number[], from: Map<number, number>) =>
    pids.reduce((total, pid) => total + Math.max(0, ticks(pid) - (from.get(pid) ?? 0)), 0);
  const machine = machineCpu();
  const at = performance.now();
  const self = process.cpuUsage();
  return {
    cores: (): { server: number; postgres: number; bench: number; others: number } | null => {
      const busy = machine();
      const after = processes();
      if (after.server.length === 0 || busy === null) return null;
      const seconds = (performance.now() - at) / 1000;
      const mine = process.cpuUsage(self);
      // Clock ticks are hundredths of a second on Linux.
      const server = used(after.server, start.server) / 100 / seconds;
      const postgres = used(after.postgres, start.postgres) / 100 / seconds;
      const bench = (mine.user + mine.system) / 1e6 / seconds;
      return { server, postgres, bench, others: Math.max(0, busy - server - postgres - bench) };
    },
  };
}

/** The bare route, a child process of its own, measured as the server is. */
async function bareCase(body: string, auth: string, pick: Pick) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "glide-bench-"));
  const file = path.join(dir, "answer.json");
  writeFileSync(file, body);
  const port = await freePort();
  const child = start(["bench/cart.ts", "--bare-scan", String(port), file], {});
  try {
    await waitReady(child, `http://${HOST}:${port}/health`);
    return await maxCase(`http://${HOST}:${port}`, auth, pick);
  } catch (err) {
    return { skipped: failure(err, child) };
  } finally {
    await stop(child);
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Scans one at a time, with the database's count of transactions before and
 * after: each statement the server sends outside a transaction is one. A
 * backend reports its counts within about 10 s of going idle, hence the waits.
 */
async function countTransactions(url: string, base: string, auth: string, pick: Pick) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const read = async () => {
    await sleep(11_000);
    await client.query("select pg_stat_clear_snapshot()");
    const { rows } = await client.query<{ n: string }>(
      "select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()",
    );
    return Number(rows[0]!.n);
  };
  try {
    // Each visit scanned once first: an instance looks a visit's store up once (to hold it to the store's cart
    // limits) and keeps the store's settings a minute, so the counted scans are the steady state.
    for (let i = 0; i < visitCount; i++) await post(`${base}${SCAN_PATH}`, { ...pick(), scan_id: randomUUID() }, auth);
    const before = await read();
    const ms: number[] = [];
    for (let i = 0; i < COUNTED_SCANS; i++) {
      const started = performance.now();
      await post(`${base}${SCAN_PATH}`, { ...pick(), scan_id: randomUUID() }, auth);
      ms.push(performance.now() - started);
    }
    const after = await read();
    ms.sort((a, b) => a - b);
    // This client's own statements between the two readings: the clear and the read.
    return { scans: COUNTED_SCANS, perScan: (after - before - 2) / COUNTED_SCANS, p50: quantile(ms, 0.5) };
  } finally {
    await client.end();
  }
}

const scansRecorded = (url: string) => countRows(url, "select count(*)::int as n from cart_scans");

// Bare mode: this file re-run as a child, answering every scan with one fixed body.
if (process.argv[2] === "--bare-scan" && process.argv[1] === import.meta.filename) {
  const { default: Fastify } = await import("fastify");
  const answer: unknown = JSON.parse(readFileSync(process.argv[4]!, "utf8"));
  const app = Fastify({ logger: false });
  app.get("/health", async () => ({ ok: true }));
  app.post(SCAN_PATH, async () => answer);
  await app.listen({ port: Number(process.argv[3]), host: HOST });
}
