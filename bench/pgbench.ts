/**
 * The anchor for a scan's throughput: what PostgreSQL itself does with one
 * small write transaction per request (`pgbench -N`: an update of one
 * account, two selects and one insert), on the same server and machine, in
 * the same section as the scans it is compared with.
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { promisify } from "node:util";
import pg from "pg";

const run = promisify(execFile);

export type PgbenchRun = {
  clients: number;
  tps: number;
  latencyMs: number;
  transactions: number;
  /** PostgreSQL's CPU per transaction, ms (null without /proc). */
  postgresCpuMs: number | null;
};

/**
 * CPU seconds used so far by every PostgreSQL process on this machine and
 * by the backends that have ended (their time is the postmaster's, as
 * their parent's): pgbench's backends end with its run. Null without /proc.
 */
export function postgresCpuSeconds(): number | null {
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((d) => /^\d+$/.test(d));
  } catch {
    return null;
  }
  let ticks = 0;
  for (const pid of pids) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, "utf8").trim() !== "postgres") continue;
      // utime stime cutime cstime, in clock ticks (hundredths of a second on Linux).
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      ticks += fields.slice(11, 15).reduce((sum, f) => sum + Number(f), 0);
    } catch {
      // The process ended while we looked; its time is now its parent's.
    }
  }
  return ticks / 100;
}

/** PostgreSQL's CPU per transaction over `work`, in ms, beside what `work` answers. */
export async function postgresCpuPer<T>(
  work: () => Promise<T>,
  transactions: (done: T) => number,
): Promise<{ done: T; cpuMs: number | null }> {
  const before = postgresCpuSeconds();
  const done = await work();
  const after = postgresCpuSeconds();
  const n = transactions(done);
  return { done, cpuMs: before === null || after === null || n === 0 ? null : (1000 * (after - before)) / n };
}

/** pgbench's own figures from its report. */
export function pgbenchFigures(stdout: string): { tps: number; latencyMs: number; transactions: number } {
  const tps = /tps = ([\d.]+)/.exec(stdout)?.[1];
  const latency = /latency average = ([\d.]+) ms/.exec(stdout)?.[1];
  const done = /number of transactions actually processed: (\d+)/.exec(stdout)?.[1];
  if (!tps || !latency || !done) throw new Error(`pgbench said:\n${stdout}`);
  return { tps: Number(tps), latencyMs: Number(latency), transactions: Number(done) };
}

/** Debian keeps pgbench with the server (postgresql-NN); a wrapper may also be on the PATH. */
export function pgbenchPath(): string | null {
  const base = "/usr/lib/postgresql";
  if (existsSync(base)) {
    for (const version of readdirSync(base).sort().reverse()) {
      const bin = `${base}/${version}/bin/pgbench`;
      if (existsSync(bin)) return bin;
    }
  }
  return null;
}

/**
 * `pgbench -N` at each number of clients for `seconds`, on a scratch database
 * of the PostgreSQL at `adminUrl` (scale 1, made and dropped here).
 */
export async function pgbenchAnchor(
  adminUrl: string,
  clients: number[],
  seconds: number,
): Promise<PgbenchRun[] | string> {
  const bin = pgbenchPath() ?? "pgbench";
  const name = `glide_bench_pgbench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const db = url.toString();
    await run(bin, ["-i", "-q", "-s", "1", db]);
    const runs: PgbenchRun[] = [];
    for (const c of clients) {
      // -n: no vacuum before the run (the tables are fresh); -j 2: a thread per core of this machine.
      const args = ["-N", "-n", "-c", String(c), "-j", "2", "-T", String(seconds), db];
      const { done, cpuMs } = await postgresCpuPer(
        async () => pgbenchFigures((await run(bin, args)).stdout),
        (f) => f.transactions,
      );
      runs.push({ clients: c, ...done, postgresCpuMs: cpuMs });
    }
    return runs;
  } catch (err) {
    return `pgbench: ${(err as Error).message}`;
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`).catch(() => {});
    await admin.end().catch(() => {});
  }
}
