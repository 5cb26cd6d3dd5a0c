/**
 * What the benchmarks share: settings, the real server as a signed-in child
 * process, a throwaway PostgreSQL database, and autocannon with the latency
 * of every response.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";

export const HOST = "127.0.0.1";
export const POSTGRES_URL = `postgres://postgres@${HOST}:5432`;
export const root = path.resolve(import.meta.dirname, "..");
/** Between a warm-up and the measured run, so measuring starts on an idle server. */
export const PAUSE_MS = 2000;

export type Result = {
  requests: { average: number; total: number };
  latency: { p50: number; p97_5: number; p99: number; max: number };
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
};
/** A running autocannon: awaitable for its result, and it reports each response (latency in ms). */
type Run = PromiseLike<Result> & {
  on(event: "response", listener: (client: unknown, status: number, bytes: number, ms: number) => void): Run;
};
// autocannon ships no types; this is the part of its API we use.
const require = createRequire(import.meta.url);
export const autocannon = require("autocannon") as (opts: Record<string, unknown>) => Run;
export const autocannonVersion = (require("autocannon/package.json") as { version: string }).version;

export function setting(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) fail(`${name} must be a positive whole number`);
  return value;
}

export function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

export type Skipped = { skipped: string };

/** A fresh database for `use`, dropped afterwards; no PostgreSQL means skipped, not a failure. */
export async function withPostgres<T>(use: (url: string, version: string) => Promise<T>): Promise<T | Skipped> {
  const admin = new pg.Client({ connectionString: `${POSTGRES_URL}/postgres`, connectionTimeoutMillis: 3000 });
  const dbName = `glide_bench_${Date.now()}`;
  let version: string;
  try {
    await admin.connect();
    version = (await admin.query<{ server_version: string }>("show server_version")).rows[0]!.server_version;
    await admin.query(`create database ${dbName}`);
  } catch (err) {
    await admin.end().catch(() => {});
    return { skipped: `PostgreSQL at ${HOST}:5432: ${(err as Error).message}` };
  }
  try {
    return await use(`${POSTGRES_URL}/${dbName}`, version);
  } finally {
    // BENCH_KEEP_DATABASE=true leaves it for a look at its plans afterwards (drop it by hand).
    if (process.env.BENCH_KEEP_DATABASE === "true") process.stderr.write(`kept database ${dbName}\n`);
    else await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end().catch(() => {});
  }
}

export type Server = {
  base: string;
  port: number;
  session: string;
  /** The server's process, and the port its inspector opens on at SIGUSR1 (bench/cpu-profile.ts). */
  pid: number;
  inspectPort?: number;
  /** Its last log lines, to explain a failed request. */
  log: () => string;
};

/**
 * The real server on a fresh data folder, a platform admin signed in, for
 * the length of `use`. A failure carries the server's last log lines.
 */
export async function withServer<T>(env: Record<string, string>, use: (server: Server) => Promise<T>): Promise<T> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "glide-bench-"));
  const port = await freePort();
  const inspectPort = await freePort();
  const email = "bench@example.com";
  const password = randomBytes(12).toString("base64url");
  // --inspect-port opens nothing by itself: the inspector starts only if a bench asks for a profile (SIGUSR1).
  const child = start([`--inspect-port=127.0.0.1:${inspectPort}`, "apps/server/src/main.ts"], {
    ...env,
    NODE_ENV: "production",
    // No load balancer to drain from: the bench's servers stop at once.
    SHUTDOWN_DRAIN_MS: "0",
    SECRET_KEY: randomBytes(32).toString("base64url"),
    PORT: String(port),
    HOST,
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    ADMIN_EMAIL: email,
    ADMIN_PASSWORD: password,
  });
  const base = `http://${HOST}:${port}`;
  try {
    await waitReady(child, `${base}/api/health`);
    const login = await call(`${base}/api/v1/admin/login`, { method: "POST", json: { email, password } });
    const cookie = login.headers.getSetCookie().find((c) => c.startsWith("glide_admin_session="));
    if (!cookie) throw new Error("sign-in set no glide_admin_session cookie");
    return await use({
      base,
      port,
      session: cookie.split(";")[0]!,
      pid: child.pid!,
      inspectPort,
      log: () => serverLog(child),
    });
  } catch (err) {
    // The server logs asynchronously: its last lines are only all there once it has exited.
    await stop(child);
    throw new Error(failure(err, child));
  } finally {
    await stop(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

type CallOptions = { method?: string; json?: unknown; csv?: string; cookie?: string | undefined; timeoutMs?: number };

/** fetch that throws on a non-2xx answer, with the answer's text in the message. */
export async function call(url: string, opts: CallOptions = {}): Promise<Response> {
  const method = opts.method ?? "GET";
  const headers: Record<string, string> = opts.cookie ? { cookie: opts.cookie } : {};
  let body: string | undefined;
  if (opts.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(opts.json);
  } else if (opts.csv !== undefined) {
    headers["content-type"] = "text/csv";
    body = opts.csv;
  }
  const res = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000) });
  if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${(await res.text()).slice(0, 1000)}`);
  return res;
}

/**
 * Its stdout and stderr, the last 512 KB: the log lines that explain a
 * failure (one logged failed query can carry thousands of parameters).
 */
export type Child = ChildProcess & { output: string };
const children = new Set<Child>();
process.on("exit", () => {
  for (const c of children) c.kill("SIGKILL");
});

export function start(args: string[], env: Record<string, string>): Child {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? os.tmpdir(), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  }) as Child;
  child.output = "";
  const keep = (d: Buffer) => {
    child.output = (child.output + d.toString()).slice(-512 * 1024);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  children.add(child);
  return child;
}

export async function waitReady(child: Child, url: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode} before it was ready`);
    const answer = await fetch(url, { signal: AbortSignal.timeout(1000) }).catch(() => null);
    if (answer && answer.status < 500) return;
    await sleep(200);
  }
  throw new Error(`${url} did not answer within 60 s`);
}

/**
 * Waits until the server answers 10 health checks (database pings) at once,
 * quickly: with the default pool of 10 that needs every pooled connection
 * free, so requests a load run left in flight have finished and what comes
 * next is measured on an idle server and database.
 */
export async function waitIdle(base: string): Promise<void> {
  const ping = () => fetch(`${base}/api/health`, { signal: AbortSignal.timeout(5000) }).catch(() => null);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 10 }, ping));
    if (answers.every((a) => a?.ok) && performance.now() - started < 100) return;
    await sleep(200);
  }
  throw new Error(`${base} was still busy 60 s after the load stopped`);
}

export async function stop(child: Child): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = once(child, "exit");
    child.kill("SIGTERM");
    // The server allows itself 10 s to finish in-flight requests before it exits.
    const graceful = await Promise.race([exited.then(() => true), sleep(15_000, false, { ref: false })]);
    if (!graceful) child.kill("SIGKILL");
    await exited;
  }
  children.delete(child);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, HOST, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

export function failure(err: unknown, child: Child): string {
  const log = serverLog(child);
  return `${(err as Error).message}${log ? `\nserver output:\n${log}` : ""}`;
}

/** The server's last log lines, each cut to a readable length: pino lines as their message and error. */
export function serverLog(child: Child): string {
  const cut = (text: string, max: number) =>
    text.length <= max ? text : `${text.slice(0, max / 2)} … ${text.slice(-max / 2)}`;
  const lines = child.output.trim().split("\n").filter(Boolean).slice(-15);
  return lines
    .map((line) => {
      try {
        const entry = JSON.parse(line) as { msg?: string; err?: { message?: string } };
        return cut(`${entry.msg ?? ""}${entry.err?.message ? `: ${entry.err.message}` : ""}`, 400);
      } catch {
        return cut(line, 400);
      }
    })
    .join("\n");
}

export function machine(): string {
  const cpu = `${os.availableParallelism()} CPUs (${os.cpus()[0]?.model ?? "unknown"})`;
  const memory = `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB memory`;
  return `${cpu}, ${memory}, ${os.type()} ${os.release()} ${os.arch()}; Node ${process.version}`;
}

/** The 1-minute load average: above the CPU count, other processes were competing with the bench. */
export const loadAverage = () => os.loadavg()[0]!.toFixed(1);

/**
 * How busy the CPUs are over one second, in percent, from /proc/stat (null
 * elsewhere). Taken while the bench and its servers are idle, just before a
 * measured run, it is the share other processes on the machine were using.
 */
export async function cpuBusy(): Promise<number | null> {
  const sample = () => {
    const fields = readFileSync("/proc/stat", "utf8").split("\n", 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal: idle and iowait are not busy.
    const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
    return { total, idle: fields[3]! + fields[4]! };
  };
  try {
    const a = sample();
    await sleep(1000);
    const b = sample();
    return Math.round(100 * (1 - (b.idle - a.idle) / (b.total - a.total)));
  } catch {
    return null;
  }
}

/** One count (`… as n`) read on its own connection to the database at `url`. */
export async function countRows(url: string, query: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(query);
    return rows[0]!.n;
  } finally {
    await client.end();
  }
}
