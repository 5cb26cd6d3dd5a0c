/** The Analytics section of bench/results.md, from bench/analytics.ts's figures. */
import type { Skipped } from "./lib.ts";

export type Timed = { label: string; seconds: number };
export type CallResult = {
  route: string;
  range: string;
  /** The machine's load average (1 min) when the range's calls started. */
  load: string;
  p50: number;
  p95: number;
  max: number;
  /** The service function alone (SQL and mapping rows), no HTTP, session, schema or JSON. */
  serviceP50: number;
  serviceP95: number;
  rows: number;
  bytes: number;
};
export type Plan = { title: string; text: string };
export type Data = {
  orders: number;
  lines: number;
  visits: number;
  stores: number;
  products: number;
  calls: number;
  year: [string, string];
};

const BUDGET_P95_MS = 200;

export const n = (v: number) => v.toLocaleString("en");
const ms = (v: number) => v.toFixed(1);
const kb = (bytes: number) => (bytes / 1024).toFixed(1);

/**
 * What was found and changed, in words; the figures it quotes from earlier
 * runs are dated. The tables after it are this run's.
 */
const FINDINGS = "";

/**
 * A plan's gist: each node with its rows and time, without the conditions
 * and buffer counts (the statement is the app's; the conditions are its WHERE).
 */
export function planGist(text: string): string {
  const node = /^(\s*)(?:->\s+)?([A-Za-z][^(]*?)\s*\(actual time=[\d.]+\.\.([\d.]+) rows=(\d+) loops=(\d+)\)/;
  const lines = text.split("\n").flatMap((line) => {
    const m = node.exec(line);
    if (m) return [`${m[1]}${m[2]}: ${n(Number(m[4]))} rows, ${m[3]} ms${m[5] === "1" ? "" : ` × ${m[5]} loops`}`];
    return /^Execution Time/.test(line) ? [line] : [];
  });
  return lines.join("\n");
}

export function report(
  result: { version: string; seeding: Timed[]; results: CallResult[]; plans: Plan[] } | Skipped,
  data: Data,
): string {
  if ("skipped" in result) return `## Analytics\n\nskipped: ${result.skipped}\n`;
  const { version, seeding, results, plans } = result;
  const worst = Math.max(...results.map((r) => r.p95));
  const rows = results.map((r) =>
    [
      r.route,
      r.range,
      n(r.rows),
      kb(r.bytes),
      ms(r.serviceP50),
      ms(r.serviceP95),
      ms(r.p50),
      ms(r.p95),
      ms(r.max),
      r.p95 <= BUDGET_P95_MS ? "yes" : "**no**",
      r.load,
    ].join(" | "),
  );
  const seedRows = seeding.map((s) => `| ${s.label} | ${s.seconds.toFixed(1)} |`);
  const total = seeding.reduce((a, s) => a + s.seconds, 0);
  return `## Analytics

Every call of the Analytics screen on a year of a busy chain on PostgreSQL ${version}: ${n(data.orders)} orders (${n(data.lines)} lines) over ${data.year[0]} to ${data.year[1]} and ${data.stores} stores. Budget: p95 ≤ ${BUDGET_P95_MS} ms per call. Slowest p95 here: **${ms(worst)} ms** (${worst <= BUDGET_P95_MS ? "within" : "over"} budget). Seeding and rollups took ${total.toFixed(0)} s.
${FINDINGS ? `\n${FINDINGS}\n` : ""}
### This run

"query": the route's service function called directly (its SQL and the mapping of rows); "request": the whole call through the app. The difference is the request's own work: session, scope, the response schema's check, JSON.

| route | range | rows | body KB | query p50 ms | query p95 ms | request p50 ms | request p95 ms | max ms | p95 within ${BUDGET_P95_MS} ms | load average |
|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|
${rows.map((r) => `| ${r} |`).join("\n")}

### How it was measured

- A fresh database \`glide_bench_<timestamp>\` on the local PostgreSQL, migrated by the app (tables and the rollup triggers of migration 0012), then seeded in SQL with \`generate_series\` with \`session_replication_role = replica\` (no triggers, no foreign-key checks: a bulk load) and ids made in insertion order, then \`analyze\`, and the rollups filled by running the migration's own backfill statements (read from \`0012_analytics.sql\`, with \`work_mem = 256MB\` for the session), as an upgrade of a database with a year of data would. Then \`vacuum analyze\`.
- Data: ${data.stores} stores in Europe/Stockholm, ${data.products} products (12 categories), every order ${data.lines / data.orders} lines of products spread evenly (the worst case for the product rollup: most products sell in every store every day), 1 in 50 orders declined, ${n(data.visits)} visits, 1 in 100 orders refunded.
- Each call through the app built in the bench process (\`buildApp\`, \`app.inject\` with a platform admin's session cookie: no network; the session is resolved on every call), one warm-up call, then ${data.calls} calls one after another (\`BENCH_ANALYTICS_CALLS\`); then the service function ${data.calls} times. Load average: the machine's (1 min) when the range's calls began; the machine has 2 CPUs shared with other work, so above 2 other processes were competing.

| seeding step | seconds |
|---|---:|
${seedRows.join("\n")}
| total | ${total.toFixed(1)} |

### Query plans (full year, all stores)

The gist of EXPLAIN (ANALYZE, BUFFERS) of each route's statement as the app sent it, run once after its measured calls: each node with the rows it gave and the time until its last row.

${plans.map((p) => `#### ${p.title}\n\n\`\`\`\n${planGist(p.text)}\n\`\`\`\n`).join("\n")}`;
}
