/** The Analytics section of bench/results.md, from bench/analytics.ts's figures. */
import type { Skipped } from "./lib.ts";

export type Timed = { label: string; seconds: number };
export type CallResult = {
  route: string;
  range: string;
  /** The machine's load average (1 min) and CPU busy share when the range's calls started. */
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
const ms = (v: number) => (Number.isNaN(v) ? "–" : v.toFixed(1));
const kb = (bytes: number) => (bytes / 1024).toFixed(1);

/**
 * What was found and changed, in words; the figures it quotes from earlier
 * runs are dated. The tables after it are this run's.
 */
const FINDINGS = `### What the measurements found, and what changed

**Revenue, full year, all 20 stores, was over budget.** The first run (2026-11-23 17:48 UTC, load average 16.7) gave p95 349 ms; the run at 18:03 UTC (load 6–8), which also timed the service function alone, gave request p50 215 ms / p95 490 ms, of which the query (SQL and mapping rows) p50 135 ms / p95 375 ms. The answer was 7,300 rows (a row per store and day), 1,050 KB of JSON.

- EXPLAIN (ANALYZE, BUFFERS): a bitmap scan of the year's 103,660 store-hour rows (1,179 pages, all in shared buffers) took 76 ms, the HashAggregate into 7,300 (store, day) groups was done at 179 ms, then a join of the 20 store names and a sort: 226 ms in all. The scan is the rollup doing its job (103,660 rows instead of 1,000,000 orders); the cost was in making and sorting 7,300 groups of three numeric sums.
- The rest of the request (about 80 ms at the median) grew with the body: 7 ms over the query for one store's 52 KB, 80 ms for 1 MB. It was not the response schema: fastify-type-provider-zod does check every response with the route's zod schema (\`safeEncode\`, then \`JSON.stringify\`), but timed alone on 7,300 such rows that took 0.5 ms and \`JSON.stringify\` 2.8 ms; the time went into moving a megabyte through the response.
- A chart of 20 stores × 365 days (20 lines of 365 points) cannot be read anyway. The screen now gets **revenue per day with the stores summed, and revenue per store with the days summed** (\`{ days, stores }\`: 385 rows, 28 KB for the year), both from **one pass** over the hours (\`GROUP BY GROUPING SETS ((day), (store))\`). It draws one bar a day and lists the stores, best first, in a "Revenue per store" table. The **CSV keeps a row per store and day**, complete (\`analyticsRevenueRows\`). The same call at 18:09 UTC (load 3.9): request p50 73 ms / p95 107 ms; EXPLAIN 82 ms, the same 103,660 rows into 385 groups.

**Top products and categories** read whole months from the month rollup and the partial months at the ends from the day rollup; an end of the range could read up to 30 days of product rows (Jan 2 – Dec 30: 58 days). A partial month is now read as its days **or as the whole month less its days outside the range, whichever is fewer days** (\`productPieces\`), so an end never reads more than half a month. Jan 15 – Dec 14 is nearly the worst case of the new rule (January as the month less 14 days, December as 14 days: 28 days instead of 31), so its figures change little; ranges near whole months read almost nothing from the day rollup.

**Contention decides a p95 of 50 calls on this machine.** In the 18:09 run the Jan 15 – Dec 14 calls ran while the load average rose from 4.8 to 8.9 (other sessions' builds and tests): revenue reached p95 329 ms there although it reads fewer rows than the full year (107 ms a minute earlier), and the query alone, p95 389 ms. Each range's calls now start on quiet CPUs (at most 15 % busy, waiting up to a minute), as the cart section does, and the table shows the load and CPU share they began with.

**Seeding**: 584 s in the first run, of which 337 s for the 5,000,000 lines. Their ids were random (\`md5(…)::uuid\`, and \`gen_random_uuid()\` for lines and visits), so every insert went to a random page of primary key indexes far larger than PostgreSQL's buffers. Ids are now made in insertion order (the n-th row of a table gets the n-th id), the backfill's session has \`work_mem = 256MB\` (its hash aggregates stay in memory), and the tables are analyzed before the backfill so it is planned on real row counts: 179 s at load 6–8 (lines 54 s), 141 s at load 3–9 (lines 46 s). The backfill statements are the migration's, unchanged.

**CSV downloads** are timed too (2026-11-25): the revenue CSV keeps a row per store and day (7,300 rows, 600 KB for the year), grouped from the store-hour rollup in one pass, and stays within budget on a quiet machine (p95 about 100 ms); the others are as small as their JSON.

**The Sessions list** (2026-11-25) is timed on the same data: 1,250,000 visits, 50,000 shoppers. Its first version worked out every visit's status, lines and totals (lateral sums per visit) before filtering and paging, and counted every match: on a trial with 125,000 visits the first page took about 1 s, and on 1,250,000 it hit the 15 s statement timeout. Picking the page first (25 ids by the entry-time index) did not help by itself: EXPLAIN showed the planner still joining the lateral sums of all 1,250,000 visits and the page (\`s.id in page\`) last, as a hash semi join; with the page leading the join (\`page p join shopping_sessions s\`) the same statement took 2 ms. Each status is now a condition on the visit's row, with partial indexes for the rare ones (visits inside the store, abandoned visits); a search is the union of three indexed lookups (shoppers by name then their visits, a range of ids for the start of an id, orders by receipt number); and the count stops at 10,000 (the screen says "10,000+"), since an exact count of a year of visits is a scan of them all (about 200–400 ms here). A name search took 7 s on the first seed, whose one shopper made every visit (the planner then expects any name to match them all); the seed now has 50,000 shoppers, as a chain has.

**The screen's code** (recharts included) is its own chunk, \`analytics-page-*.js\`: 395.5 KB, 113.6 KB with gzip in the build of 2026-11-23 18:16 UTC, loaded only when /analytics opens; the shopper's first load does not contain it (section "Page weight").`;

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

| route | range | rows | body KB | query p50 ms | query p95 ms | request p50 ms | request p95 ms | max ms | p95 within ${BUDGET_P95_MS} ms | load average / CPU busy before |
|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|
${rows.map((r) => `| ${r} |`).join("\n")}

### How it was measured

- A fresh database \`glide_bench_<timestamp>\` on the local PostgreSQL, migrated by the app (tables and the rollup triggers of migration 0012), then seeded in SQL with \`generate_series\` with \`session_replication_role = replica\` (no triggers, no foreign-key checks: a bulk load) and ids made in insertion order, then \`analyze\`, and the rollups filled by running the migration's own backfill statements (read from \`0012_analytics.sql\`, with \`work_mem = 256MB\` for the session), as an upgrade of a database with a year of data would. Then \`vacuum analyze\`.
- Data: ${data.stores} stores in Europe/Stockholm, ${data.products} products (12 categories), every order ${data.lines / data.orders} lines of products spread evenly (the worst case for the product rollup: most products sell in every store every day), 1 in 50 orders declined, ${n(data.visits)} visits, 1 in 100 orders refunded.
- Each call through the app built in the bench process (\`buildApp\`, \`app.inject\` with a platform admin's session cookie: no network; the session is resolved on every call), one warm-up call, then ${data.calls} calls one after another (\`BENCH_ANALYTICS_CALLS\`); then the service function ${data.calls} times. Before each range's calls the bench waits, up to a minute, for the CPUs to be at most 15 % busy (bench/cart-setup.ts \`quietCpu\`); "load average / CPU busy before" are the machine's 1-minute load average and the CPUs' busy share in the second before the range's calls began. The machine has 2 CPUs shared with other work: a load average above 2 means other processes were competing, and the figures are then pessimistic.

| seeding step | seconds |
|---|---:|
${seedRows.join("\n")}
| total | ${total.toFixed(1)} |

### Query plans (full year, all stores)

The gist of EXPLAIN (ANALYZE, BUFFERS) of each route's statement as the app sent it, run once after its measured calls: each node with the rows it gave and the time until its last row.

${plans.map((p) => `#### ${p.title}\n\n\`\`\`\n${planGist(p.text)}\n\`\`\`\n`).join("\n")}`;
}
