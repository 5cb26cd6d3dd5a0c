/**
 * Where PostgreSQL's time goes in a scan: the scan's statement, as the
 * server prepares it, driven by pgbench alone (no server, no HTTP, no
 * event bus) on the cart section's database after its runs. Each
 * transaction draws an open visit and a product at random and scans it
 * with a new scan_id, with the visit's cart_version as the instance's kept
 * copy would send it. PostgreSQL's CPU per statement comes from /proc;
 * where `perf` can record the whole machine, a second run is sampled and
 * PostgreSQL's time is split by the phase of a statement's life it was in.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { PgDialect } from "drizzle-orm/pg-core";
import pg from "pg";
import { scanBatchStatement, scanStatement } from "../apps/server/src/features/cart/scan-statement.ts";
import { type PgbenchRun, pgbenchFigures, pgbenchPath, postgresCpuPer } from "./pgbench.ts";

const run = promisify(execFile);

export type StatementProfile = {
  clients: number;
  seconds: number;
  tps: number;
  postgresCpuMs: number | null;
  visits: number;
  products: number;
  /** PostgreSQL's samples by phase (with callees), and its busiest functions (own time); or why there are none. */
  phases: { fn: string; what: string; share: number }[] | string;
  hottest: { fn: string; share: number }[];
  /** The batch statement (scanBatchStatement), `size` visits' scans a statement, as an instance sends them under load. */
  batch: { size: number; tps: number; postgresCpuMs: number | null } | string;
};

/** Each slot of the scan's statement as pgbench fills it: from the transaction's draw, or a value of this harness. */
const FILLED: Record<string, string> = {
  customer: ":cid",
  session: ":sid",
  scan: ":scan",
  gtin: ":g",
  raw: ":g",
  at: ":at",
  known: ":known",
  // The copy's sum only meets the cart's total limit, which this harness sets out of reach.
  known_ore: "0",
  max_total: "1000000000",
  max_line: "999",
  age_checked: "false",
  // A product's own code: no label price, weight or label line.
  price_ore: "NULL",
  grams: "NULL",
  label_gtin: "NULL",
  line_label: "NULL",
};

/** The phases of a statement's life, by the PostgreSQL function that runs each (PostgreSQL 15). */
const PHASES: [string, string][] = [
  ["GetCachedPlan", "the prepared statement's plan taken from its cache, its tables locked"],
  ["standard_ExecutorStart", "executor start: every node of the plan set up"],
  ["standard_ExecutorRun", "executor run: the statement's reads and writes"],
  ["ExecSetParamPlan", "…of which the subqueries run once for a value"],
  ["heap_insert", "…of which rows inserted"],
  ["heap_update", "…of which rows updated"],
  ["ExecInsertIndexTuples", "…of which the index entries of rows written"],
  ["standard_ExecutorFinish", "executor finish: the after-statement triggers (the cart_version triggers)"],
  ["standard_ExecutorEnd", "executor end: the plan's nodes taken down"],
  ["CommitTransactionCommand", "commit"],
  ["XLogFlush", "…of which the write-ahead log's flush"],
];

/** The statement as a pgbench script, or why it cannot be one. */
export function pgbenchScript(visits: number, products: number): string {
  const { sql, params } = scanStatement.statement(new PgDialect());
  const literal = (value: unknown): string => {
    if (value === null || value === undefined) return "NULL";
    if (typeof value === "number" || typeof value === "bigint" || typeof value === "boolean") return String(value);
    const text = String(value);
    // pgbench reads `:name` anywhere in a script as a variable, inside quotes too.
    if (text.includes(":")) throw new Error(`a value of the statement has a colon pgbench would read: ${text}`);
    return `'${text.replaceAll("'", "''")}'`;
  };
  const filled = sql
    .replace(/--[^\n]*/g, " ")
    .replace(/\$(\d+)/g, (_, n: string) => {
      const param = params[Number(n) - 1]!;
      if (!("slot" in param)) return literal(param.value);
      const value = FILLED[param.slot];
      if (value === undefined)
        throw new Error(`the scan's statement has a slot this harness does not fill: ${param.slot}`);
      return value;
    })
    .replace(/\s+/g, " ");
  return `\\set v random(1, ${visits})
\\set p random(1, ${products})
select v.id as sid, v.customer_id as cid, s.cart_version as known, c.gtin14 as g, gen_random_uuid() as scan, now()::text as at from bench_scan_visits v join shopping_sessions s on s.id = v.id, bench_scan_codes c where v.n = :v and c.n = :p \\gset
${filled};
`;
}

/**
 * The batch statement as a pgbench script: each client scans its own `size`
 * visits (as an instance's batches hold each visit once, and a visit's scans
 * wait for each other), each a product drawn at random, in one statement.
 */
export function pgbenchBatchScript(size: number, products: number): string {
  const { sql, params } = scanBatchStatement.statement(new PgDialect());
  const filled = sql
    .replace(/--[^\n]*/g, " ")
    .replace(/\$(\d+)/g, (_, n: string) => {
      const param = params[Number(n) - 1]!;
      if (!("slot" in param)) return `'${String(param.value)}'`;
      if (param.slot !== "scans")
        throw new Error(`the batch statement has a slot this harness does not fill: ${param.slot}`);
      return ":scans";
    })
    .replace(/\s+/g, " ");
  // The same values as the one-scan script's FILLED, a JSON object per scan.
  const scans = `json_agg(json_build_object('customer', v.customer_id, 'session', v.id, 'scan', gen_random_uuid(),
    'age_checked', false, 'max_line', 999, 'max_total', 1000000000, 'at', now(), 'known', s.cart_version, 'known_ore', 0,
    'price_ore', null, 'grams', null, 'gtin', c.gtin14, 'label_gtin', null, 'line_label', null, 'raw', c.gtin14) order by v.n)`;
  return `\\set v 1 + :client_id * ${size}
\\set p random(1, ${products})
select ${scans.replace(/\s+/g, " ")} as scans from bench_scan_visits v join shopping_sessions s on s.id = v.id join bench_scan_codes c on c.n = (:p + v.n) % ${products} + 1 where v.n between :v and :v + ${size - 1} \\gset
${filled};
`;
}

export async function statementProfile(url: string, seconds: number, clients: number): Promise<StatementProfile> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const dir = mkdtempSync(path.join(os.tmpdir(), "glide-bench-statement-"));
  try {
    // The visits still open, and the codes of the products anyone may buy (an age-limited one would add nothing).
    await client.query(`create table bench_scan_visits as
      select row_number() over (order by id) as n, id, customer_id from shopping_sessions where state = 'in_store'`);
    await client.query(`create table bench_scan_codes as
      select row_number() over (order by b.gtin14) as n, b.gtin14 from product_barcodes b join products p on p.id = b.product_id
      where p.is_active and coalesce(p.age_limit, 0) = 0`);
    const count = async (table: string) =>
      Number((await client.query<{ n: string }>(`select count(*) as n from ${table}`)).rows[0]!.n);
    const visits = await count("bench_scan_visits");
    const products = await count("bench_scan_codes");
    if (visits === 0 || products === 0) throw new Error("the bench's database has no open visit or no product to scan");
    const file = path.join(dir, "scan.pgbench");
    writeFileSync(file, pgbenchScript(visits, products));
    const bin = pgbenchPath() ?? "pgbench";
    const pgbench = (secs: number) =>
      run(bin, ["-n", "-M", "prepared", "-c", String(clients), "-j", "2", "-T", String(secs), "-f", file, url]);
    const { done, cpuMs } = await postgresCpuPer(
      async () => pgbenchFigures((await pgbench(seconds)).stdout),
      (f) => f.transactions,
    );
    const sampled = await sampledRun(dir, () => pgbench(seconds)).catch((err: Error) => err.message.split("\n")[0]!);
    const size = Math.min(10, Math.floor(visits / clients));
    const batchFile = path.join(dir, "batch.pgbench");
    writeFileSync(batchFile, pgbenchBatchScript(size, products));
    const batch = await postgresCpuPer(
      async () =>
        pgbenchFigures(
          (
            await run(bin, [
              ...["-n", "-M", "prepared", "-c", String(clients), "-j", "2", "-T", String(seconds)],
              ...["-f", batchFile, url],
            ])
          ).stdout,
        ),
      (f) => f.transactions * size,
    )
      .then(({ done, cpuMs }) => ({ size, tps: done.tps, postgresCpuMs: cpuMs }))
      .catch((err: Error) => err.message.split("\n")[0]!);
    return {
      clients,
      seconds,
      tps: done.tps,
      postgresCpuMs: cpuMs,
      visits,
      products,
      phases: typeof sampled === "string" ? sampled : sampled.phases,
      hottest: typeof sampled === "string" ? [] : sampled.hottest,
      batch,
    };
  } finally {
    await client.query("drop table if exists bench_scan_visits, bench_scan_codes").catch(() => {});
    await client.end();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `load` once more with `perf record` sampling every process on the machine
 * (999 times a second, with call chains) for its middle, then PostgreSQL's
 * processes' samples: the share of each phase with what it calls, and the
 * functions with the most samples of their own.
 */
async function sampledRun(dir: string, load: () => Promise<unknown>) {
  const data = path.join(dir, "perf.data");
  const loading = load();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await run("perf", ["record", "-a", "-g", "-F", "999", "-o", data, "--", "sleep", "5"]);
  await loading;
  const report = (children: boolean) =>
    run(
      "perf",
      [
        "report",
        "-i",
        data,
        "--comm",
        "postgres",
        children ? "--children" : "--no-children",
        "--percentage",
        "relative",
        "--sort",
        "sym",
        "-g",
        "none",
        "--stdio",
      ],
      { maxBuffer: 64 * 1024 * 1024 },
    ).then((r) => shares(r.stdout, children));
  const total = await report(true);
  const own = await report(false);
  return {
    phases: PHASES.map(([fn, what]) => ({ fn, what, share: total.get(fn) ?? 0 })),
    hottest: [...own].slice(0, 10).map(([fn, share]) => ({ fn, share })),
  };
}

/** perf report's lines `  81.85%  0.26%  [.] PostgresMain` as function → share (with callees, or own). */
function shares(text: string, children: boolean): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split("\n")) {
    const m = /^\s*([\d.]+)%\s+(?:([\d.]+)%\s+)?\[[.k]\]\s+(\S+)/.exec(line);
    if (!m || m[3]!.startsWith("0x")) continue;
    const share = Number(children ? m[1] : (m[2] ?? m[1])) / 100;
    if (!found.has(m[3]!)) found.set(m[3]!, share);
  }
  return found;
}

/** The section's part on PostgreSQL's own time per scan, beside `pgbench -N`'s per transaction. */
export function statementSection(profile: StatementProfile | string, anchor: PgbenchRun[] | string): string {
  const title = "### Where PostgreSQL's time goes: the scan's statement alone";
  if (typeof profile === "string") return `${title}\n\nNot measured: ${profile.split("\n")[0]}\n`;
  const pct = (v: number) => `${(100 * v).toFixed(1)} %`;
  const cpu = (ms: number | null) => (ms === null ? "–" : `${ms.toFixed(2)} ms`);
  const beside = typeof anchor === "string" ? undefined : anchor.find((r) => r.clients === profile.clients);
  const ratio =
    beside?.postgresCpuMs && profile.postgresCpuMs
      ? `, ${(profile.postgresCpuMs / beside.postgresCpuMs).toFixed(1)} times as much`
      : "";
  const compared = beside
    ? ` \`pgbench -N\` at ${beside.clients} clients above cost PostgreSQL ${cpu(beside.postgresCpuMs)} per transaction${ratio}.`
    : "";
  const sampled =
    typeof profile.phases === "string"
      ? `Not sampled: ${profile.phases}`
      : `PostgreSQL's processes sampled by \`perf record\` (999 a second, with call chains) over 5 s of a second such run: the share of their samples in each phase of a statement's life, with what it calls. The call chains come from frame pointers, which Debian's build of PostgreSQL keeps in part, so the shares are floors.

| phase | PostgreSQL function | share of PostgreSQL's samples |
|---|---|---:|
${profile.phases.map((p) => `| ${p.what} | \`${p.fn}\` | ${pct(p.share)} |`).join("\n")}

The functions with the most samples of their own: ${profile.hottest.map((h) => `\`${h.fn}\` ${pct(h.share)}`).join(", ")}.`;
  return `${title}

After the runs above, the scan's statement as the server prepares it (\`scanStatement\` in features/cart/scan-statement.ts, its text and slots from \`preparedOnce\`), driven by \`pgbench\` alone, with no server, HTTP or event bus in the way (bench/scan-statement.ts): ${profile.clients} clients, \`-M prepared\`, ${profile.seconds} s; each transaction draws one of the ${profile.visits} open visits and one of ${profile.products} products, looks up the visit's \`cart_version\` (as an instance's kept copy sends it) and scans with a new scan_id. It ran ${Math.round(profile.tps).toLocaleString("en")} times a second at ${cpu(profile.postgresCpuMs)} of PostgreSQL's CPU per scan (all its processes, from \`/proc\`; the lookup included).${compared}

${batchPart(profile.batch, profile.tps, profile.postgresCpuMs, beside)}

${sampled}
`;
}

/** The batch statement's run beside the one-scan statement's and `pgbench -N`'s. */
function batchPart(
  batch: StatementProfile["batch"],
  oneTps: number,
  oneCpuMs: number | null,
  beside: PgbenchRun | undefined,
): string {
  if (typeof batch === "string") return `The batch statement was not measured: ${batch}`;
  const scans = batch.tps * batch.size;
  const cpu = batch.postgresCpuMs === null ? "–" : `${batch.postgresCpuMs.toFixed(2)} ms`;
  const ofOne =
    batch.postgresCpuMs && oneCpuMs
      ? ` (${((100 * batch.postgresCpuMs) / oneCpuMs).toFixed(0)} % of one scan's alone)`
      : "";
  const ofAnchor = beside
    ? `, ${((100 * scans) / beside.tps).toFixed(0)} % of \`pgbench -N\`'s ${Math.round(beside.tps).toLocaleString("en")} transactions a second at ${beside.clients} clients`
    : "";
  return `The batch statement as an instance sends it under load (\`scanBatchStatement\`, the same rows in one statement for ${batch.size} visits), the same clients and seconds, each client scanning its own ${batch.size} visits a product each, the lookup of their versions included: ${Math.round(batch.tps).toLocaleString("en")} statements a second, ${Math.round(scans).toLocaleString("en")} scans a second${ofAnchor}, at ${cpu} of PostgreSQL's CPU per scan${ofOne}; the one-scan statement above did ${Math.round(oneTps).toLocaleString("en")}.`;
}
