/**
 * `npm run bench`: every benchmark in one run, written to bench/results.md.
 * GET /api/v1/stores/ on PGlite and on PostgreSQL against a bare Fastify
 * route serving the same JSON; then product search and CSV import
 * (bench/products.ts); cart scans (bench/cart.ts) and the live cart's
 * fan-out over WebSockets (bench/cart-fanout.ts) and one visit's token
 * opening 1,500 of them (bench/cart-sockets.ts); the bytes one scan brings
 * to the shopper's phone (bench/scan-bytes.ts); pricing a 60-line cart among
 * 200 offers in-process (bench/pricing.ts); the face check's model and
 * its verification through the server (bench/face.ts); the Analytics screen's
 * calls on a year of a busy chain (bench/analytics.ts); the shopper scanner's
 * barcode decoder in Chromium (bench/decoder.ts); then the weight of each
 * page's first render (bench/bundle.ts). Each server is its own child
 * process on 127.0.0.1 so it has its own event loop; autocannon runs in
 * this process. BENCH_ONLY=cart,fanout (section names: bench/sections.ts)
 * measures only those sections and replaces only them in results.md.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { analyticsBench, analyticsTimeLimit } from "./analytics.ts";
import { bundleBench } from "./bundle.ts";
import { cartBench, cartTimeLimit } from "./cart.ts";
import { fanoutBench, fanoutTimeLimit } from "./cart-fanout.ts";
import { socketsBench, socketsTimeLimit } from "./cart-sockets.ts";
import { checkoutBench, checkoutTimeLimit } from "./checkout.ts";
import { burstBench, burstTimeLimit } from "./checkout-burst.ts";
import { decoderBench, decoderTimeLimit } from "./decoder.ts";
import { faceBench, faceTimeLimit } from "./face.ts";
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
  POSTGRES_URL,
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
import { pricingBench, pricingTimeLimit } from "./pricing.ts";
import { productsBench, productsTimeLimit } from "./products.ts";
import { scanBytesBench, scanBytesTimeLimit } from "./scan-bytes.ts";
import {
  chosenSections,
  FULL_RUN_SENTENCE,
  markPartial,
  mergeResults,
  SECTIONS,
  type SectionName,
} from "./sections.ts";
import { profiledStores, type StoresProfile, storesProfileSection } from "./stores-profile.ts";

const ROUTE = "/api/v1/stores/";
const CITIES = ["Stockholm", "Göteborg", "Malmö", "Uppsala"];

type Case = {
  result?: Result;
  busy?: number | null;
  skipped?: string;
  body?: string;
  version?: string;
  profile?: StoresProfile | { skipped: string };
};
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

/** One section of results.md: how long it may take at most (s), and what measures it. */
type SectionRun = { limit: number; run: () => Promise<string> };

async function main(): Promise<void> {
  let chosen: SectionName[];
  try {
    chosen = chosenSections(process.env.BENCH_ONLY);
  } catch (err) {
    fail((err as Error).message);
  }
  const partial = chosen.length < SECTIONS.length;
  let postgresVersion: string | undefined;
  const runs: Record<SectionName, SectionRun> = {
    stores: {
      // Three measured cases and the PostgreSQL case's profiled run.
      limit: 4 * (duration + warmup + PAUSE_MS / 1000) + 240,
      run: async () => {
        const { markdown, version } = await storesSection();
        postgresVersion ??= version;
        return markdown;
      },
    },
    products: { limit: productsTimeLimit, run: productsBench },
    cart: { limit: cartTimeLimit, run: cartBench },
    fanout: { limit: fanoutTimeLimit, run: fanoutBench },
    sockets: { limit: socketsTimeLimit, run: socketsBench },
    bytes: { limit: scanBytesTimeLimit, run: scanBytesBench },
    pricing: { limit: pricingTimeLimit, run: pricingBench },
    checkout: { limit: checkoutTimeLimit, run: checkoutBench },
    burst: { limit: burstTimeLimit, run: burstBench },
    face: { limit: faceTimeLimit, run: faceBench },
    analytics: { limit: analyticsTimeLimit, run: analyticsBench },
    decoder: { limit: decoderTimeLimit, run: decoderBench },
    bundle: { limit: 300, run: bundleBench },
  };
  // Startup, seeding and the measured cases must never run away.
  const limit = chosen.reduce((sum, name) => sum + runs[name].limit, 0);
  setTimeout(() => fail("bench exceeded its time limit"), limit * 1000).unref();
  const started = new Date();
  const startLoad = loadAverage();
  const fresh = new Map<SectionName, string>();
  for (const name of chosen) fresh.set(name, await runs[name].run());
  postgresVersion ??= await serverVersion();
  const finished = new Date();
  const when = `started ${started.toISOString()}, finished ${finished.toISOString()}`;
  const load = `load average (1 min) before it started ${startLoad}, at the end ${loadAverage()}`;
  const file = path.join(root, "bench/results.md");
  const earlier = partial && existsSync(file) ? readFileSync(file, "utf8") : null;
  const only = `\`BENCH_ONLY=${chosen.join(",")}\``;
  let markdown: string;
  if (earlier) {
    const note = `Measured on its own by ${only} npm run bench, ${when}; ${load}. Machine: ${machine()}; PostgreSQL ${postgresVersion ?? "not reached"}.`;
    for (const [name, text] of fresh) fresh.set(name, markPartial(text, note));
    markdown = mergeResults(earlier, fresh);
  } else {
    markdown = `# Benchmarks

Written by \`npm run bench\` (bench/run.ts), ${when}. ${partial ? `Only these sections were measured (${only}).` : FULL_RUN_SENTENCE}

Machine: ${machine()}; PostgreSQL ${postgresVersion ?? "not reached"}. Load average (1 min) before the bench started ${startLoad}, at the end ${loadAverage()}; a load above the CPU count before the start means other processes were using the CPUs, and the figures below are then pessimistic.

Mutation testing scores per file are kept in [mutation.md](mutation.md) (\`npm run mutate\`, run on its own).

${[...fresh.values()].join("\n")}`;
  }
  writeFileSync(file, markdown);
  console.log(markdown);
}

/** GET /api/v1/stores/ on PGlite, on PostgreSQL and on the bare route. */
async function storesSection(): Promise<{ markdown: string; version?: string }> {
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
  const profile = "profile" in postgres ? postgres.profile : undefined;
  const markdown = report(rows, body ? Buffer.byteLength(body) : 0) + storesProfileSection(profile);
  return "version" in postgres && postgres.version ? { markdown, version: postgres.version } : { markdown };
}

/** The PostgreSQL server's version for the header, when no section reported it. */
async function serverVersion(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: `${POSTGRES_URL}/postgres`, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return (await client.query<{ server_version: string }>("show server_version")).rows[0]!.server_version;
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => {});
  }
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
    const measured = await measure(server.port, server.session);
    if (!env.DATABASE_URL) return { ...measured, body };
    await sleep(PAUSE_MS);
    const profile = await profiledStores(server, { route: ROUTE, connections, duration }).catch((err: Error) => ({
      skipped: err.message,
    }));
    return { ...measured, body, profile };
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
- Data: ${storeCount} stores created through \`POST ${ROUTE}\` (\`BENCH_STORES\`); each request carries a platform admin's session cookie, so every request resolves the session and reads the store list's version; the list of all stores with their modules is read on the first request and then answered as kept while no store changes (features/stores/store-list.ts). Response body ${bodyBytes} bytes.
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
