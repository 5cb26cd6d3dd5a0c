import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";

/**
 * `npm start` as a user runs it, on free ports and a data folder of its own,
 * stopped by a signal to npm's process alone (not its process group, which a
 * terminal's Ctrl-C would reach): the start script, the server and the three
 * simulators must all be gone within seconds. The runs share a data
 * folder, so only the first is a first start (a folder two processes hold at
 * once would be refused, so each run also proves the last one let it go).
 */

const root = path.resolve(import.meta.dirname, "..");
const dir = mkdtempSync(path.join(tmpdir(), "glide-start-"));
// A build of our own (WEB_DIST): the start then serves it instead of building the web app.
mkdirSync(path.join(dir, "web"));
writeFileSync(path.join(dir, "web/index.html"), "<!doctype html><title>Glide</title>");
const started: number[] = [];
// Whatever a failed run left behind, so that the next run has the data folder and the test runner ends.
afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone already
    }
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A process that still runs: there, and not a zombie waiting for a parent to read its exit. */
function running(pid: number): { ppid: number; command: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (state === "Z") return null;
    return { ppid: Number(ppid), command: readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ") };
  } catch {
    return null;
  }
}

/** Every process below `pid`, with its command line. */
function descendants(pid: number): Map<number, string> {
  const all = readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map((name) => ({ pid: Number(name), info: running(Number(name)) }));
  const found = new Map<number, string>();
  for (let parents = [pid]; parents.length > 0; ) {
    const next = all.filter((p) => p.info && parents.includes(p.info.ppid));
    for (const p of next) found.set(p.pid, p.info!.command);
    parents = next.map((p) => p.pid);
  }
  return found;
}

type Start = { npm: ChildProcess; output: () => string; port: number };

async function npmStart(): Promise<Start> {
  const [port, rp, control, cameraHttp, rtsp, payment] = (await Promise.all(Array.from({ length: 6 }, freePort))) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const npm = spawn("npm", ["start"], {
    cwd: root,
    // A group of its own, so that nothing this test sends reaches the test runner.
    detached: true,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dir,
      WEB_DIST: path.join(dir, "web"),
      PORT: String(port),
      SIMULATOR_RP_PORT: String(rp),
      SIMULATOR_CONTROL_PORT: String(control),
      CAMERA_SIMULATOR_HTTP_PORT: String(cameraHttp),
      CAMERA_SIMULATOR_RTSP_PORT: String(rtsp),
      PAYMENT_SIMULATOR_PORT: String(payment),
      DEMO_DATA: "false",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.push(npm.pid!);
  let out = "";
  npm.stdout!.on("data", (d) => {
    out += d;
  });
  npm.stderr!.on("data", (d) => {
    out += d;
  });
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (npm.exitCode !== null || npm.signalCode !== null) throw new Error(`npm start stopped:\n${out}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return { npm, output: () => out, port };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`npm start did not come up:\n${out}`);
}

/** The start's processes: the script, the server and the three simulators, all below npm. */
function processesOf(start: Start): Map<number, string> {
  const below = descendants(start.npm.pid!);
  started.push(...below.keys());
  // Node processes only: a shell that runs the script (sh -c node scripts/start.ts) names it too.
  const commands = [...below.values()].filter((c) => /(^|\/)node$/.test(c.split(" ")[0]!));
  for (const what of [
    "scripts/start.ts",
    "apps/server/src/main.ts",
    "tools/bankid-simulator/main.ts",
    "tools/camera-simulator/main.ts",
    "tools/payment-simulator/main.ts",
  ])
    expect(
      commands.filter((c) => c.includes(what)),
      `${what} in ${commands.join("\n")}`,
    ).toHaveLength(1);
  // The payment simulator keeps its objects beside the database, so a restart can still refund the payments.
  expect(commands.find((c) => c.includes("tools/payment-simulator/main.ts"))).toContain(
    `--state-file ${path.join(dir, "payment-simulator.json")}`,
  );
  return below;
}

/** Waits until none of `pids` runs; returns those still running after `ms`. */
async function leftAfter(pids: number[], ms: number): Promise<string[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const left = pids.flatMap((pid) => {
      const info = running(pid);
      return info ? [`${pid} ${info.command}`] : [];
    });
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!existsSync("/proc/self/stat"))("npm start's processes", () => {
  it.each(["SIGTERM", "SIGINT", "SIGHUP"] as const)(
    "all stop when npm alone gets %s",
    async (signal) => {
      const start = await npmStart();
      const processes = processesOf(start);
      start.npm.kill(signal);
      expect(await leftAfter([start.npm.pid!, ...processes.keys()], 8_000), start.output()).toEqual([]);
      await expect(fetch(`http://127.0.0.1:${start.port}/api/health`)).rejects.toThrow();
    },
    120_000,
  );

  it("all stop, the server once and cleanly, on a terminal's Ctrl-C (SIGINT to npm's whole process group)", async () => {
    const start = await npmStart();
    const processes = processesOf(start);
    const exited = new Promise<number | null>((resolve) => start.npm.on("exit", (code) => resolve(code)));
    // npm passes the SIGINT on to the script, which has it already: a second signal must not cut the close short.
    process.kill(-start.npm.pid!, "SIGINT");
    expect(await leftAfter([start.npm.pid!, ...processes.keys()], 8_000), start.output()).toEqual([]);
    expect(await exited, start.output()).toBe(0);
  }, 120_000);

  it("all stop when the start script itself is killed outright", async () => {
    const start = await npmStart();
    const processes = processesOf(start);
    const script = [...processes].find(([, command]) => /node scripts\/start\.ts/.test(command))![0];
    // SIGKILL: no handler of the script's runs; the server and each simulator notice by themselves that it is gone.
    process.kill(script, "SIGKILL");
    expect(await leftAfter([start.npm.pid!, ...processes.keys()], 8_000), start.output()).toEqual([]);
  }, 120_000);
});
