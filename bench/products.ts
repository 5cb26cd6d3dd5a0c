/**
 * Product search over BENCH_PRODUCTS (100,000) generated products and the
 * CSV import of 50,000 more, on PGlite and on PostgreSQL, through the real
 * server's HTTP API. Returns its section of bench/results.md.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import type { Db } from "../apps/server/src/db/client.ts";
import * as schema from "../apps/server/src/db/schema/index.ts";
import { listProducts } from "../apps/server/src/features/products/products.search.ts";
import { createProductSearch } from "../apps/server/src/features/products/search-index.ts";
import { deafBus } from "../apps/server/src/test/buses.ts";
import { catalogueCsv, product } from "./catalogue.ts";
import {
  autocannon,
  call,
  cpuBusy,
  PAUSE_MS,
  type Server,
  type Skipped,
  setting,
  waitIdle,
  withPostgres,
  withServer,
} from "./lib.ts";
import { type DbCase, type IndexFigures, type Kind, type Plan, productsReport, type Step } from "./products-report.ts";

const productCount = setting("BENCH_PRODUCTS", 100_000);
const importRows = Math.min(50_000, productCount);
const connections = setting("BENCH_SEARCH_CONNECTIONS", 10);
const duration = setting("BENCH_DURATION", 10);
const warmup = Math.min(3, duration);
const chunk = setting("BENCH_IMPORT_CHUNK", 25_000);
const n = (v: number) => v.toLocaleString("en");
const BUDGET_P95_MS = 30;
const IMPORT_LIMIT_S = 60;

/** Seconds the product cases may take before the bench gives up: a safety net, far above a normal run. */
export const productsTimeLimit = 12 * (warmup + PAUSE_MS / 1000 + duration) + 600;

/** Spread over the range, so a search does not always hit the first rows written. */
const picks = Array.from({ length: 20 }, (_, i) => 1 + Math.floor(((i + 0.5) * productCount) / 20));
const KINDS: Kind[] = [
  { label: "name fragment", searches: ["ost", "korv", "mjölk", "vanil", "knäck"].map((text) => ({ text })) },
  { label: "SKU", searches: picks.map((n) => ({ text: product(n).sku, sku: product(n).sku })) },
  { label: "barcode (EAN-13)", searches: picks.map((n) => ({ text: product(n).barcode, sku: product(n).sku })) },
];

export async function productsBench(): Promise<string> {
  const chunks: string[] = [];
  for (let from = 1; from <= productCount; from += chunk) {
    chunks.push(catalogueCsv(from, Math.min(productCount, from + chunk - 1)));
  }
  const importCsv = catalogueCsv(productCount + 1, productCount + importRows);
  const run = (env: Record<string, string>, analyse?: (label: string) => Promise<Plan[]>) =>
    withServer(env, (server) => productsCase(server, chunks, importCsv, analyse)).catch(
      (err: Error): Skipped => ({ skipped: err.message }),
    );
  const pglite = await run({});
  let settings = "";
  let indexFigures: IndexFigures | undefined;
  const postgres = await withPostgres(async (url, version) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const autovacuum = (await client.query<{ autovacuum: string }>("show autovacuum")).rows[0]!.autovacuum;
      settings = `PostgreSQL ${version}, autovacuum ${autovacuum}`;
      // After the plans of the first measurement, the tables as autovacuum would leave them:
      // statistics gathered, GIN pending lists merged.
      return await run({ DATABASE_URL: url }, async (label) => {
        const plans = await explainSearches(url, label);
        if (label === "as imported") indexFigures = await measureIndex(url);
        if (label === "as imported") {
          await client.query("vacuum analyze products");
          await client.query("vacuum analyze product_barcodes");
        }
        return plans;
      });
    } finally {
      await client.end();
    }
  });
  return productsReport({
    cases: [
      { name: "PGlite (embedded)", ...pglite },
      { name: "PostgreSQL", ...postgres },
    ],
    index: indexFigures,
    settings: settings || "PostgreSQL not reached",
    kinds: KINDS,
    productCount,
    importRows,
    chunk,
    connections,
    warmup,
    duration,
    budgetP95: BUDGET_P95_MS,
    importLimit: IMPORT_LIMIT_S,
  });
}

/**
 * Load the range in chunks through the import endpoint, measure each kind of
 * search, time the 50,000-row import. With `analyse` (PostgreSQL: EXPLAIN,
 * then VACUUM ANALYZE), the searches are measured again after it ran, also
 * with one connection.
 */
async function productsCase(
  server: Server,
  chunks: string[],
  importCsv: string,
  analyse?: (label: string) => Promise<Plan[]>,
): Promise<DbCase> {
  const result: DbCase = { load: { seconds: 0, loaded: 0 }, searches: [], plans: [] };
  const started = performance.now();
  for (const csv of chunks) {
    const step = await importFile(server, csv, false);
    if ("error" in step) {
      const rows = `rows ${n(result.load.loaded + 1)}–${n(result.load.loaded + csv.split("\n").length - 2)}`;
      result.load.error = `importing ${rows} failed: ${step.error}`;
      break;
    }
    result.load.loaded += step.created;
  }
  result.load.seconds = (performance.now() - started) / 1000;
  // Searches over part of the range would not answer the question; the import is still timed.
  if (!result.load.error) await measureSearches(server, result, analyse);
  result.dryRun = await importFile(server, importCsv, true);
  result.import = await importFile(server, importCsv, false);
  return result;
}

async function measureSearches(server: Server, result: DbCase, analyse?: (label: string) => Promise<Plan[]>) {
  const imported = { state: "as imported", connections, explain: true };
  const analysed = { state: "after VACUUM ANALYZE", connections, explain: true };
  // One connection as well: the time of a search on its own, without queueing behind the others.
  const rounds = analyse ? [imported, analysed, { ...analysed, connections: 1, explain: false }] : [imported];
  for (const { state, connections, explain } of rounds) {
    for (const kind of KINDS) {
      const figures = await measureSearch(server, kind, connections).catch((err: Error) => ({
        error: `${err.message}\nserver output:\n${server.log()}`,
      }));
      result.searches.push({ state, connections, kind, ...figures });
    }
    if (analyse && explain) result.plans.push(...(await analyse(state)));
  }
}

/** One import request, timed; a failure is a result too, with the server's reason. */
async function importFile(server: Server, csv: string, dryRun: boolean): Promise<Step> {
  const started = performance.now();
  try {
    const res = await call(`${server.base}/api/v1/products/import?dry_run=${dryRun}`, {
      method: "POST",
      csv,
      cookie: server.session,
      timeoutMs: 300_000,
    });
    const report = (await res.json()) as { created: number; updated: number; rejected: number };
    const rows = csv.split("\n").length - 2;
    if (report.created !== rows) throw new Error(`import of ${rows} new rows reported ${JSON.stringify(report)}`);
    return { seconds: (performance.now() - started) / 1000, created: report.created };
  } catch (err) {
    // Give the server a moment to write the log line that explains the failure.
    await sleep(500);
    return { error: `${(err as Error).message}\nserver output:\n${server.log()}` };
  }
}

const searchPath = (text: string) => `/api/v1/products/?search=${encodeURIComponent(text)}&limit=20`;

async function measureSearch(server: Server, kind: Kind, connections: number) {
  const matches: number[] = [];
  for (const s of kind.searches) {
    const res = await call(`${server.base}${searchPath(s.text)}`, { cookie: server.session, timeoutMs: 30_000 });
    const items = (await res.json()) as { sku: string }[];
    if (s.sku && items[0]?.sku !== s.sku) throw new Error(`search for ${s.text} did not find ${s.sku}`);
    matches.push(Number(res.headers.get("x-total-count")));
  }
  const requests = kind.searches.map((s) => ({ method: "GET", path: searchPath(s.text) }));
  const opts = { url: server.base, connections, headers: { cookie: server.session }, requests };
  await autocannon({ ...opts, duration: warmup });
  await sleep(PAUSE_MS);
  await waitIdle(server.base);
  // autocannon reports no p95, so keep every answer's latency.
  const latencies: number[] = [];
  const busy = await cpuBusy();
  const result = await autocannon({ ...opts, duration }).on("response", (_client, status, _bytes, ms) => {
    if (status >= 200 && status < 300) latencies.push(ms);
  });
  await waitIdle(server.base);
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.max(0, Math.ceil(q * latencies.length) - 1)] ?? Number.NaN;
  return {
    matches: [Math.min(...matches), Math.max(...matches)] as [number, number],
    rps: result.requests.average,
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    max: at(1),
    requests: result.requests.total,
    errors: result.errors,
    non2xx: result.non2xx,
    busy,
  };
}

type PlanNode = {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Rows Removed by Filter"?: number;
  Plans?: PlanNode[];
};
type Explained = { Plan: PlanNode; "Execution Time": number; JIT?: { Timing: { Total: number } } };

/** EXPLAIN ANALYZE of the exact statements the server's listProducts sends, one search of each kind. */
async function explainSearches(url: string, state: string): Promise<Plan[]> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const sent: { sql: string; params: unknown[] }[] = [];
  const logger = { logQuery: (sql: string, params: unknown[]) => sent.push({ sql, params }) };
  const db = drizzle(pool, { schema, logger }) as unknown as Db;
  const plans: Plan[] = [];
  try {
    for (const kind of KINDS) {
      const search = kind.searches[1]!.text;
      sent.length = 0;
      await listProducts({ db, query: { search, sort: "name", order: "asc", limit: 20, offset: 0 } });
      const explain = async (statement: { sql: string; params: unknown[] }) => {
        const text = `explain (analyze, format json) ${statement.sql}`;
        // The second of two runs, so the figure is not a first read of cold pages.
        await pool.query(text, statement.params);
        const { rows } = await pool.query(text, statement.params);
        return summary((rows[0] as { "QUERY PLAN": Explained[] })["QUERY PLAN"][0]!);
      };
      // A search sends its page and total as one statement, after any barcode lookup.
      const isPage = (s: { sql: string }) => /\blimit\b/.test(s.sql) && s.sql.includes("count(*) over ()");
      const page = sent.find(isPage);
      // Besides the page: any barcode lookup, and the VAT rate table's few rows (the rate shown beside each product).
      const lookups = sent.filter((s) => s !== page && /\bproduct_barcodes\b/.test(s.sql) && !isPage(s));
      if (!page || lookups.length > 1) {
        throw new Error(`listProducts sent ${sent.length} statements, not a lookup and a page with its total`);
      }
      const list = await explain(page);
      let otherMs = 0;
      for (const other of lookups) otherMs += (await explain(other)).ms;
      plans.push({ state, kind: kind.label, search, list, otherMs });
    }
  } finally {
    await pool.end();
  }
  return plans;
}

/** Execution time and how the products table was read. */
function summary(e: Explained): { ms: number; how: string } {
  const scans: string[] = [];
  const walk = (node: PlanNode) => {
    const removed = node["Rows Removed by Filter"];
    if (node["Relation Name"] === "products" || node["Index Name"]?.startsWith("products_")) {
      const on = node["Index Name"] ?? node["Relation Name"];
      scans.push(`${node["Node Type"]} ${on}${removed ? ` (${removed.toLocaleString("en")} rows filtered out)` : ""}`);
    }
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(e.Plan);
  const jit = e.JIT ? `; JIT ${e.JIT.Timing.Total.toFixed(0)} ms` : "";
  return { ms: e["Execution Time"], how: `${scans.join(", ")}${jit}` };
}

const silent = { warn: () => {}, error: () => {} } as unknown as Parameters<typeof createProductSearch>[0]["logger"];

/**
 * The search index the server keeps (features/products/search-index.ts), built here in the bench's own
 * process over the loaded range: how long a build takes, the longest the event loop waited meanwhile,
 * and what one search of each name fragment and SKU costs in it.
 */
async function measureIndex(url: string): Promise<IndexFigures> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const db = drizzle(pool, { schema }) as unknown as Db;
  const search = createProductSearch({ db, bus: deafBus, logger: silent });
  const probe = { text: "", sort: "name", order: "asc", limit: 20, offset: 0 } as const;
  try {
    let gapMs = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      gapMs = Math.max(gapMs, now - last);
      last = now;
    }, 1);
    const started = performance.now();
    search.find(probe);
    await search.settled();
    const buildMs = performance.now() - started;
    clearInterval(ticker);
    if (!search.find(probe)) throw new Error("the index was not built");
    const finds: IndexFigures["finds"] = [];
    for (const kind of KINDS.slice(0, 2)) {
      for (const { text } of kind.searches.slice(0, 5)) {
        const query = { ...probe, text: text.toLowerCase() };
        const rounds = 200;
        const t = performance.now();
        let total = 0;
        for (let r = 0; r < rounds; r++) total = search.find(query)!.total;
        finds.push({ kind: kind.label, search: text, total, ms: (performance.now() - t) / rounds });
      }
    }
    return { buildMs, gapMs, finds };
  } finally {
    search.close();
    await pool.end();
  }
}
