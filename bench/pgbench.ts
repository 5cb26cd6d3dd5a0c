/**
 * The anchor for a scan's throughput: what PostgreSQL itself does with one
 * small write transaction per request (`pgbench -N`: an update of one
 * account, two selects and one insert), on the same server and machine, in
 * the same section as the scans it is compared with.
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { promisify } from "node:util";
import pg from "pg";

const run = promisify(execFile);

export type PgbenchRun = { clients: number; tps: number; latencyMs: number; transactions: number };

/** Debian keeps pgbench with the server (postgresql-NN); a wrapper may also be on the PATH. */
function pgbenchPath(): string | null {
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
      const { stdout } = await run(bin, ["-N", "-n", "-c", String(c), "-j", "2", "-T", String(seconds), db]);
      const tps = /tps = ([\d.]+)/.exec(stdout)?.[1];
      const latency = /latency average = ([\d.]+) ms/.exec(stdout)?.[1];
      const done = /number of transactions actually processed: (\d+)/.exec(stdout)?.[1];
      if (!tps || !latency || !done) throw new Error(`pgbench said:\n${stdout}`);
      runs.push({ clients: c, tps: Number(tps), latencyMs: Number(latency), transactions: Number(done) });
    }
    return runs;
  } catch (err) {
    return `pgbench: ${(err as Error).message}`;
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`).catch(() => {});
    await admin.end().catch(() => {});
  }
}
