import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../test/cluster.ts";

/**
 * PostgreSQL restarted under write load, end to end: a PostgreSQL of our own
 * on a spare port, the real server (main.ts) as a child process, twenty
 * connections of reads and product creates, then `pg_ctl stop -m fast` (what
 * a restart does first: in-flight transactions get 57P01) and a start. The
 * service must stay up, answer 503 in our shape while the database is away,
 * serve again within a second of its return, keep every acknowledged write
 * and log the outage once, without SQL parameters.
 */

const pgBin = (() => {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, "bin", "pg_ctl")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], "bin") : null;
})();
const serverMain = path.resolve(import.meta.dirname, "../main.ts");
const isRoot = process.getuid?.() === 0;
const WORKERS = 20;
const PASSWORD = "outage test password 1";
// Put in every product name: it must never show in the log, which would mean SQL parameters were logged.
const MARKER = `zq${randomBytes(5).toString("hex")}`;

/** initdb refuses to run as root, so as root PostgreSQL's own tools run as the postgres user. */
function pgTool(tool: string, args: string[], opts: { timeout?: number } = {}): string {
  const [cmd, argv] = isRoot
    ? ["runuser", ["-u", "postgres", "--", path.join(pgBin!, tool), ...args]]
    : [path.join(pgBin!, tool), args];
  return execFileSync(cmd, argv, { encoding: "utf8", timeout: opts.timeout ?? 20_000, stdio: "pipe" });
}

function pgToolAsync(tool: string, args: string[]): Promise<void> {
  const [cmd, argv] = isRoot
    ? ["runuser", ["-u", "postgres", "--", path.join(pgBin!, tool), ...args]]
    : [path.join(pgBin!, tool), args];
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { stdio: "ignore", timeout: 20_000 });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${tool} exited with ${code}`))));
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Outcome = {
  op: "create" | "list" | "health";
  started: number;
  finished: number;
  status: number;
  code?: string;
  retryAfter: string | null;
  sku?: string;
  failure?: string;
};

// CI must prove the restart: there a machine without PostgreSQL's server binaries fails, it does not skip.
describe.runIf(!pgBin && !!process.env.CI && !process.env.TEST_DATABASE_URL)("PostgreSQL restart in CI", () => {
  it("needs PostgreSQL's server binaries (Debian's postgresql package) to run the restart test", () => {
    expect.fail("no /usr/lib/postgresql/*/bin/pg_ctl: install postgresql so the restart under load is tested");
  });
});

// It starts a PostgreSQL of its own, so it runs once per `npm test`: in the embedded-database pass.
describe.skipIf(!pgBin || !!process.env.TEST_DATABASE_URL)(
  "PostgreSQL restarted under write load (needs /usr/lib/postgresql/*/bin)",
  () => {
    const dir = mkdtempSync(path.join(tmpdir(), "glide-outage-"));
    const pgData = path.join(dir, "pg");
    let pgPort = 0;
    let base = "";
    let server: ChildProcess;
    let log = "";
    let exited: number | string | null = null;

    beforeAll(async () => {
      if (isRoot) {
        const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }));
        const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }));
        chownSync(dir, uid, gid);
      }
      pgPort = await freePort();
      pgTool("initdb", ["-D", pgData, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"]);
      const options = `-p ${pgPort} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=40`;
      pgTool("pg_ctl", ["start", "-D", pgData, "-w", "-t", "20", "-l", path.join(dir, "pg.log"), "-o", options]);

      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      server = spawn(process.execPath, [serverMain], {
        env: {
          PATH: process.env.PATH,
          NODE_ENV: "development",
          HOST: "127.0.0.1",
          PORT: String(port),
          PUBLIC_URL: base,
          DATA_DIR: path.join(dir, "data"),
          DATABASE_URL: `postgres://postgres@127.0.0.1:${pgPort}/postgres`,
          DATABASE_POOL_SIZE: "10",
          ADMIN_EMAIL: "outage@example.se",
          ADMIN_PASSWORD: PASSWORD,
          SECRET_KEY: randomBytes(32).toString("hex"),
          LOG_LEVEL: "info",
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      server.stdout?.on("data", (chunk: Buffer) => {
        log += chunk.toString();
      });
      server.stderr?.on("data", (chunk: Buffer) => {
        log += chunk.toString();
      });
      server.on("exit", (code, signal) => {
        exited = code ?? signal;
      });
      for (let i = 0; i < 250 && !log.includes("Glide is running"); i++) {
        if (exited !== null) throw new Error(`the server did not start:\n${log}`);
        await sleep(100);
      }
      if (!log.includes("Glide is running")) throw new Error(`the server did not start within 25 s:\n${log}`);
    });

    afterAll(async () => {
      // OUTAGE_LOG=<file> keeps the server's log for a look after a failure.
      if (process.env.OUTAGE_LOG) writeFileSync(process.env.OUTAGE_LOG, log);
      server?.kill("SIGKILL");
      try {
        pgTool("pg_ctl", ["stop", "-D", pgData, "-m", "immediate", "-w"]);
      } catch {
        // Not running: nothing to stop.
      }
      rmSync(dir, { recursive: true, force: true });
    });

    it("stays up, answers 503 while the database is away, recovers within a second and keeps every acknowledged write", async () => {
      const login = await fetch(`${base}/api/v1/admin/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "outage@example.se", password: PASSWORD }),
      });
      expect(login.status).toBe(200);
      const cookie = login.headers
        .getSetCookie()
        .map((c) => c.split(";")[0] ?? "")
        .join("; ");

      const outcomes: Outcome[] = [];
      let stopAt = Number.POSITIVE_INFINITY;
      const hardStop = Date.now() + 20_000;
      const worker = async (w: number) => {
        for (let i = 0; i < 5_000 && Date.now() < stopAt && Date.now() < hardStop; i++) {
          const op: Outcome["op"] = i % 4 === 3 ? "health" : i % 2 === 0 ? "create" : "list";
          const sku = `W${w}-${i}`;
          const started = Date.now();
          try {
            const res =
              op === "create"
                ? await fetch(`${base}/api/v1/products/`, {
                    method: "POST",
                    headers: { "content-type": "application/json", cookie },
                    body: JSON.stringify({ sku, name: `${MARKER} ${sku}`, price: 10 }),
                    signal: AbortSignal.timeout(10_000),
                  })
                : await fetch(`${base}${op === "list" ? "/api/v1/products/?limit=5" : "/api/health"}`, {
                    headers: { cookie },
                    signal: AbortSignal.timeout(10_000),
                  });
            const body = (await res.json()) as { code?: string; status?: string };
            outcomes.push({
              op,
              started,
              finished: Date.now(),
              status: res.status,
              code: body.code ?? body.status,
              retryAfter: res.headers.get("retry-after"),
              sku,
            });
          } catch (err) {
            outcomes.push({
              op,
              started,
              finished: Date.now(),
              status: 0,
              retryAfter: null,
              failure: (err as Error).message,
            });
            await sleep(20);
          }
        }
      };
      const load = Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));

      const pgOptions = `-p ${pgPort} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=40`;
      const startArgs = ["-D", pgData, "-w", "-t", "20", "-l", path.join(dir, "pg.log"), "-o", pgOptions];
      await sleep(1_000);
      // The restart of the report: fast shutdown (57P01 to every transaction in flight) and straight back.
      const restarted = Date.now();
      await pgToolAsync("pg_ctl", ["restart", "-m", "fast", ...startArgs]);
      const restartedBack = Date.now();
      await sleep(1_500);
      // Then an outage long enough to see how requests are answered meanwhile.
      const stopped = Date.now();
      await pgToolAsync("pg_ctl", ["stop", "-D", pgData, "-m", "fast", "-w", "-t", "20"]);
      await sleep(1_200);
      await pgToolAsync("pg_ctl", ["start", ...startArgs]);
      const back = Date.now();
      await sleep(1_500);
      stopAt = Date.now();
      await load;

      // The process never went away, and no request failed at the connection level.
      expect(exited).toBeNull();
      expect(outcomes.filter((o) => o.status === 0)).toEqual([]);

      const isOk = (o: Outcome) => o.status >= 200 && o.status < 300;
      const unavailable = outcomes.filter((o) => o.status === 503);
      // Every failure is a 503 in our shape with Retry-After: no 500, no other answer.
      expect(outcomes.filter((o) => !isOk(o) && o.status !== 503)).toEqual([]);
      for (const o of unavailable) {
        expect(o.code).toBe(o.op === "health" ? "unavailable" : "database_unavailable");
        expect(Number(o.retryAfter)).toBeGreaterThan(0);
      }
      // Work went through before and after, and the outage itself was answered 503.
      expect(outcomes.some((o) => o.op === "create" && isOk(o) && o.started < restarted)).toBe(true);
      expect(
        outcomes.some((o) => o.op === "create" && isOk(o) && o.started > restartedBack && o.started < stopped),
      ).toBe(true);
      expect(unavailable.filter((o) => o.op === "create" && o.started > stopped + 200).length).toBeGreaterThan(0);
      expect(unavailable.filter((o) => o.op === "health").length).toBeGreaterThan(0);
      // A 503 only for a request in flight while PostgreSQL was away or within a second of its return.
      const windows = [
        [restarted, restartedBack + 1_000],
        [stopped, back + 1_000],
      ] as const;
      const explained = (o: Outcome) => windows.some(([from, to]) => o.started <= to && o.finished >= from);
      expect(unavailable.filter((o) => !explained(o))).toEqual([]);
      expect(outcomes.some((o) => o.op === "create" && isOk(o) && o.started > back && o.started < back + 1_000)).toBe(
        true,
      );

      // Every acknowledged create is in the table.
      const acknowledged = outcomes.filter((o) => o.op === "create" && o.status === 201).map((o) => o.sku!);
      expect(acknowledged.length).toBeGreaterThan(WORKERS);
      const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${pgPort}/postgres` });
      await client.connect();
      const { rows } = await client.query<{ sku: string }>("select sku from products where sku = any($1)", [
        acknowledged,
      ]);
      await client.end();
      expect(new Set(rows.map((r) => r.sku)).size).toBe(acknowledged.length);

      // The outage is logged once each way, and no SQL parameter reached the log.
      await sleep(300);
      const notable = log.split("\n").filter((line) => !/"msg":"(incoming request|request completed)"/.test(line));
      // The restart may be over before it is confirmed (then neither line), the outage is not. A probe may
      // also find PostgreSQL up for a moment while it shuts down or starts (a CI run saw three lines for the
      // two outages): each change is logged once, never each of the many requests answered 503 meanwhile.
      const wentAway = notable.filter((line) => /database unreachable/.test(line)).length;
      expect(wentAway).toBeGreaterThanOrEqual(1);
      expect(wentAway).toBeLessThanOrEqual(4);
      expect(notable.filter((line) => /database reachable again/.test(line))).toHaveLength(wentAway);
      expect(notable.filter((line) => /"msg":"shutting down|"level":(50|60)/.test(line))).toEqual([]);
      expect(log.includes(MARKER)).toBe(false);
      const health = await fetch(`${base}/api/health`);
      expect(health.status).toBe(200);
    }, 45_000);
  },
);
