import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Pool } from "pg";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.ts";
import { loadConfig } from "../config.ts";
import { freshDatabase, TEST_DATABASE_URL } from "../test/harness.ts";
import { DataFolderLockedError, openDatabase, PROBE_INTERVAL_MS, sql } from "./client.ts";
import { holderOf, lockFolder } from "./folder-lock.ts";
import { stores } from "./schema/index.ts";

const logger = pino({ level: "silent" });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A logger whose lines the test can read. */
function capturingLogger() {
  const lines: { level: number; msg: string }[] = [];
  const log = pino({ level: "info" }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { log, lines, messages: () => lines.map((l) => l.msg) };
}

describe("embedded database folder", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "glide-lock-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("refuses a second opener with a clear message, and keeps the data across reopenings", async () => {
    const first = await openDatabase({ dataDir: dir, logger });
    await first.db.insert(stores).values({ name: "Kept" });
    await expect(openDatabase({ dataDir: dir, logger })).rejects.toThrowError(DataFolderLockedError);
    await expect(openDatabase({ dataDir: dir, logger })).rejects.toThrowError(/is in use by another process/);
    await first.close();

    const second = await openDatabase({ dataDir: dir, logger });
    const rows = await second.db.select().from(stores);
    expect(rows.map((r) => r.name)).toEqual(["Kept"]);
    await second.close();
    // Two embedded databases opened with their migrations: on a busy machine that is most of half a minute.
  }, 60_000);
});

describe("embedded database lock after an unclean exit", () => {
  // The rules are checked on the lock alone (opening PGlite each time would only add seconds);
  // the test above shows openDatabase refusing with its message.
  const lockModule = path.join(import.meta.dirname, "folder-lock.ts");
  const folders: string[] = [];
  const folder = () => {
    const dir = mkdtempSync(path.join(tmpdir(), "glide-lock-"));
    folders.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });

  /** Runs `code` (an ES module) in a real second process until it prints `ready`; `kill` ends it as a crash would. */
  async function otherProcess(code: string) {
    const child = spawn(process.execPath, ["--input-type=module", "-e", `${code}; setInterval(() => {}, 1000);`], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    for (let i = 0; i < 200 && !out.includes("ready") && child.exitCode === null; i++) await sleep(50);
    expect(out).toContain("ready");
    const kill = async () => {
      const gone = new Promise((resolve) => child.once("exit", resolve));
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGKILL");
        await gone;
      }
    };
    return { pid: child.pid, kill };
  }

  it("refuses a folder that another live process holds, and takes it over once that process is killed", async () => {
    const dir = folder();
    const other = await otherProcess(
      `const { lockFolder } = await import(${JSON.stringify(lockModule)});
       await lockFolder(${JSON.stringify(dir)}); console.log("ready")`,
    );
    try {
      await expect(lockFolder(dir)).rejects.toThrowError(
        new RegExp(`is in use by another process \\(pid ${other.pid}\\)`),
      );
    } finally {
      await other.kill();
    }
    // Killed without releasing: the file still names it, but it no longer runs.
    expect(JSON.parse(readFileSync(path.join(dir, "db.lock"), "utf8")).pid).toBe(other.pid);
    (await lockFolder(dir))();
  });

  it("believes the holder's socket over pids, which another container does not share", async () => {
    const dir = folder();
    const socket = "db-0123456789ab.sock";
    const beacon = await otherProcess(
      `const net = await import("node:net");
       net.createServer((s) => s.destroy()).listen(${JSON.stringify(path.join(dir, socket))}, () => console.log("ready"))`,
    );
    const lock = path.join(dir, "db.lock");
    const me = holderOf(process.pid);
    try {
      // Our own pid from another start (PID 1 of another container): by pids alone it would be taken over.
      writeFileSync(lock, JSON.stringify({ ...me, start: String(Number(me.start) - 1), socket }));
      await expect(lockFolder(dir)).rejects.toThrowError(DataFolderLockedError);
    } finally {
      await beacon.kill();
    }
    // Its socket file is left, and nobody answers: gone, even though by pids alone this is a live holder.
    writeFileSync(lock, JSON.stringify({ ...me, socket }));
    (await lockFolder(dir))();
    expect(() => readFileSync(path.join(dir, socket))).toThrowError(/ENOENT/);
  });

  it("takes over a lock holding our own pid from an earlier life (PID 1 in a container), or only our pid", async () => {
    const dir = folder();
    const me = holderOf(process.pid);
    expect(me.start).not.toBeNull();
    writeFileSync(path.join(dir, "db.lock"), JSON.stringify({ ...me, start: String(Number(me.start) - 1) }));
    (await lockFolder(dir))();
    // The lock format before start times: the pid alone.
    writeFileSync(path.join(dir, "db.lock"), String(process.pid));
    (await lockFolder(dir))();
  });

  it("refuses a lock of this very process, and one of a live process written at another boot is taken over", async () => {
    const dir = folder();
    const lock = path.join(dir, "db.lock");
    writeFileSync(lock, JSON.stringify(holderOf(process.pid)));
    await expect(lockFolder(dir)).rejects.toThrowError(DataFolderLockedError);
    // pid 1 runs (init), but not as the process of another boot that wrote this.
    writeFileSync(lock, JSON.stringify({ ...holderOf(1), boot: "another-boot" }));
    (await lockFolder(dir))();
  });

  it("refuses a live pid whose start time matches, and takes over the same pid with another start time", async () => {
    const dir = folder();
    const lock = path.join(dir, "db.lock");
    const init = holderOf(1);
    writeFileSync(lock, JSON.stringify(init));
    await expect(lockFolder(dir)).rejects.toThrowError(/in use by another process \(pid 1\)/);
    writeFileSync(lock, JSON.stringify({ ...init, start: String(Number(init.start) + 1) }));
    (await lockFolder(dir))();
  });

  it("takes over a lock file holding garbage, and leaves no lock behind once released", async () => {
    for (const garbage of ["", "not a pid", '{"pid":-3}', '{"pid":']) {
      const dir = folder();
      writeFileSync(path.join(dir, "db.lock"), garbage);
      const release = await lockFolder(dir);
      await expect(lockFolder(dir)).rejects.toThrowError(DataFolderLockedError);
      release();
      expect(readdirSync(dir)).toEqual([]);
    }
  });
});

/**
 * A TCP relay in front of PostgreSQL that the test can cut and restore:
 * from the service's side that is PostgreSQL going away and coming back.
 */
class Relay {
  server: net.Server | undefined;
  sockets = new Set<net.Socket>();
  port = 0;
  readonly target: URL;
  constructor(target: URL) {
    this.target = target;
  }

  async start(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(Number(this.target.port || 5432), this.target.hostname);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on("close", () => this.sockets.delete(s));
        s.on("error", () => {});
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(this.port, "127.0.0.1", resolve));
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

describe.skipIf(!TEST_DATABASE_URL)("PostgreSQL going away", () => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  let relay: Relay;
  let app: Awaited<ReturnType<typeof buildApp>>;

  beforeAll(async () => {
    fresh = await freshDatabase();
    relay = new Relay(new URL(fresh.url!));
    await relay.start();
    const viaRelay = new URL(fresh.url!);
    viaRelay.hostname = "127.0.0.1";
    viaRelay.port = String(relay.port);
    const dataDir = mkdtempSync(path.join(tmpdir(), "glide-pg-"));
    app = await buildApp(
      loadConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", DATA_DIR: dataDir, DATABASE_URL: viaRelay.toString() }),
    );
  });
  afterAll(async () => {
    await app.close();
    await relay.stop();
    await fresh.database.close();
    await fresh.drop();
  });

  it("reports 503 while it is down and serves the first request after it is back", async () => {
    expect((await app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);
    // Warm the pool so it holds connections that are about to die.
    await Promise.all([1, 2, 3].map(() => app.db.execute(sql`select pg_sleep(0.01)`)));

    await relay.stop();
    const down = await app.inject({ method: "GET", url: "/api/health" });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({ status: "unavailable", database: { kind: "postgres", status: "down" } });
    // A load balancer sends this instance nothing meanwhile.
    const notReady = await app.inject({ method: "GET", url: "/api/ready" });
    expect([notReady.statusCode, notReady.json()]).toEqual([503, { status: "database_unavailable" }]);

    await relay.start();
    const [row] = await app.db.select().from(stores).limit(1);
    expect(row).toBeUndefined();
    expect((await app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);
    expect((await app.inject({ method: "GET", url: "/api/ready" })).json()).toEqual({ status: "ready" });
  });

  it("answers API calls 503 database_unavailable with Retry-After while it is down, and logs the outage once each way", async () => {
    const viaRelay = new URL(fresh.url!);
    viaRelay.hostname = "127.0.0.1";
    viaRelay.port = String(relay.port);
    const capture = capturingLogger();
    const database = await openDatabase({ databaseUrl: viaRelay.toString(), logger: capture.log, poolSize: 3 });
    try {
      // A wrong query is not an outage.
      await expect(database.db.execute(sql`select * from no_such_table`)).rejects.toThrow();
      expect(database.health.up).toBe(true);

      await relay.stop();
      for (let i = 0; i < 5; i++) await expect(database.db.select().from(stores)).rejects.toThrow();
      const down = await app.inject({
        method: "GET",
        url: `/api/v1/public/stores/${"0".repeat(8)}-0000-4000-8000-${"0".repeat(12)}`,
      });
      for (let i = 0; i < 20 && database.health.up; i++) await sleep(50);
      expect(database.health.up).toBe(false);
      expect(capture.messages().filter((m) => /database unreachable/.test(m))).toHaveLength(1);
      expect(capture.lines.filter((l) => l.level >= 40)).toHaveLength(1);
      expect(down.statusCode).toBe(503);
      expect(down.headers["retry-after"]).toBe("2");
      expect(down.json()).toEqual({ detail: expect.any(String), code: "database_unavailable" });

      await relay.start();
      // Nobody asks, yet the probe notices it is back.
      for (let i = 0; i < 40 && !database.health.up; i++) await sleep(PROBE_INTERVAL_MS / 2);
      expect(database.health.up).toBe(true);
      expect(capture.messages().filter((m) => /database reachable again/.test(m))).toHaveLength(1);
      expect(await database.db.select().from(stores)).toEqual([]);
    } finally {
      await database.close();
    }
  });

  it("survives a checked-out client whose connection dies, and gives its place in the pool back", async () => {
    const database = await openDatabase({ databaseUrl: fresh.url!, logger, poolSize: 1 });
    try {
      const pool = (database.db as unknown as { $client: Pool }).$client;
      // Checked out as a transaction holds it, then its server process is ended under it.
      const held = await pool.connect();
      const lost = new Promise((resolve) => held.once("error", resolve));
      await fresh.database.db.execute(
        sql`select pg_terminate_backend(${(held as unknown as { processID: number }).processID})`,
      );
      await lost;
      // The holder never released it, as Drizzle does not when BEGIN fails; with one place in the pool,
      // the next query is served only if the pool let the dead client go by itself.
      const next = database.db.execute(sql`select 1 as one`).then(() => "served");
      expect(await Promise.race([next, sleep(3_000).then(() => "pool exhausted")])).toBe("served");
      expect(pool.totalCount).toBe(1);
      // A late release by the holder is harmless.
      expect(() => held.release()).not.toThrow();
    } finally {
      await database.close();
    }
  });
});
