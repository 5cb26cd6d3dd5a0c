/**
 * The live cart's fan-out: BENCH_FANOUT_SOCKETS shoppers' phones hold
 * /ws/cart open, spread over two server instances on one PostgreSQL, while
 * scans arrive at a steady rate on either instance. For each scan, the time
 * from its HTTP answer to its product_added at the visit's socket. Once with
 * the event bus on PostgreSQL LISTEN/NOTIFY, once on Redis (REDIS_URL).
 * Returns its section of bench/results.md (bench/cart-fanout-report.ts).
 */
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { type FanoutCase, type FanoutFigures, fanoutReport } from "./cart-fanout-report.ts";
import { machineCpu, openVisits, prepareShop, quietCpu, SCAN_PATH, type Shop, shopperToken } from "./cart-setup.ts";
import {
  type Child,
  call,
  failure,
  freePort,
  HOST,
  PAUSE_MS,
  type Server,
  type Skipped,
  serverLog,
  setting,
  start,
  stop,
  waitIdle,
  waitReady,
  withPostgres,
} from "./lib.ts";
import { quantile, steadyLoad } from "./steady.ts";

const socketCount = setting("BENCH_FANOUT_SOCKETS", 5000);
const rate = setting("BENCH_FANOUT_RATE", 200);
const duration = setting("BENCH_DURATION", 10);
const warmup = Math.min(3, duration);
const INSTANCES = 2;
const REDIS_URL = "redis://127.0.0.1:6379";
const PRODUCTS = 200;
/** How long after the last answer a message may still arrive before it counts as missing. */
const GRACE_MS = 5000;

/** Seconds the fan-out section may take before the bench gives up: visits and sockets take most of it. */
export const fanoutTimeLimit = 2 * (warmup + duration + PAUSE_MS / 1000 + 120 + 60) + socketCount * 0.05 + 300;

export async function fanoutBench(): Promise<string> {
  const settings = { sockets: socketCount, rate, duration, warmup, instances: INSTANCES, graceMs: GRACE_MS };
  const limit = openFileLimit();
  // Each socket is a descriptor in this process and one in a server; the rest is headroom.
  if (limit !== null && limit < socketCount + 1000) {
    const skipped = `this process may open ${limit} files (ulimit -n); ${socketCount} sockets need at least ${socketCount + 1000}`;
    return fanoutReport({ skipped }, settings);
  }
  const measured = await withPostgres(async (url, version) => {
    const secret = randomBytes(32).toString("base64url");
    const password = randomBytes(12).toString("base64url");
    const env = { DATABASE_URL: url, DEV_TOOLS: "true", SECRET_KEY: secret, ADMIN_PASSWORD: password };
    let shop: Shop | undefined;
    let visits: string[] = [];
    let setupSeconds = 0;
    const cases: FanoutCase[] = [];
    for (const bus of ["PostgreSQL LISTEN/NOTIFY", "Redis pub/sub"] as const) {
      if (bus === "Redis pub/sub" && !(await reachable(REDIS_URL))) {
        cases.push({ bus, skipped: `Redis at ${REDIS_URL} did not answer` });
        continue;
      }
      const busEnv = bus === "Redis pub/sub" ? { ...env, REDIS_URL } : env;
      const figures = await withInstances(busEnv, password, async (servers) => {
        if (!shop) {
          const started = performance.now();
          shop = await prepareShop(servers[0]!, PRODUCTS, socketCount);
          visits = await openVisits(servers[0]!.base, shop, await shopperToken(servers[0]!.base), socketCount);
          setupSeconds = (performance.now() - started) / 1000;
        }
        return fanoutCase(servers, shop, visits);
      }).catch((err: Error): Skipped => ({ skipped: err.message }));
      cases.push({ bus, ...figures });
    }
    return { version, cases, setupSeconds } satisfies FanoutFigures;
  });
  return fanoutReport(measured, settings);
}

type Pending = { due: number; answered?: number; message?: number; cross: boolean; updated: boolean };

async function fanoutCase(servers: Instance[], shop: Shop, visits: string[]) {
  const token = await shopperToken(servers[0]!.base);
  // Each visit's latest scan in this run; its earlier ones, complete, in `done`.
  const pending = new Map<string, Pending>();
  const done: Pending[] = [];
  let stray = 0;
  const connectStarted = performance.now();
  // Visit k's phone is connected to instance k mod 2.
  const sockets = await openSockets(servers, visits, token, (sessionId, type) => {
    const p = pending.get(sessionId);
    if (!p) {
      stray++;
      return;
    }
    if (type === "product_added" && p.message === undefined) p.message = performance.now();
    if (type === "cart_updated") p.updated = true;
  });
  const connectSeconds = (performance.now() - connectStarted) / 1000;
  try {
    const rss = servers.map((s) => residentMb(s.pid));
    let turn = 0;
    const run = async (seconds: number) => {
      pending.clear();
      done.length = 0;
      const targets: string[] = [];
      const complete = (p: Pending) => p.answered !== undefined && p.message !== undefined && p.updated;
      const next = (i: number, due: number) => {
        // The next visit in turn whose last scan has been answered and has reached its socket.
        let k = turn++ % visits.length;
        for (let tried = 1; pending.has(visits[k]!) && !complete(pending.get(visits[k]!)!); tried++) {
          if (tried >= visits.length) throw new Error(`every one of the ${visits.length} visits has a scan in flight`);
          k = turn++ % visits.length;
        }
        const sessionId = visits[k]!;
        const earlier = pending.get(sessionId);
        if (earlier) done.push(earlier);
        const home = k % INSTANCES;
        // Half the scans go to the instance that holds the visit's socket, half to another one.
        const server = Math.random() < 0.5 ? home : (home + 1) % INSTANCES;
        targets[i] = sessionId;
        pending.set(sessionId, { due, cross: server !== home, updated: false });
        const barcode = shop.barcodes[i % shop.barcodes.length]!;
        return {
          base: servers[server]!.base,
          path: SCAN_PATH,
          headers: { authorization: `Bearer ${token}` },
          body: JSON.stringify({ session_id: sessionId, barcode, scan_id: randomUUID() }),
        };
      };
      return steadyLoad({
        base: servers[0]!.base,
        rate,
        seconds,
        next,
        onAnswer: (i, status, at) => {
          const p = pending.get(targets[i]!);
          if (p && status === 200) p.answered = at;
        },
      });
    };
    await run(warmup);
    await sleep(PAUSE_MS);
    for (const s of servers) await waitIdle(s.base);
    const busy = await quietCpu();
    const machine = machineCpu();
    const load = await run(duration);
    const coresBusy = machine();
    const deadline = performance.now() + GRACE_MS;
    const waiting = () => [...pending.values()].some((p) => p.answered !== undefined && (!p.message || !p.updated));
    while (waiting() && performance.now() < deadline) await sleep(50);
    const answered = [...done, ...pending.values()].filter((p) => p.answered !== undefined);
    const arrived = answered.filter((p) => p.message !== undefined);
    const after = (p: Pending) => Math.max(0, p.message! - p.answered!);
    const sorted = (list: Pending[], f: (p: Pending) => number) => list.map(f).sort((a, b) => a - b);
    const all = sorted(arrived, after);
    const cross = sorted(
      arrived.filter((p) => p.cross),
      after,
    );
    const same = sorted(
      arrived.filter((p) => !p.cross),
      after,
    );
    const fromSend = sorted(arrived, (p) => p.message! - p.due);
    return {
      sockets: sockets.open(),
      connectSeconds,
      rssMb: rss,
      busy,
      coresBusy,
      scans: load.sent,
      achieved: load.achieved,
      non2xx: load.non2xx,
      errors: load.errors,
      answered: answered.length,
      arrived: arrived.length,
      updated: answered.filter((p) => p.updated).length,
      early: arrived.filter((p) => p.message! < p.answered!).length,
      stray,
      p50: quantile(all, 0.5),
      p95: quantile(all, 0.95),
      p99: quantile(all, 0.99),
      max: quantile(all, 1),
      crossP99: quantile(cross, 0.99),
      sameP99: quantile(same, 0.99),
      sendP99: quantile(fromSend, 0.99),
      closedEarly: sockets.closed(),
      // Node's warnings (a listener leak, say) and the servers' own warnings and errors during the case.
      warnings: [...new Set(servers.flatMap((s) => warningLines(s.output())))],
    };
  } finally {
    await sockets.close();
  }
}

type Instance = Server & { pid: number; output: () => string };

/** Node's warnings and the server's warn, error and fatal log lines, each as its message. */
function warningLines(output: string): string[] {
  return output.split("\n").flatMap((line) => {
    if (/Warning/.test(line) && !line.startsWith("{")) return [line.trim()];
    try {
      const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string } | string };
      if ((entry.level ?? 0) < 40) return [];
      const err = typeof entry.err === "string" ? entry.err : entry.err?.message;
      return [`${entry.msg ?? ""}${err ? `: ${err}` : ""}`];
    } catch {
      return [];
    }
  });
}

type Sockets = { open(): number; closed(): number; close(): Promise<void> };

/**
 * One socket per visit, visit k's on instance k mod 2, opened 200 at a time;
 * each is ready once the server answered its auth message with the cart.
 */
async function openSockets(
  servers: Server[],
  visits: string[],
  token: string,
  onMessage: (sessionId: string, type: string) => void,
): Promise<Sockets> {
  const sockets: WebSocket[] = [];
  let closed = 0;
  let ready = 0;
  const connect = (k: number) =>
    new Promise<void>((resolve, reject) => {
      const sessionId = visits[k]!;
      const base = servers[k % servers.length]!.base.replace(/^http/, "ws");
      const socket = new WebSocket(`${base}/ws/cart?session_id=${sessionId}`);
      sockets.push(socket);
      const timer = setTimeout(() => reject(new Error(`socket ${k} not ready within 30 s`)), 30_000);
      socket.addEventListener("open", () => socket.send(JSON.stringify({ type: "auth", access_token: token })));
      socket.addEventListener("message", (event) => {
        const type = (JSON.parse(String(event.data)) as { type: string }).type;
        if (type === "ready") {
          clearTimeout(timer);
          ready++;
          resolve();
        } else onMessage(sessionId, type);
      });
      socket.addEventListener("close", (event) => {
        closed++;
        clearTimeout(timer);
        reject(new Error(`socket ${k} closed with ${event.code} ${event.reason}`));
      });
    });
  let k = 0;
  const worker = async () => {
    while (k < visits.length) await connect(k++);
  };
  try {
    await Promise.all(Array.from({ length: 200 }, worker));
  } catch (err) {
    for (const s of sockets) s.close();
    throw err;
  }
  return {
    open: () => ready - closed,
    closed: () => closed,
    close: async () => {
      for (const s of sockets) s.close();
      await sleep(500);
    },
  };
}

/**
 * Two instances of the real server on one database with one secret key (a
 * token from one verifies on the other), the first signed in as admin.
 * Started one after the other, so the first runs the migrations alone.
 */
async function withInstances<T>(
  env: Record<string, string>,
  password: string,
  use: (servers: Instance[]) => Promise<T>,
): Promise<T> {
  const children: Child[] = [];
  const dirs: string[] = [];
  const servers: Instance[] = [];
  const email = "bench@example.com";
  try {
    for (let i = 0; i < INSTANCES; i++) {
      const dir = mkdtempSync(path.join(os.tmpdir(), "glide-bench-"));
      dirs.push(dir);
      const port = await freePort();
      const child = start(["apps/server/src/main.ts"], {
        ...env,
        NODE_ENV: "production",
        PORT: String(port),
        HOST,
        DATA_DIR: dir,
        LOG_LEVEL: "warn",
        ADMIN_EMAIL: email,
      });
      children.push(child);
      const base = `http://${HOST}:${port}`;
      await waitReady(child, `${base}/api/health`);
      servers.push({
        base,
        port,
        session: "",
        pid: child.pid!,
        log: () => serverLog(child),
        output: () => child.output,
      });
    }
    const login = await call(`${servers[0]!.base}/api/v1/admin/login`, { method: "POST", json: { email, password } });
    const cookie = login.headers.getSetCookie().find((c) => c.startsWith("glide_admin_session="));
    if (!cookie) throw new Error("sign-in set no glide_admin_session cookie");
    for (const s of servers) s.session = cookie.split(";")[0]!;
    return await use(servers);
  } catch (err) {
    for (const child of children) await stop(child);
    throw new Error(children.map((child, i) => `instance ${i + 1}: ${failure(err, child)}`).join("\n"));
  } finally {
    for (const child of children) await stop(child);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

/** The soft limit on open files of this process, from /proc (null elsewhere). */
export function openFileLimit(): number | null {
  try {
    const line = readFileSync("/proc/self/limits", "utf8")
      .split("\n")
      .find((l) => l.startsWith("Max open files"));
    const soft = line?.split(/\s{2,}/)[1];
    return soft && /^\d+$/.test(soft) ? Number(soft) : null;
  } catch {
    return null;
  }
}

/** A process's resident memory in MB, from /proc (null elsewhere). */
function residentMb(pid: number): number | null {
  try {
    const line = readFileSync(`/proc/${pid}/status`, "utf8")
      .split("\n")
      .find((l) => l.startsWith("VmRSS:"));
    return line ? Math.round(Number(line.split(/\s+/)[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/** Whether something answers Redis's PING at `url`. */
function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || 6379) });
    socket.setTimeout(2000, () => {
      socket.destroy();
      resolve(false);
    });
    socket.on("error", () => resolve(false));
    socket.on("connect", () => socket.write("PING\r\n"));
    socket.on("data", (d) => {
      socket.destroy();
      resolve(d.toString().startsWith("+PONG"));
    });
  });
}
