/**
 * `npm run bench`: every benchmark in one run, written to bench/results.md.
 * GET /api/v1/stores/ on PGlite and on PostgreSQL against a bare Fastify
 * route serving the same JSON; then product search and CSV import
 * (bench/products.ts); then the weight of each page's first render
 * (bench/bundle.ts). Each server is its own child process on 127.0.0.1 so
 * it has its own event loop; autocannon runs in this process.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { bundleBench } from "./bundle.ts";
import {
  autocannon,
  autocannonVersion,
  call,
  cpuBusy,
  fail,
  failure,
  freePort,
  HOST,
  loadAverage,
  machine,
  PAUSE_MS,
  type Result,
  root,
  type Server,
  type Skipped,
  setting,
  start,
  stop,
  waitReady,
  withPostgres,
  withServer,
} from "./lib.ts";
import { productsBench, productsTimeLimit } from "./products.ts";

const ROUTE = "/api/v1/stores/";
const CITIES = ["Stockholm", "Göteborg", "Malmö", "Uppsala"];

type Case = { result?: Result; busy?: number | null; skipped?: string; body?: string; version?: string };
type Row = Case & { name: string };

const duration = setting("BENCH_DURATION", 10);
const connections = setting("BENCH_CONNECTIONS", 100);
const storeCount = setting("BENCH_STORES", 50);
const warmup = Math.min(3, duration);

async function measure(port: number, cookie?: string): Promise<Case> {
  const headers = cookie ? { cookie } : {};
  const url = `http://${HOST}:${port}${ROUTE}`;
  await autocannon({ url, connections, duration: warmup, headers });
  // The warm-up ends with requests in flight; measuring before the server has finished them
  // starved some new connections on PGlite for the whole run, so start on an idle server.
  await sleep(PAUSE_MS);
  const busy = await cpuBusy();
  return { busy, result: await autocannon({ url, connections, duration, headers }) };
}

async function main(): Promise<void> {
  // Startup, seeding and the measured cases must never run away.
  setTimeout(
    () => fail("bench exceeded its time limit"),
    (3 * (duration + warmup + PAUSE_MS / 1000) + 240 + productsTimeLimit) * 1000,
  ).unref();
  const started = new Date();
  const startLoad = loadAverage();
  const pglite = await storesCase({});
  const postgres = await withPostgres(async (url, version) => ({
    version,
    ...(await storesCase({ DATABASE_URL: url })),
  }));
  const body = pglite.body ?? ("body" in postgres ? postgres.body : undefined);
  const bare = body ? await bareCase(body) : { skipped: "no server case produced a response body to serve" };
  const rows: Row[] = [
    { name: "Bare Fastify route, same JSON", ...bare },
    { name: "Glide server, PGlite (embedded)", ...pglite },
    { name: "Glide server, PostgreSQL", ...postgres },
  ];
  const stores = report(rows, body ? Buffer.byteLength(body) : 0);
  const products = await productsBench();
  const bundle = await bundleBench();
  const markdown = `# Benchmarks

Written by \`npm run bench\` (bench/run.ts), started ${started.toISOString()}, finished ${new Date().toISOString()}. All figures below come from this one run.

Machine: ${machine()}; PostgreSQL ${"version" in postgres ? postgres.version : "not reached"}. Load average (1 min) before the bench started ${startLoad}, at the end ${loadAverage()}; a load above the CPU count before the start means other processes were using the CPUs, and the figures below are then pessimistic.

${stores}
${products}
${bundle}`;
  writeFileSync(path.join(root, "bench/results.md"), markdown);
  console.log(markdown);
}

async function bareCase(body: string): Promise<Case> {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "glide-bench-")), "body.json");
  writeFileSync(file, body);
  const port = await freePort();
  const child = start(["bench/run.ts", "--bare", String(port), file], {});
  try {
    await waitReady(child, `http://${HOST}:${port}${ROUTE}`);
    return await measure(port);
  } catch (err) {
    return { skipped: failure(err, child) };
  } finally {
    await stop(child);
    rmSync(path.dirname(file), { recursive: true, force: true });
  }
}

/** The real server with stores seeded through the API, measured. */
function storesCase(env: Record<string, string>): Promise<Case> {
  return withServer(env, async (server: Server) => {
    for (let i = 1; i <= storeCount; i++) {
      const n = String(i).padStart(2, "0");
      const place = { address: `Storgatan ${i}`, city: CITIES[i % 4], postal_code: `1${n} 45`, size_sqm: 40 + i };
      const contact = { legal_name: `Bench Store ${n} AB`, email: `store${n}@example.com`, phone: `+46 8 123 45 ${n}` };
      const json = { name: `Bench store ${n}`, ...place, ...contact };
      await call(`${server.base}${ROUTE}`, { method: "POST", json, cookie: server.session });
    }
    const body = await (await call(`${server.base}${ROUTE}`, { cookie: server.session })).text();
    return { ...(await measure(server.port, server.session)), body };
  }).catch((err: Error): Skipped => ({ skipped: err.message }));
}

function report(rows: Row[], bodyBytes: number): string {
  const bare = rows.find((r) => r.name.startsWith("Bare"))?.result?.requests.average;
  const ms = (v: number) => v.toFixed(1);
  const lines = rows.map(({ name, result: r, busy, skipped }) => {
    if (!r) return `| ${name} | skipped: ${skipped?.split("\n")[0]} | | | | | | | | | | |`;
    const share = bare ? `${Math.round((100 * r.requests.average) / bare)} %` : "–";
    const { p50, p97_5, p99, max } = r.latency;
    const cells = [name, Math.round(r.requests.average), share, ms(p50), ms(p97_5), ms(p99), ms(max)];
    return `| ${[...cells, r.requests.total, r.errors, r.timeouts, r.non2xx, busy ?? "–"].join(" | ")} |`;
  });
  const details = rows
    .filter((r) => r.skipped?.includes("\n"))
    .map((r) => `\n${r.name}:\n\n\`\`\`\n${r.skipped}\n\`\`\`\n`);
  return `## GET ${ROUTE}

| case | requests/s | of bare | p50 ms | p97.5 ms | p99 ms | max ms | requests | errors | timeouts | non-2xx | CPU busy before % |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
${lines.join("\n")}
${details.join("")}
### How it was measured

- autocannon ${autocannonVersion} from the bench process, ${connections} connections, no pipelining; per case a ${warmup} s warm-up run (not counted), a ${PAUSE_MS / 1000} s pause, then ${duration} s measured (\`BENCH_DURATION\`, \`BENCH_CONNECTIONS\`). Errors include timeouts (no answer within 10 s). Everything on ${HOST}; load generator, server and PostgreSQL share the same CPUs. "CPU busy before": how busy the machine's CPUs were in the second before the measured run, while the bench and its server were idle; above a few percent, other processes were competing with the bench.
- Glide server: \`node apps/server/src/main.ts\` as a child process, NODE_ENV=production, LOG_LEVEL=warn, default pool size, fresh data folder (PGlite) or a fresh database \`glide_bench_<timestamp>\` dropped afterwards (PostgreSQL).
- Data: ${storeCount} stores created through \`POST ${ROUTE}\` (\`BENCH_STORES\`); each request carries a platform admin's session cookie, so every request resolves the session and lists all stores with their modules. Response body ${bodyBytes} bytes.
- Bare route: the same file run as a child process (\`bench/run.ts --bare\`), Fastify with no logger, hooks, schemas or database, answering the same JSON array the server returned.
- Order of measurement: PGlite, PostgreSQL, then the bare route (it serves the body captured from the server). "of bare" is a case's requests/s as a share of the bare route's.
`;
}

// Bare mode: this file re-run as a child, serving a fixed JSON body with nothing else.
if (process.argv[2] === "--bare") {
  const { default: Fastify } = await import("fastify");
  const body: unknown = JSON.parse(readFileSync(process.argv[4]!, "utf8"));
  const app = Fastify({ logger: false });
  app.get(ROUTE, async () => body);
  await app.listen({ port: Number(process.argv[3]), host: HOST });
} else {
  await main();
}
