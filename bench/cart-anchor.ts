/**
 * The cart section's two references beside its own figures: a CPU profile
 * of the server during a spread run (its top frames, and a flame graph in
 * bench/scan-flame.svg), and PostgreSQL's own `pgbench -N` on the same server.
 */
import os from "node:os";
import path from "node:path";
import { foldStacks, startProfiler, type TopFrame, timeByPlace, topFrames, writeFlameGraph } from "./cpu-profile.ts";
import { POSTGRES_URL, root, type Server } from "./lib.ts";
import { type PgbenchRun, pgbenchAnchor } from "./pgbench.ts";
import type { StatementProfile } from "./scan-statement.ts";

export type ScanProfile = {
  rps: number;
  busyMs: number;
  idleShare: number;
  frames: TopFrame[];
  places: [string, number][];
  file: string;
};

export const FLAME_GRAPH = "bench/scan-flame.svg";

/** Runs `load` (a spread run) with the server's profiler on; answers its requests/s with the profile's summary. */
export async function profiledScans(server: Server, load: () => Promise<{ rps: number }>): Promise<ScanProfile> {
  if (server.inspectPort === undefined) throw new Error("the server was started without an inspector port");
  const profiler = await startProfiler(server.pid, server.inspectPort);
  const { rps } = await load();
  const folded = foldStacks(await profiler.stop());
  writeFlameGraph(
    folded,
    path.join(root, FLAME_GRAPH),
    `POST /api/v1/cart/scan, spread load: the server's busy CPU samples (${new Date().toISOString()})`,
  );
  const { busyMs, idleShare, frames } = topFrames(folded);
  return { rps, busyMs, idleShare, frames, places: timeByPlace(folded).slice(0, 15), file: FLAME_GRAPH };
}

/** `pgbench -N` at the server's pool size and at 50 clients (the issue's reference), 10 s each. */
export function pgbenchRuns(poolSize: number, seconds: number): Promise<PgbenchRun[] | string> {
  return pgbenchAnchor(POSTGRES_URL, [poolSize, 50], seconds);
}

/** The scan's statement driven by pgbench alone on the section's database, or why it was not (bench/scan-statement.ts). */
export async function statementRuns(url: string, clients: number, seconds: number): Promise<StatementProfile | string> {
  // Imported here: it loads the server's cart code, which the bare child started from cart.ts does not need.
  const { statementProfile } = await import("./scan-statement.ts");
  return statementProfile(url, seconds, clients).catch((err: Error) => err.message);
}

/** Goals of issue 26 for a scan, beside their anchors. */
const SHARE_OF_PGBENCH = 50;
const SERVER_CPU_MS = 0.6;

/** The section's lines on the goals against pgbench and the server's CPU per scan. */
export function anchorLines(
  spread: { rps?: number; serverCpuMs?: number; cores?: SpreadCores | null } | undefined,
  anchor: PgbenchRun[] | string,
  connections: number,
): string {
  const verdict = (ok: boolean | undefined) => (ok === undefined ? "not measured" : ok ? "met" : "not met");
  const cpu = spread?.serverCpuMs;
  const cpuLine = `- Server CPU per scan ≤ ${SERVER_CPU_MS} ms (issue 26), spread load: **${verdict(cpu === undefined ? undefined : cpu <= SERVER_CPU_MS)}**; ${cpu === undefined ? "not measured" : `${cpu.toFixed(2)} ms`}.`;
  if (typeof anchor === "string")
    return `${cpuLine}\n- Against \`pgbench -N\`: not measured (${anchor.split("\n")[0]}).`;
  const runs = anchor.map((r) => {
    const share = spread?.rps === undefined ? undefined : (100 * spread.rps) / r.tps;
    return `${Math.round(r.tps).toLocaleString("en")} transactions/s at ${r.clients} clients (${share === undefined ? "–" : `scans ${Math.round(share)} %`})`;
  });
  const judged = anchor.at(-1);
  const share = spread?.rps === undefined || !judged ? undefined : (100 * spread.rps) / judged.tps;
  return `${cpuLine}
- Scans at ${connections} connections ≥ ${SHARE_OF_PGBENCH} % of \`pgbench -N\` on the same PostgreSQL (issue 26), judged at ${judged?.clients ?? "–"} clients (the issue's reference; 100 pgbench clients would pass PostgreSQL's \`max_connections\` of 100 beside the server's own): **${verdict(share === undefined ? undefined : share >= SHARE_OF_PGBENCH)}**; pgbench did ${runs.join(", ")} (the first at the server's pool size, the connections PostgreSQL sees from it).${judged ? budgetLine(spread, judged) : ""}`;
}

/**
 * What the goal leaves PostgreSQL per scan on this machine: at half of
 * pgbench's rate every core's time is shared by that many scans, less what
 * the server, the load generator and the rest of the machine took per scan
 * in the spread run.
 */
function budgetLine(spread: { rps?: number; cores?: SpreadCores | null } | undefined, judged: PgbenchRun): string {
  const c = spread?.cores;
  if (!c || !spread?.rps) return "";
  const per = (cores: number) => (1000 * cores) / spread.rps!;
  const whole = (1000 * os.availableParallelism()) / ((judged.tps * SHARE_OF_PGBENCH) / 100);
  const others = per(c.server) + per(c.bench) + per(c.others);
  const left = whole - others;
  const pgbench =
    judged.postgresCpuMs === null
      ? ""
      : `, where a \`pgbench -N\` transaction cost it ${judged.postgresCpuMs.toFixed(2)} ms`;
  return ` At ${SHARE_OF_PGBENCH} % a scan could take at most ${whole.toFixed(2)} ms of the machine's ${os.availableParallelism()} cores; the server (${per(c.server).toFixed(2)} ms), the load generator and the rest of the machine took ${others.toFixed(2)} ms per scan in the spread run, which leaves PostgreSQL ${left > 0 ? `${left.toFixed(2)} ms` : "nothing"} for a scan that cost it ${per(c.postgres).toFixed(2)} ms${pgbench}.`;
}

type SpreadCores = { server: number; postgres: number; bench: number; others: number };

/** The profile's part of the section: top frames, time by place, and where the flame graph is. */
export function profileSection(profile: ScanProfile | { skipped: string }): string {
  if ("skipped" in profile)
    return `### Where the server's CPU goes\n\nNot profiled: ${profile.skipped.split("\n")[0]}\n`;
  const pct = (v: number) => `${(100 * v).toFixed(1)} %`;
  const frames = profile.frames.map((f) => `| \`${f.name}\` | ${pct(f.selfShare)} | ${pct(f.totalShare)} |`);
  const places = profile.places.map(([p, v]) => `| \`${p}\` | ${pct(v)} |`);
  return `### Where the server's CPU goes

The spread load once more (${Math.round(profile.rps).toLocaleString("en")} scans/s) with V8's sampling profiler on in the server for the run (every 200 µs, over the inspector protocol; bench/cpu-profile.ts). ${profile.busyMs.toFixed(0)} ms of busy samples; the server's main thread was idle ${pct(profile.idleShare)} of the run. Flame graph: [${profile.file.replace("bench/", "")}](${profile.file.replace("bench/", "")}) (the server's code in blue, Node and packages in orange).

| frame (function, where) | own time | with its callees |
|---|---:|---:|
${frames.join("\n")}

Busy time by where the code lives (a sample counts once for each place on its stack, so the shares overlap):

| package or folder | share of busy time |
|---|---:|
${places.join("\n")}
`;
}
